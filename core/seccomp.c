/* SPDX-License-Identifier: MIT */
/*
 * seccomp.c - the system call filter, and how a denied call is told back.
 *
 * The filter allows by default and denies a list of calls that reach
 * outside the sandbox or into the kernel's riskier corners. Denied calls
 * are not killed: through seccomp user notification they go to the
 * supervisor, which records what was tried (in the program's terms) and
 * answers with an errno the program can print; so are calls through
 * another architecture's ABI (int 0x80, x32), whatever they are. Where
 * the kernel lacks user notification the same rules answer EPERM
 * directly, and another ABI's call kills the process. The rules are in
 * seccomp_rules.c.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/ptrace.h>
#include <seccomp.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <unistd.h>

#include "base.h"
#include "sandbox.h"
#include "seccomp_names.h"
#include "buf.h"
#include "banned.h"

bool sp_seccomp_can_continue(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return false;
	return major > 5 || (major == 5 && minor >= 5);
}

int sp_seccomp_load(unsigned flags, int *notify_fd, struct sp_error *err)
{
	scmp_filter_ctx ctx;
	int rc;

	*notify_fd = -1;
	flags &= SP_FILTER_VARIANTS - 1;
	/* The filter as the build compiled it (tools/gen/seccomp_gen.c). */
	if (sp_seccomp_notify_bpf[flags].len > 0) {
		struct sock_fprog prog = {
			.len = (unsigned short)sp_seccomp_notify_bpf[flags].len,
			.filter = (struct sock_filter *)sp_seccomp_notify_bpf[flags].code,
		};
		struct sock_fprog plain = {
			.len = (unsigned short)sp_seccomp_errno_bpf[flags].len,
			.filter = (struct sock_filter *)sp_seccomp_errno_bpf[flags].code,
		};
		long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		if (fd >= 0) {
			*notify_fd = (int)fd;
			return 0;
		}
		/* No user notification in this kernel: deny without records. */
		if (errno == EINVAL &&
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &plain) == 0)
			return 0;
		return sp_fail_errno(err, "seccomp: load the filter");
	}
	ctx = sp_seccomp_build(SCMP_ACT_NOTIFY, flags);
	if (ctx && seccomp_load(ctx) == 0) {
		*notify_fd = seccomp_notify_fd(ctx);
		seccomp_release(ctx);
		if (*notify_fd >= 0)
			return 0;
		return sp_fail(err, "seccomp: the filter loaded but gave no notification fd");
	}
	if (ctx)
		seccomp_release(ctx);
	ctx = sp_seccomp_build(SCMP_ACT_ERRNO(EPERM), flags);
	if (!ctx)
		return sp_fail(err, "seccomp: could not build the filter");
	rc = seccomp_load(ctx);
	seccomp_release(ctx);
	if (rc < 0) {
		errno = -rc;
		return sp_fail_errno(err, "seccomp: load the filter");
	}
	return 0;
}

/* ---- describing a denied call in the program's terms ---- */

static const char *family_name(long f)
{
	switch (f) {
	case AF_INET: return "AF_INET";
	case AF_INET6: return "AF_INET6";
	case AF_NETLINK: return "AF_NETLINK";
	case AF_PACKET: return "AF_PACKET";
	case AF_BLUETOOTH: return "AF_BLUETOOTH";
	case AF_VSOCK: return "AF_VSOCK";
	case AF_ALG: return "AF_ALG";
	case AF_KEY: return "AF_KEY";
	case AF_XDP: return "AF_XDP";
	case AF_CAN: return "AF_CAN";
	case AF_TIPC: return "AF_TIPC";
	case AF_RDS: return "AF_RDS";
	default: return NULL;
	}
}

static const char *socktype_name(long t)
{
	switch (t & 0xf) {
	case SOCK_STREAM: return "SOCK_STREAM";
	case SOCK_DGRAM: return "SOCK_DGRAM";
	case SOCK_RAW: return "SOCK_RAW";
	case SOCK_SEQPACKET: return "SOCK_SEQPACKET";
	case SOCK_RDM: return "SOCK_RDM";
	default: return NULL;
	}
}

static const char *ptrace_req_name(long r)
{
	switch (r) {
	case PTRACE_TRACEME: return "PTRACE_TRACEME";
	case PTRACE_PEEKDATA: return "PTRACE_PEEKDATA";
	case PTRACE_POKEDATA: return "PTRACE_POKEDATA";
	case PTRACE_ATTACH: return "PTRACE_ATTACH";
	case PTRACE_SEIZE: return "PTRACE_SEIZE";
	case PTRACE_DETACH: return "PTRACE_DETACH";
	default: return NULL;
	}
}

