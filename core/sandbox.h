/* SPDX-License-Identifier: MIT */
/*
 * sandbox.h - the walls, one kernel layer a file: the new root (mounts.c),
 * Landlock, capabilities, the seccomp filter and its verdicts, the run's
 * cgroups, the rlimits, and the clone that starts init in new namespaces.
 * Layer: above base.h; launch.c puts the walls up in order, doctor.c
 * asks each whether this host has it, the run reads the cgroups.
 *
 * The sandbox is three processes deep:
 *
 *   supervisor (the caller of sp_run_*; never sandboxed)
 *     '-- init    pid 1 of new user/pid/mount/net/ipc/uts/cgroup namespaces;
 *                 builds the root, then only reaps and reports
 *           '-- program  pid 2: caps dropped, no_new_privs, Landlock,
 *                        seccomp, rlimits, then execs the interpreter
 *
 * When the program exits, init kills what is left and exits; the kernel
 * then tears down the namespaces.
 *
 * Invariants: every wall is the kernel's; a layer that fails stops the
 * start with err set (fail closed), and only a kernel that lacks one
 * (Landlock, a cgroup controller, user notification) leaves it out, which
 * the result's layers then say. What runs in init or the program reports
 * through err, never stdout.
 */
#ifndef SP_SANDBOX_H
#define SP_SANDBOX_H

#include <sys/stat.h>
#include <time.h>

#include "base.h"

/* limits.c: the program's rlimits, every one of them (set last before its
 * exec); pids_cgroup: a pids cgroup enforces the process limit. */
#define SP_NOFILE 256
void sp_rlimits_apply(const struct sp_limits *l, bool pids_cgroup);

/* mounts.c: build the new root and pivot into it (run by init). */
struct sp_mount_plan {
	const char *python;        /* absolute path of the interpreter */
	const char *const *ro_binds; /* extra absolute paths bound read-only:
				      * the interpreter's /etc/python3.N */
	size_t n_ro_binds;
	uint64_t disk_bytes;
	const char *code; size_t code_len;
	const char *prelude; size_t prelude_len;
	const unsigned char *prelude_pyc; size_t prelude_pyc_len; /* or NULL */
	const char *carry_in; size_t carry_in_len;
	const char *filename;
};
/* A bind source, opened before the new root covers anything. */
struct sp_mount_src {
	char *path;            /* path inside the sandbox (same as on the host) */
	int fd;                /* O_PATH fd of the host object */
	bool is_dir;
	off_t size;
};
struct sp_mount_sources {
	struct sp_mount_src v[48];
	size_t n;
	char links[6][256];    /* the top-level links (/bin -> usr/bin ...) */
	bool is_link[6];
};
/* In init, in this order: open every source with the caller's rights (an
 * interpreter under root's home still binds when run as root), become the
 * sandbox user (sp_become_sandbox_user), then enter: build the root from
 * the sources and pivot into it. Both close the sources when they fail;
 * enter closes them always. */
int sp_mounts_open(const struct sp_mount_plan *plan, struct sp_mount_sources *m,
		   struct sp_error *err);
int sp_mounts_enter(const struct sp_mount_plan *plan, struct sp_mount_sources *m,
		    struct sp_error *err);
void sp_mounts_close(struct sp_mount_sources *m);
/* launch.c: become the sandbox user inside the namespace (between open
 * and enter). */
int sp_become_sandbox_user(struct sp_error *err);

/* landlock.c: the program's ruleset, built by init ahead of time (while
 * the supervisor still works) and enforced by the program itself.
 * prepare: 0 with *ruleset the ruleset's fd, or -1 when the kernel has
 * no Landlock (*abi 0); -1 with err on error. enforce: 0, or -1 on error
 * (takes the fd; -1 is a no-op). */
int sp_landlock_prepare(int *ruleset, int *abi, struct sp_error *err);
int sp_landlock_enforce(int ruleset, struct sp_error *err);
int sp_landlock_abi(void);

/* caps.c: drop every capability (effective, permitted, inheritable,
 * bounding, ambient) and set no_new_privs. */
int sp_caps_drop_all(struct sp_error *err);

