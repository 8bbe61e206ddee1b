/* SPDX-License-Identifier: MIT */
/*
 * seccomp_rules.c - the deny list itself, built with libseccomp.
 *
 * Shared by the library (a fallback) and by the build step that turns it
 * into BPF once (tools/gen/seccomp_gen.c), so a run does not pay libseccomp's
 * compiler, about 1.5 ms, every time.
 *
 * clone3 answers ENOSYS without a record: its flags live in memory the
 * filter cannot read, and libc falls back to clone, whose flags it can.
 * ioctl requests are compared on their low 32 bits, because the kernel
 * does (CVE-2017-5226 was TIOCSTI out of bubblewrap; 64-bit padding must
 * not smuggle it past the filter).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <seccomp.h>

#include "sandbox.h"
#include "seccomp_names.h"
#include "buf.h"
#include "banned.h"

/* Denied outright (with a record). Names the arch lacks are skipped. */
static const char *const denied[] = {
	"io_uring_setup", "io_uring_enter", "io_uring_register",
	"bpf", "perf_event_open", "userfaultfd",
	"keyctl", "add_key", "request_key",
	"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd",
	"mount", "umount2", "umount", "pivot_root", "chroot",
	"fsopen", "fsconfig", "fsmount", "fspick", "move_mount", "open_tree",
	"mount_setattr", "unshare", "setns",
	"kexec_load", "kexec_file_load", "init_module", "finit_module",
	"delete_module", "open_by_handle_at", "name_to_handle_at",
	"acct", "swapon", "swapoff", "reboot", "syslog", "quotactl",
	"vhangup", "iopl", "ioperm", "uselib", "lookup_dcookie",
	"create_module", "get_kernel_syms", "query_module", "nfsservctl",
	"kcmp",
	/* memory no process maps, which neither RLIMIT_DATA nor the RSS
	 * samples would see without a memory cgroup: a memfd, a SysV segment
	 * after shmdt, a SysV message queue (shm_open under /dev/shm is in the
	 * work dir, and counted there) */
	"memfd_create", "memfd_secret", "shmget", "msgget",
	/* the read-only binds (/usr, parts of /etc) are the host's own
	 * inodes: a watch on them sees what the host runs and imports */
	"inotify_init", "inotify_init1", "fanotify_init",
	/* extended attributes live beside a file's data, outside the work
	 * dir's size= (and, rootless, outside any memory count) */
	"setxattr", "lsetxattr", "fsetxattr", "setxattrat",
};

/* A full comparison: libseccomp's SCMP_A0() leaves a field to default,
 * which clang's -Wmissing-field-initializers rejects. */
#define ARG(n, op_, a, b) \
	((struct scmp_arg_cmp){ .arg = (n), .op = (op_), .datum_a = (a), .datum_b = (b) })

/* pid_t, id_t and int arguments: the kernel reads only the low 32 bits */
#define LOW32(n, v) ARG(n, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, (uint32_t)(v))

/*
 * init (pid 1) runs as the program's uid, so the kernel's same-owner
 * checks would let the program change it: its rlimits, its nice value,
 * its scheduling class, its CPUs, its I/O priority. Each call that can
 * name init is refused when it does: pid 1 (0 means the caller, a
 * negative pid is refused by the kernel for these calls), init's process
 * group 1, or every process of the uid (PRIO_USER, IOPRIO_WHO_USER).
 * Signals need no rule: init keeps no handler (launch.c), and the kernel
 * drops every signal the namespace sends to an init without one.
 */
static int add_init_rules(scmp_filter_ctx ctx, uint32_t act)
{
	static const char *const by_pid[] = {
		"sched_setscheduler", "sched_setparam", "sched_setattr",
		"sched_setaffinity", "migrate_pages", "move_pages",
	};
	int rc = 0;

	for (size_t i = 0; i < SP_ARRAY_SIZE(by_pid); i++) {
		int nr = seccomp_syscall_resolve_name(by_pid[i]);
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;
		rc |= seccomp_rule_add(ctx, act, nr, 1, LOW32(0, 1));
	}
	/* setting init's limits; reading them (new == NULL) is harmless */
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(prlimit64), 2, LOW32(0, 1),
			       ARG(2, SCMP_CMP_NE, 0, 0));
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(setpriority), 2,
			       LOW32(0, PRIO_PROCESS), LOW32(1, 1));
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(setpriority), 2,
			       LOW32(0, PRIO_PGRP), LOW32(1, 1));
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(setpriority), 1,
			       LOW32(0, PRIO_USER));
	/* IOPRIO_WHO_PROCESS 1, _PGRP 2, _USER 3 */
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(ioprio_set), 2, LOW32(0, 1), LOW32(1, 1));
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(ioprio_set), 2, LOW32(0, 2), LOW32(1, 1));
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(ioprio_set), 1, LOW32(0, 3));
	return rc;
}

/*
 * Calls the supervisor only looks at, and lets run (it answers
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE), where the kernel leaves it no other
 * trace: an allocation RLIMIT_DATA is about to refuse (a writable private
 * mapping of more than 1 MiB: what glibc's malloc maps for a big block,
 * and after a refused brk for one of more than about 1 MiB; pymalloc's
 * arenas and glibc's smallest fallback are exactly 1 MiB, left out so
 * that the interpreter's start-up, which maps two arenas, pays nothing),
 * and, without a pids cgroup that
 * keeps a peak, each new process or thread (so the supervisor counts them
 * where they start, and refuses the one over the limit itself).
 */