/* Read a C string from the program's memory for display only; the call is
 * denied whatever it says, so what it says needs no re-check. (Whether the
 * pid still named the caller during the read is checked by the caller:
 * SECCOMP_IOCTL_NOTIF_ID_VALID after the reads.) A pid of -1 reads nothing. */
static void read_string(int pid, uint64_t addr, char *out, size_t outlen)
{
	char buf[128];
	struct iovec local = { buf, sizeof buf - 1 }, remote;
	ssize_t n;

	snprintf(out, outlen, "?");
	if (pid < 0)
		return;
	if (!addr) {
		snprintf(out, outlen, "NULL");
		return;
	}
	/* stay inside the page: the next one may be unmapped */
	size_t to_page_end = 4096 - (addr & 4095);
	if (to_page_end < local.iov_len)
		local.iov_len = to_page_end;
	remote.iov_base = (void *)(uintptr_t)addr;
	remote.iov_len = local.iov_len;
	n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (n <= 0)
		return;
	buf[n] = '\0';
	/* only the printable part; the rest is not ours to echo */
	for (ssize_t i = 0; i < n && buf[i]; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			buf[i] = '?';
	snprintf(out, outlen, "\"%s\"", buf);
}

static void ns_flag_names(uint64_t flags, char *out, size_t outlen)
{
#define NAMED(f) { (uint64_t)(f), #f },
	static const struct { uint64_t f; const char *n; } t[] = {
		SP_CLONE_NS_LIST(NAMED)
	};
#undef NAMED
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < SP_ARRAY_SIZE(t); i++) {
		if (!(flags & t[i].f))
			continue;
		used += (size_t)snprintf(out + used, outlen > used ? outlen - used : 0,
					 "%s%s", used ? "|" : "", t[i].n);
		if (used >= outlen)
			break;
	}
	if (!out[0])
		snprintf(out, outlen, "0x%llx", (unsigned long long)flags);
}

/* A call refused because it named init (pid 1, its process group, or all
 * of the uid's processes): described as such; false for other calls. */
static bool init_call(const char *nm, const __u64 *a, char *out, size_t outlen)
{
	static const char *const by_pid[] = {
		"prlimit64", "sched_setscheduler", "sched_setparam", "sched_setattr",
		"sched_setaffinity", "migrate_pages", "move_pages",
	};
	const char *whom = NULL;

	for (size_t i = 0; i < SP_ARRAY_SIZE(by_pid); i++)
		if (strcmp(nm, by_pid[i]) == 0)
			whom = "pid 1";
	if (strcmp(nm, "setpriority") == 0)
		whom = (uint32_t)a[0] == PRIO_USER ? "every process of the user" :
		       (uint32_t)a[0] == PRIO_PGRP ? "process group 1" : "pid 1";
	else if (strcmp(nm, "ioprio_set") == 0)
		whom = (uint32_t)a[0] == 3 ? "every process of the user" :
		       (uint32_t)a[0] == 2 ? "process group 1" : "pid 1";
	if (!whom)
		return false;
	snprintf(out, outlen, "%s(%s): the sandbox's init is out of the program's reach",
		 nm, whom);
	return true;
}

/* One uid or gid argument, as the kernel reads it (the low 32 bits). */
static void owner_arg(char *out, size_t outlen, uint64_t id)
{
	if ((uint32_t)id == UINT32_MAX)
		snprintf(out, outlen, "-1");
	else
		snprintf(out, outlen, "%u", (unsigned)(uint32_t)id);
}

/* A call that gives a file or a process to a user (seccomp_rules.c,
 * add_owner_rules): CONTINUE when every uid and gid it names is the
 * sandbox's own or -1, else a denial with EPERM described in v->what.
 * False for other calls. */
