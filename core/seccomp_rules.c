/*
 * seccomp_rules.c - the deny list itself, built with libseccomp.
 *
 * Shared by the library (a fallback) and by the build step that turns it
 * into BPF once (core/gen/seccomp_gen.c), so a run does not pay libseccomp's
 * compiler, about 1.5 ms, every time.
 *
 * clone3 answers ENOSYS without a record: its flags live in memory the
 * filter cannot read, and libc falls back to clone, whose flags it can.
 * ioctl requests are compared on their low 32 bits, because the kernel
 * does (CVE-2017-5226 was TIOCSTI out of bubblewrap; 64-bit padding must
 * not smuggle it past the filter).
 */
#include <errno.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <seccomp.h>

#include "internal.h"
#include "banned.h"

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

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
};

/* A full comparison: libseccomp's SCMP_A0() leaves a field to default,
 * which clang's -Wmissing-field-initializers rejects. */
#define ARG(n, op_, a, b) \
	((struct scmp_arg_cmp){ .arg = (n), .op = (op_), .datum_a = (a), .datum_b = (b) })

static int add_rules(scmp_filter_ctx ctx, uint32_t act)
{
	int rc = 0;
	static const uint64_t ns_each[] = {
		CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER,
		CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP, 0x00000080,
	};

	for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) {
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
	for (size_t i = 0; i < sizeof ns_each / sizeof ns_each[0]; i++)
		rc |= seccomp_rule_add(ctx, act, SCMP_SYS(clone), 1,
				       ARG(0, SCMP_CMP_MASKED_EQ, ns_each[i],
					   ns_each[i]));
	rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(ioctl), 1,
			       ARG(1, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCSTI));
	rc |= seccomp_rule_add(ctx, act, SCMP_SYS(ioctl), 1,
			       ARG(1, SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCLINUX));
	return rc;
}

void *sp_seccomp_build(uint32_t act)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	if (!ctx)
		return NULL;
	/* Another architecture's calling convention (int 0x80, x32) would
	 * dodge every rule: kill the process instead. */
	if (seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) ||
	    add_rules(ctx, act)) {
		seccomp_release(ctx);
		return NULL;
	}
	/* A binary tree of syscall numbers: every call the program makes runs
	 * the filter, so its depth is on every hot path. (Older libseccomp
	 * lacks the attribute; the linear filter is then just slower.) */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	return ctx;
}