static int add_observe_rules(scmp_filter_ctx ctx, unsigned flags)
{
	int rc = 0;

	if (flags & SP_FILTER_OBSERVE_MEMORY) {
		rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(mmap), 3,
				       ARG(1, SCMP_CMP_GT, 1u << 20, 0),
				       ARG(2, SCMP_CMP_MASKED_EQ, PROT_WRITE, PROT_WRITE),
				       ARG(3, SCMP_CMP_MASKED_EQ, MAP_SHARED | MAP_FIXED, 0));
		rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(mremap), 1,
				       ARG(2, SCMP_CMP_GT, 1u << 20, 0));
	}
	if (flags & SP_FILTER_COUNT_PROCS) {
		/* clone with a namespace flag is already denied (same action) */
		rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(clone), 0);
		rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(fork), 0);
		rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(vfork), 0);
	}
	return rc;
}

/*
 * Calls that give a file or a process to another user. Only the sandbox's
 * own user exists in its user namespace, so the kernel refuses any other
 * with EINVAL ("Invalid argument"), which reads as the program's mistake.
 * The supervisor looks at each (they are rare: os.chown, shutil.chown,
 * subprocess's user= and group=): one that names another uid or gid is
 * refused with EPERM and a record; one that names only the program's own
 * (or -1, "unchanged") goes on (seccomp.c). Letting it go on needs
 * SECCOMP_USER_NOTIF_FLAG_CONTINUE, which SP_FILTER_OBSERVE_MEMORY says
 * the kernel has; without it the kernel's EINVAL stays.
 */
static int add_owner_rules(scmp_filter_ctx ctx)
{
	static const char *const calls[] = {
		"chown", "lchown", "fchown", "fchownat",
		"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid",
	};
	int rc = 0;

	for (size_t i = 0; i < SP_ARRAY_SIZE(calls); i++) {
		int nr = seccomp_syscall_resolve_name(calls[i]);
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;
		rc |= seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0);
	}
	return rc;
}

static int add_rules(scmp_filter_ctx ctx, uint32_t act, unsigned flags)
{
	int rc = 0;
#define FLAG(f) (uint64_t)(f),
	static const uint64_t ns_each[] = { SP_CLONE_NS_LIST(FLAG) };
	static const uint32_t ioctl_each[] = { SP_DENIED_IOCTL_LIST(FLAG) };
#undef FLAG

	for (size_t i = 0; i < SP_ARRAY_SIZE(denied); i++) {
		int nr = seccomp_syscall_resolve_name(denied[i]);
		if (nr == __NR_SCMP_ERROR || nr < 0)
			continue;
		rc |= seccomp_rule_add(ctx, act, nr, 0);
	}
	/* Every socket family but AF_UNIX. */
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(socket), 1,
			       ARG(0, SCMP_CMP_NE, AF_UNIX, 0));
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(socketpair), 1,
			       ARG(0, SCMP_CMP_NE, AF_UNIX, 0));
	/* clone with any namespace flag; one rule per flag (rules OR). */
	for (size_t i = 0; i < SP_ARRAY_SIZE(ns_each); i++)
		rc |= seccomp_rule_add(ctx, act, SCMP_SYS(clone), 1,
				       ARG(0, SCMP_CMP_MASKED_EQ, ns_each[i],
					   ns_each[i]));
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	for (size_t i = 0; i < SP_ARRAY_SIZE(ioctl_each); i++)
		rc |= seccomp_rule_add(ctx, act, SCMP_SYS(ioctl), 1,
				       ARG(1, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, ioctl_each[i]));
	/* a pipe holds at most the default 64 KiB: pipes are kernel memory
	 * that, without a memory cgroup, only the supervisor's count of their
	 * contents sees, and a pipe in flight in a unix socket it cannot see
	 * (the comparison is on all 64 bits: anything above is refused) */
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(fcntl), 2, LOW32(1, F_SETPIPE_SZ),
			       ARG(2, SCMP_CMP_GT, 65536, 0));
	rc |= add_init_rules(ctx, act);
	/* Without a CPU cgroup, a child the kernel reaps itself (its parent
	 * ignores SIGCHLD or sets SA_NOCLDWAIT) takes its CPU time with it:
	 * no one waits for it, so no one's cutime holds it. seccomp cannot
	 * read the new action, so any change to SIGCHLD's is refused. */
	if (flags & SP_FILTER_KEEP_SIGCHLD)
		rc |= seccomp_rule_add(ctx, act, SCMP_SYS(rt_sigaction), 2,
				       LOW32(0, SIGCHLD), ARG(1, SCMP_CMP_NE, 0, 0));
	if (act == SCMP_ACT_NOTIFY)
		rc |= add_observe_rules(ctx, flags);
	if (act == SCMP_ACT_NOTIFY && (flags & SP_FILTER_OBSERVE_MEMORY))
		rc |= add_owner_rules(ctx);
	return rc;
}

void *sp_seccomp_build(uint32_t act, unsigned flags)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx)
		return NULL;
	/* Another architecture's calling convention (int 0x80, x32) would
	 * dodge every rule, which are the native ABI's: with user
	 * notification every such call goes to the supervisor, which refuses
	 * it whatever it is and records it (seccomp.c), from whichever
	 * process; without it the process is killed, and only the main
	 * process's SIGSYS at the end tells. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
			     act == SCMP_ACT_NOTIFY ? SCMP_ACT_NOTIFY : SCMP_ACT_KILL_PROCESS) ||
	    add_rules(ctx, act, flags)) {
		seccomp_release(ctx);
		return NULL;
	}
	/* A binary tree of syscall numbers: every call the program makes runs
	 * the filter, so its depth is on every hot path. (Older libseccomp
	 * lacks the attribute; the linear filter is then just slower.) */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	return ctx;
}