/* The filter's variants, chosen per run by the supervisor (what the
 * run's cgroups cannot tell it, the filter must):
 *   OBSERVE_MEMORY  let big writable private mappings through the
 *                   supervisor (an allocation RLIMIT_DATA refuses)
 *   COUNT_PROCS     let every clone, fork and vfork through it (no pids
 *                   cgroup with a peak): counted, and refused at the limit
 *   KEEP_SIGCHLD    refuse changes to SIGCHLD's action (no CPU cgroup: an
 *                   auto-reaped child would take its CPU time with it)
 * The first two need SECCOMP_USER_NOTIF_FLAG_CONTINUE (Linux 5.5). */
#define SP_FILTER_OBSERVE_MEMORY 1u
#define SP_FILTER_COUNT_PROCS 2u
#define SP_FILTER_KEEP_SIGCHLD 4u
#define SP_FILTER_VARIANTS 8u
/* seccomp_rules.c: the deny list as a libseccomp filter, denials taking
 * action act (SCMP_ACT_NOTIFY, or SCMP_ACT_ERRNO where there is none;
 * the observing rules exist only with SCMP_ACT_NOTIFY). */
void *sp_seccomp_build(uint32_t act, unsigned flags);
/* seccomp.c: load the variant flags (SP_FILTER_*); *notify_fd the listener
 * or -1 (a kernel without user notification: errno only). */
int sp_seccomp_load(unsigned flags, int *notify_fd, struct sp_error *err);
/* Whether this kernel can let a notified call go on (Linux 5.5). */
bool sp_seccomp_can_continue(void);
/* build/gen/seccomp_bpf.c: the filters compiled by the build (8-byte
 * struct sock_filter entries), by variant; length 0 when they could not be. */
struct sp_bpf {
	const unsigned char *code;
	unsigned long len;
};
extern const struct sp_bpf sp_seccomp_notify_bpf[SP_FILTER_VARIANTS];
extern const struct sp_bpf sp_seccomp_errno_bpf[SP_FILTER_VARIANTS];
struct seccomp_notif;
enum sp_verdict_action {
	SP_VERDICT_DENY,            /* answer error, record */
	SP_VERDICT_MEMORY,          /* let it run; check it against RLIMIT_DATA */
	SP_VERDICT_SPAWN,           /* a new process or thread: count it */
	SP_VERDICT_SIGCHLD,         /* a new action for SIGCHLD: SIG_DFL is a no-op */
	SP_VERDICT_CONTINUE,        /* nothing to refuse: let the kernel judge it */
};
struct sp_syscall_verdict {
	enum sp_violation_kind kind;
	enum sp_verdict_action action;
	int error;                  /* errno answered to the program */
	uint64_t bytes;             /* MEMORY: what the call adds at most */
	char what[256];             /* in the program's terms */
};
void sp_seccomp_describe(int pid, const struct seccomp_notif *req,
			 struct sp_syscall_verdict *v);

/* host_ids.c: the host uid and gid the sandbox's user is: the caller's
 * own, or (started as root) a pair of the run's own from
 * SP_ROOT_HOST_ID_FIRST, held until released so no other run has it. */
struct sp_host_ids {
	uid_t uid;
	gid_t gid;
	bool own;       /* the run's own pair (root), not the caller's ids */
	int lock_fd;    /* holds the pair, or -1 */
};
/* The ids for a new run; -1 with err only when every pair is held. */
int sp_host_ids_take(struct sp_host_ids *ids, struct sp_error *err);
void sp_host_ids_release(struct sp_host_ids *ids);
/* This thread's file system ids become the run's own pair and back
 * (nothing for the caller's own ids): what root makes in the sandbox's
 * tmpfs, whose user namespace has no root, is then the sandbox user's. */
void sp_host_ids_fs_enter(const struct sp_host_ids *ids);
void sp_host_ids_fs_leave(const struct sp_host_ids *ids);

/* cgroup.c: optional, per-run cgroups for memory, pids and CPU. */
struct sp_cgroup;
struct sp_cgroup *sp_cgroup_create(const struct sp_limits *l, char *detail,
				   size_t detail_len);