static bool owner_call(int pid, const char *nm, const __u64 *a, struct sp_syscall_verdict *v)
{
	static const struct {
		const char *name;
		signed char path;   /* the path argument, or -1 */
		signed char first;  /* the first id argument */
		signed char n;      /* how many ids */
		char ids;           /* 'o' owner (uid, gid), 'u' uids, 'g' gids */
	} calls[] = {
		{ "chown", 0, 1, 2, 'o' }, { "lchown", 0, 1, 2, 'o' },
		{ "fchown", -1, 1, 2, 'o' }, { "fchownat", 1, 2, 2, 'o' },
		{ "setuid", -1, 0, 1, 'u' }, { "setgid", -1, 0, 1, 'g' },
		{ "setreuid", -1, 0, 2, 'u' }, { "setregid", -1, 0, 2, 'g' },
		{ "setresuid", -1, 0, 3, 'u' }, { "setresgid", -1, 0, 3, 'g' },
	};
	char ids[3][16], path[140];
	bool foreign = false;
	size_t i;

	for (i = 0; i < SP_ARRAY_SIZE(calls); i++)
		if (strcmp(nm, calls[i].name) == 0)
			break;
	if (i == SP_ARRAY_SIZE(calls))
		return false;
	for (int k = 0; k < calls[i].n; k++) {
		uint32_t id = (uint32_t)a[calls[i].first + k];
		bool is_gid = calls[i].ids == 'g' || (calls[i].ids == 'o' && k == 1);
		uint32_t own = is_gid ? SP_SANDBOX_GID : SP_SANDBOX_UID;
		if (id != own && id != UINT32_MAX)
			foreign = true;
		owner_arg(ids[k], sizeof ids[k], id);
	}
	if (!foreign) {
		v->action = SP_VERDICT_CONTINUE;
		return true;
	}
	v->error = EPERM;
	if (calls[i].ids == 'o') {
		if (calls[i].path >= 0)
			read_string(pid, a[calls[i].path], path, sizeof path);
		else
			snprintf(path, sizeof path, "fd %lld", (long long)(int)a[0]);
		snprintf(v->what, sizeof v->what,
			 "%s(%s, %s, %s): only the sandbox's own user (uid %d) exists here, "
			 "so files cannot be given to another", nm, path, ids[0], ids[1],
			 SP_SANDBOX_UID);
	} else {
		snprintf(v->what, sizeof v->what,
			 "%s(%s%s%s%s%s): only the sandbox's own user (uid %d) exists here, "
			 "so a process cannot become another", nm, ids[0],
			 calls[i].n > 1 ? ", " : "", calls[i].n > 1 ? ids[1] : "",
			 calls[i].n > 2 ? ", " : "", calls[i].n > 2 ? ids[2] : "", SP_SANDBOX_UID);
	}
	return true;
}

/*
 * A call through another architecture's ABI: an i386 call (int 0x80) or
 * an x32 one (the native arch, with the x32 bit in the number). The
 * filter sends every such call here (seccomp_rules.c): its rules are the
 * native ABI's, and their numbers mean other calls there. Refused,
 * whatever it is, with a record; false for a native call. Nothing of the
 * call is read or let through (an i386 mmap or clone is no allocation or
 * process to observe here: it is refused like the rest).
 */
static bool foreign_call(const struct seccomp_notif *req, struct sp_syscall_verdict *v)
{
	uint32_t arch = req->data.arch, nr = (uint32_t)req->data.nr;
	const char *abi;
	char other[32], *name;

	if (arch == SCMP_ARCH_X86_64 && (nr & 0x40000000u)) {
		arch = SCMP_ARCH_X32;
		abi = "x32";
	} else if (arch == seccomp_arch_native()) {
		return false;
	} else if (arch == SCMP_ARCH_X86) {
		abi = "i386";
	} else if (arch == SCMP_ARCH_ARM) {
		abi = "32-bit ARM";
	} else {
		snprintf(other, sizeof other, "architecture 0x%x", (unsigned)arch);
		abi = other;
	}
	name = seccomp_syscall_resolve_num_arch(arch, (int)nr);
	v->kind = SP_VIOL_SYSCALL;
	v->action = SP_VERDICT_DENY;
	v->error = EPERM;
	snprintf(v->what, sizeof v->what,
		 "%s system call %u (%s): every call through another architecture's ABI "
		 "is refused, since the filter's rules are the native ABI's",
		 abi, (unsigned)(nr & ~0x40000000u), name ? name : "unknown");
	free(name);
	return true;
}

void sp_seccomp_describe(int pid, const struct seccomp_notif *req,
			 struct sp_syscall_verdict *v)
{
	/* the same call is usually denied again and again: keep its name,
	 * one cache a thread, so runs supervised on two threads never read a
	 * name half written by the other */
	static _Thread_local uint32_t last_arch;
	static _Thread_local int last_nr = -1;
	static _Thread_local char last_name[48] = "unknown";
	const char *nm = last_name;
	char *name = NULL;

	if (foreign_call(req, v))
		return;
	if ((int)req->data.nr != last_nr || req->data.arch != last_arch) {
		name = seccomp_syscall_resolve_num_arch(req->data.arch, req->data.nr);
		snprintf(last_name, sizeof last_name, "%s", name ? name : "unknown");
		last_nr = (int)req->data.nr;
		last_arch = req->data.arch;
	}
	const __u64 *a = req->data.args;

	v->kind = SP_VIOL_SYSCALL;
	v->action = SP_VERDICT_DENY;
	v->error = EPERM;
	if (strcmp(nm, "mmap") == 0) {
		/* MAP_FIXED may replace pages already counted: no estimate */
		v->action = SP_VERDICT_MEMORY;
		v->bytes = (a[3] & MAP_FIXED) ? 0 : (a[1] + 4095) & ~(uint64_t)4095;
	} else if (strcmp(nm, "mremap") == 0) {
		v->action = SP_VERDICT_MEMORY;
		v->bytes = a[2] > a[1] ? ((a[2] - a[1]) + 4095) & ~(uint64_t)4095 : 0;
	} else if ((strcmp(nm, "clone") == 0 && !(a[0] & SP_CLONE_NS_FLAGS)) ||
		   strcmp(nm, "fork") == 0 || strcmp(nm, "vfork") == 0) {
		v->kind = SP_VIOL_PROCESS;
		v->action = SP_VERDICT_SPAWN;
		v->error = EAGAIN;
		snprintf(v->what, sizeof v->what, "%s()", nm);
	} else if (owner_call(pid, nm, a, v)) {
		/* refused only when it names another user (seccomp_rules.c) */
	} else if (init_call(nm, a, v->what, sizeof v->what)) {
		/* made by a program that tried to reach init: see seccomp_rules.c */
	} else if (strcmp(nm, "rt_sigaction") == 0) {
		v->action = SP_VERDICT_SIGCHLD;
		snprintf(v->what, sizeof v->what,
			 "rt_sigaction(SIGCHLD): without a CPU cgroup a child the kernel "
			 "reaps itself would take its CPU time out of the count");
	} else if (strcmp(nm, "fcntl") == 0) {
		snprintf(v->what, sizeof v->what,
			 "fcntl(F_SETPIPE_SZ, %llu): a pipe holds at most 65536 bytes here",
			 (unsigned long long)a[2]);
	} else if (strcmp(nm, "socket") == 0 || strcmp(nm, "socketpair") == 0) {
		const char *fam = family_name((long)a[0]);
		const char *typ = socktype_name((long)a[1]);
		char fb[24], tb[24];
		if (!fam) {
			snprintf(fb, sizeof fb, "%llu", (unsigned long long)a[0]);
			fam = fb;
		}
		if (!typ) {
			snprintf(tb, sizeof tb, "%llu", (unsigned long long)a[1]);
			typ = tb;
		}
		v->kind = SP_VIOL_NETWORK;
		v->error = EACCES;
		snprintf(v->what, sizeof v->what, "%s(%s, %s)", nm, fam, typ);
	} else if (strcmp(nm, "ptrace") == 0) {
		const char *r = ptrace_req_name((long)a[0]);
		if (r)
			snprintf(v->what, sizeof v->what, "ptrace(%s, %lld)", r,
				 (long long)(int)a[1]);
		else
			snprintf(v->what, sizeof v->what, "ptrace(%lld, %lld)",
				 (long long)a[0], (long long)(int)a[1]);
	} else if (strcmp(nm, "mount") == 0) {
		char src[140], dst[140];
		read_string(pid, a[0], src, sizeof src);
		read_string(pid, a[1], dst, sizeof dst);
		snprintf(v->what, sizeof v->what, "mount(%s, %s)", src, dst);
	} else if (strcmp(nm, "umount2") == 0 || strcmp(nm, "chroot") == 0 ||
		   strcmp(nm, "pivot_root") == 0) {
		char p[140];
		read_string(pid, a[0], p, sizeof p);
		snprintf(v->what, sizeof v->what, "%s(%s)", nm, p);
	} else if (strcmp(nm, "unshare") == 0 || strcmp(nm, "clone") == 0 ||
		   strcmp(nm, "setns") == 0) {
		char fl[160];
		ns_flag_names(strcmp(nm, "setns") == 0 ? a[1] : a[0], fl, sizeof fl);
		snprintf(v->what, sizeof v->what, "%s(%s)", nm, fl);
	} else if (strcmp(nm, "ioctl") == 0) {
		uint32_t reqno = (uint32_t)a[1];
		const char *req_name = "?";
#define NAME_IF(r) if (reqno == (uint32_t)(r)) req_name = #r;
		SP_DENIED_IOCTL_LIST(NAME_IF)
#undef NAME_IF
		snprintf(v->what, sizeof v->what, "ioctl(%s)", req_name);
	} else if (strncmp(nm, "inotify_init", 12) == 0 || strcmp(nm, "fanotify_init") == 0) {
		snprintf(v->what, sizeof v->what,
			 "%s(): watching files is refused, since the read-only system "
			 "files are the host's own and a watch would see the host's activity",
			 nm);
	} else if (strstr(nm, "setxattr")) {
		snprintf(v->what, sizeof v->what,
			 "%s(): extended attributes are refused, since they would be stored "
			 "outside the work dir's size limit", nm);
	} else {
		snprintf(v->what, sizeof v->what, "%s()", nm);
	}
	free(name);
}