/* sp_cgroup_create in its two steps, for a run: early, before init is
 * cloned, makes a v2 cgroup (init is cloned into it); on a v1 host it
 * makes nothing and sets *late, and late makes the v1 cgroups while init
 * builds the root (init joins them as it is told to start, with the
 * `tasks` files of sp_cgroup_join_fds). detail carries early's reason
 * into late. */
struct sp_cgroup *sp_cgroup_create_early(const struct sp_limits *l, char *detail,
					 size_t detail_len, bool *late);
struct sp_cgroup *sp_cgroup_create_late(const struct sp_limits *l, char *detail,
					size_t detail_len);
int sp_cgroup_attach(struct sp_cgroup *cg, pid_t pid);
bool sp_cgroup_has_memory(const struct sp_cgroup *cg);
bool sp_cgroup_has_pids(const struct sp_cgroup *cg);
bool sp_cgroup_has_cpu(const struct sp_cgroup *cg);
uint64_t sp_cgroup_cpu_ms(struct sp_cgroup *cg);
uint64_t sp_cgroup_memory(struct sp_cgroup *cg);
uint64_t sp_cgroup_memory_peak(struct sp_cgroup *cg);
/* the program's processes and threads (init left out), now and at most */
uint32_t sp_cgroup_procs(struct sp_cgroup *cg);
bool sp_cgroup_has_pids_peak(const struct sp_cgroup *cg);
uint32_t sp_cgroup_procs_peak(struct sp_cgroup *cg);
uint64_t sp_cgroup_memory_hits(struct sp_cgroup *cg);
bool sp_cgroup_oom_killed(struct sp_cgroup *cg);
bool sp_cgroup_pids_hit(struct sp_cgroup *cg);
void sp_cgroup_kill(struct sp_cgroup *cg);
void sp_cgroup_destroy(struct sp_cgroup *cg);
/* v2: the run cgroup's directory, for clone3's CLONE_INTO_CGROUP (the
 * cgroup keeps it open); -1 on v1 */
int sp_cgroup_fd(const struct sp_cgroup *cg);
/* a v2 run cgroup's path, for messages and the doctor's check */
const char *sp_cgroup_path(const struct sp_cgroup *cg);
int sp_cgroup_version(const struct sp_cgroup *cg);
/* SP_CG_* the run has (v1: cpu is cpuacct) */
unsigned sp_cgroup_controllers(const struct sp_cgroup *cg);
/* v2: why any controller is missing ("name: reason; ..."), or "" */
const char *sp_cgroup_missing(const struct sp_cgroup *cg);

/* cgroup_enable.c: which controllers a v2 cgroup hands its children,
 * each enabled on its own. */
#define SP_CG_MEMORY 1u
#define SP_CG_PIDS 2u
#define SP_CG_CPU 4u
#define SP_CG_ALL (SP_CG_MEMORY | SP_CG_PIDS | SP_CG_CPU)
typedef int (*sp_cg_write_fn)(const char *path, const char *text);
/* The SP_CG_* bits of a controller list in dir/file (cgroup.controllers,
 * cgroup.subtree_control); readable says whether the file could be read. */
unsigned sp_cgroup_list_bits(const char *dir, const char *file, bool *readable);
/* "memory pids cpu", those of bits, in that order */
void sp_cgroup_bits_text(unsigned bits, char *out, size_t len);
/* Enables for dir's children each controller of want that dir's parent
 * gives it, one write each through write_fn (sp_write_file, or a test's).
 * Returns the bits dir's children have now; why says, "name: reason"
 * separated by "; ", why each other one of want is missing ("" if none). */
unsigned sp_cgroup_enable(const char *dir, unsigned want, sp_cg_write_fn write_fn,
			  char *why, size_t why_len);

/* launch.c: clone (flags: namespaces, with SIGCHLD as exit signal) a
 * child straight into the v2 cgroup cgroup_fd (CLONE_INTO_CGROUP, Linux
 * 5.7+; -1: none). Where clone3 or CLONE_INTO_CGROUP is missing or the
 * kernel refuses the cgroup, the child is cloned where we are and *placed
 * says false: the caller then moves it. *pidfd: the child's pidfd or -1.
 * Returns as fork does. */
pid_t sp_clone_into(uint64_t flags, int cgroup_fd, int *pidfd, bool *placed);

#endif
