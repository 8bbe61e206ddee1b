/* SPDX-License-Identifier: MIT */
/*
 * internal.h - what core/ files share with each other and nobody else.
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
 * then tears down the namespaces. The supervisor holds an fd to the work
 * dir (to list files afterwards without following links) and to the
 * sandbox's /proc (to account CPU and memory without cgroups).
 */
#ifndef SP_INTERNAL_H
#define SP_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "sandpit.h"

#define SP_SANDBOX_UID 1000
#define SP_SANDBOX_GID 1000
/* Started as host root, the sandbox user is this unprivileged host uid. */
#define SP_ROOT_HOST_UID SP_ROOT_HOST_ID
#define SP_ROOT_HOST_GID SP_ROOT_HOST_ID
/* A number as a string literal, for file texts: SP_STR(SP_SANDBOX_UID). */
#define SP_STR_(x) #x
#define SP_STR(x) SP_STR_(x)

#define SP_WORKDIR "/work"
#define SP_SPDIR   "/sandpit"          /* read-only: prelude and program */
#define SP_CACHEDIR "/cache"           /* libraries' caches: own tmpfs, never listed */
#define SP_CACHE_BYTES (8u << 20)
#define SP_CHAN_FD 3                   /* the program's private channel */
#define SP_REL_FD 4                    /* a prepared run's release socket */

#define SP_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* err->msg = formatted text; returns -1 so callers can `return sp_fail(...)`. */
int sp_fail(struct sp_error *err, const char *fmt, ...) SP_PRINTF(2, 3);
/* The same with ": strerror(errno)" appended (errno saved first). */
int sp_fail_errno(struct sp_error *err, const char *fmt, ...) SP_PRINTF(2, 3);

/* Write all of buf, retrying on EINTR and short writes. 0 or -1. */
int sp_write_all(int fd, const void *buf, size_t len);
/* Write a small string to a file (e.g. /proc/PID/uid_map). 0 or -1. */
int sp_write_file(const char *path, const char *text);
/* Read a whole small file (at most max bytes) into a malloc'd NUL-ended buffer. */
char *sp_read_file(const char *path, size_t max, size_t *len);
/* Same, relative to a directory fd. */
char *sp_read_file_at(int dirfd, const char *path, size_t max, size_t *len);
/* Monotonic clock in microseconds. */
uint64_t sp_now_us(void);
/* Move fd to >= min (so low numbers are free for the program): the new
 * fd, or -1 with errno set; fd itself is closed either way (unless it was
 * already >= min and is returned). */
int sp_fd_move_above(int fd, int min);
/* close(fd) (if >= 0) leaving errno as it was, for failure paths. */
void sp_close_keep_errno(int fd);

/* fds passed with SCM_RIGHTS over the control socket. */
int sp_send_fds(int sock, const void *msg, size_t len, const int *fds, int nfds);
ssize_t sp_recv_fds(int sock, void *msg, size_t len, int *fds, int *nfds);

/* limits.c: the program's rlimits, every one of them (set last before its
 * exec); pids_cgroup: a pids cgroup enforces the process limit. */
#define SP_NOFILE 256
void sp_rlimits_apply(const struct sp_limits *l, bool pids_cgroup);

/* ---- layers (each file owns one) ---- */

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
 * prepare: the ruleset fd; -1 when the kernel has no Landlock (*abi 0);
 * -2 on error. enforce: 0, or -1 on error (takes the fd; -1 is a no-op). */
int sp_landlock_prepare(int *abi, struct sp_error *err);
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

/* cgroup.c: optional, per-run cgroups for memory, pids and CPU. */
struct sp_cgroup;
struct sp_cgroup *sp_cgroup_create(const struct sp_limits *l, char *detail,
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

/* usage.c: accounting through the sandbox's own /proc. */
struct sp_proc_sample {
	uint64_t cpu_ms;
	uint64_t rss_bytes;
	uint32_t procs;   /* processes and threads */
};
int sp_proc_sample(int procfd, long clk_tck, struct sp_proc_sample *out);
/* The program's processes and threads now (init left out); 0 on error. */
uint32_t sp_proc_count_tasks(int procfd);

/* sockmem.c: a NETLINK_SOCK_DIAG socket (opened in the sandbox's network
 * namespace), and the bytes queued in its unix sockets' send buffers. */
int sp_sockmem_open(void);
int sp_sockmem_bytes(int fd, uint64_t *bytes);  /* *bytes set only on success */

/* files_in.c: host files opened for the copy in (fd owned), checked. */
struct sp_in_file {
	int fd;
	const char *name;        /* points into the config */
	uint64_t bytes;          /* st_size at open: what is copied */
};
/* What sandpit itself put in the work dir (inputs, carry.json): left as
 * it was (same inode, size and mtime), it is not "a file the program left". */
struct sp_placed {
	char name[256];
	ino_t ino;
	off_t size;
	struct timespec mtime;
};
const char *sp_file_in_name(const struct sp_file_in *f);
/* Open and check every file of cfg->files_in: 0 and *out (NULL when none),
 * or -1 with err->msg. */
/* config_abi.c: the caller's config (cfg->size bytes, as its sandpit.h
 * made it) copied into *out with this library's layout, unknown tail
 * zero. 0, or -1 with err->msg (no sp_config_init, newer fields set). */
int sp_config_take(const struct sp_config *in, struct sp_config *out,
		   struct sp_error *err);
int sp_in_files_open(const struct sp_config *cfg, struct sp_in_file **out,
		     struct sp_error *err);
void sp_in_files_close(struct sp_in_file *files, size_t n);
/* Copy them into the work dir; listed[i] and placed[i] filled for each. */
int sp_in_files_copy(int work_fd, const struct sp_in_file *files, size_t n,
		     struct sp_file *listed, struct sp_placed *placed,
		     struct sp_error *err);

/* keep.c: copying what the program left to a host dir, never through a
 * link, at most budget bytes in all. */
struct sp_keep {
	int root_fd;             /* the keep dir; -1: nothing is kept */
	const char *root_path;   /* as the caller gave it, for "kept" */
	uint64_t budget;         /* bytes that may still be copied */
};
/* Open the keep dir (sp_keep_dir_prepare's rules): fd, or -1 with err. */
int sp_keep_dir_open(const char *dir, struct sp_error *err);
/* A subdirectory of host_dir for the work dir's subdir name: fd or -1. */
int sp_keep_subdir(int host_dir, const char *name);
/* Copy entry name of dirfd (st from fstatat, rel its path) into host_dir
 * under the same name; sets f->kept or f->skipped. */
void sp_keep_entry(struct sp_keep *k, int dirfd, const char *name,
		   const struct stat *st, int host_dir, const char *rel,
		   struct sp_file *f);

/* pipemem.c: what the sandbox's pipes may hold (an upper bound), every
 * pipe of every process once, but those whose inode is in skip; 0 or -1. */
int sp_pipemem_bytes(int procfd, const uint64_t *skip, size_t nskip, uint64_t *bytes);

/* workdir.c: list what is under the work dir (all but directories) without
 * following links, but what placed says sandpit put there unchanged;
 * with keep (may be NULL), copy each regular file out as it goes. */
int sp_workdir_list(int dirfd, struct sp_file **files, size_t *n, size_t max,
		    const struct sp_placed *placed, size_t n_placed,
		    struct sp_keep *keep);
uint64_t sp_workdir_bytes(int dirfd);
/* Inodes the work dir's tmpfs has left (it has SP_WORKDIR_INODES), or
 * UINT64_MAX when it cannot say. */
#define SP_WORKDIR_INODES 16384u
uint64_t sp_workdir_files_left(int dirfd);

/* samples.c: the usage timeline (see the file's header). */
struct sp_samples {
	struct sp_sample *v;        /* SP_MAX_SAMPLES slots once the first comes */
	size_t n;
	uint64_t seen;              /* samples offered so far */
	unsigned stride;            /* keep every stride-th ordinary sample */
	struct sp_sample held;      /* the latest sample not kept (yet) */
	bool have_held;
};
/* Offer one sample; kept, held back as the possible last point, or
 * dropped between strides. A point with limit set is always kept. */
void sp_samples_add(struct sp_samples *s, const struct sp_sample *p);
/* A limit of kind was reached by the latest sample: keep it and mark it,
 * unless an earlier point already carries kind (a point already marked
 * keeps its first mark). */
void sp_samples_mark_limit(struct sp_samples *s, enum sp_violation_kind kind);
/* Hand the timeline over (the caller frees *v) and empty s. */
void sp_samples_take(struct sp_samples *s, struct sp_sample **v, size_t *n);
void sp_samples_free(struct sp_samples *s);
/* The timeline as the result's "samples" array (new reference). */
struct json_t;
struct json_t *sp_samples_json(const struct sp_sample *v, size_t n);

/* variables.c; sp_utf8_cut_dup: a copy of s cut to at most max bytes,
 * never inside a UTF-8 character (NULL when out of memory). */
char *sp_utf8_cut_dup(const char *s, size_t max);
void sp_variables_free(struct sp_variable *v, size_t n);
struct json_t *sp_variables_json(const struct sp_variable *v, size_t n);
/* last_value.c: the result's "last_value", {"type", "repr"} or null */
struct json_t *sp_last_value_json(const struct sp_result *r);

/* violations.c */
struct sp_violations {
	struct sp_violation *v;
	unsigned *announced;        /* per record: the count last sent as an event */
	char **context;             /* per record: the program's words, or NULL */
	size_t n, cap;
	uint64_t dropped;
};
/* Add or merge (same kind + what + line). Each kind and source keeps at
 * most a few dozen records; past that, new ones are counted in the group's
 * overflow record, so no flood of one kind hides a record of another.
 * Returns the record, or NULL when out of memory (dropped grows). */
struct sp_violation *sp_violations_add(struct sp_violations *vs,
				       enum sp_violation_kind kind,
				       const char *what, bool from_kernel,
				       int line);
const char *sp_violation_message(enum sp_violation_kind kind, const char *what);
/* The next record (from *from on) whose count grew since it was last
 * announced: marks it announced and returns its index, or -1 for none. */
long sp_violations_next_grown(struct sp_violations *vs, size_t *from);
void sp_violations_free(struct sp_violations *vs);

/* hints.c: add a hint from the prelude's (untrusted) report: topic picks
 * the text, about names the exception, detail (a module or file name) is
 * cut and cleaned. 0 added or already there, -1 ignored. */
int sp_hints_add(struct sp_result *res, const char *topic, const char *about,
		 const char *detail, int line);
void sp_hints_free(struct sp_result *res);
/* Keep the last cap bytes of what was written to the program's stderr. */
void sp_hints_tail_add(char *tail, size_t *len, size_t cap, const char *s, size_t n);
/* Hints for the tracebacks the program printed itself (caught and shown
 * with traceback.print_exc(), or a thread's): each block's last line
 * names the error, its last frame in the program's file gives the line. */
void sp_hints_from_tracebacks(struct sp_result *res, const char *text, size_t len);
/* The result's hints as the contract's JSON array (a new reference). */
struct json_t;
struct json_t *sp_hints_json(const struct sp_result *res);

/* carry.c: NULL when name can be a carried global, else why not. */
const char *sp_carry_name_problem(const char *name);
/* carry.c: NULL when a carried value nests within SP_CARRY_MAX_DEPTH. */
const char *sp_carry_value_problem(const struct json_t *value);

/* json_dump.c: json_dumps (JSON_COMPACT, JSON_INDENT, JSON_ENSURE_ASCII;
 * keys in the object's order) with each float in the fewest digits that
 * read back to the same double, as Python's repr() writes it; NULL when out
 * of memory. sp_json_real_precision is the %g precision that takes. */
char *sp_json_dumps(const struct json_t *v, size_t flags);
int sp_json_real_precision(double v);

/* json_bytes.c: bytes as JSON strings, surrogateescape (see its header).
 * sp_json_bytes gives a string for the tree (a placeholder when s is not
 * valid UTF-8, NULL when out of memory); sp_json_dump_bytes dumps the tree
 * with the placeholders' literals in (no JSON_ENSURE_ASCII) and forgets
 * them; sp_json_bytes_reset forgets them without dumping. Per thread. */
bool sp_utf8_valid(const char *s, size_t len);
char *sp_json_quote_bytes(const char *s, size_t len, size_t *out_len);
struct json_t *sp_json_bytes(const char *s, size_t len);
char *sp_json_dump_bytes(struct json_t *root, size_t flags);
void sp_json_bytes_reset(void);
char *sp_base64(const char *s, size_t len);
/* Deprecated, lossy (\xNN text): use sp_json_bytes for anything new. */
char *sp_json_escape_bytes(const char *s, size_t len, size_t *out_len);

/* units.c: a size or time as the gauges show it, for a record's text, in
 * a buffer the calling expression owns: sp_run_violation(..., "%s", SP_MS(t)). */
const char *sp_bytes_str(uint64_t n, char *buf);   /* buf: 32 bytes */
const char *sp_ms_str(uint64_t ms, char *buf);
#define SP_BYTES(n) sp_bytes_str((n), (char[32]){ 0 })
#define SP_MS(ms) sp_ms_str((ms), (char[32]){ 0 })

/* doctor.c: the layers a run uses, in order. */
void sp_layer_set(struct sp_result *r, const char *name, bool active,
		  const char *fmt, ...) SP_PRINTF(4, 5);

/* build/gen/mpl_fontlist.c: matplotlib's font list for /cache/matplotlib
 * (length 0 when the build had no matplotlib). */
extern const char sp_mpl_fontlist_name[];
extern const unsigned char sp_mpl_fontlist[];
extern const unsigned long sp_mpl_fontlist_len;
/* python_version.c: the oldest Python the prelude runs on (see there).
 * name_version: X.Y from the name python resolves to, -1 when it does not
 * say; check_name: -1 with err set when that name is too old. */
#define SP_PYTHON_MIN_MAJOR 3
#define SP_PYTHON_MIN_MINOR 8
int sp_python_name_version(const char *python, unsigned *major, unsigned *minor);
bool sp_python_supported(unsigned major, unsigned minor);
int sp_python_check_name(const char *python, struct sp_error *err);
/* The interpreter's /etc/python3.N directories (Debian keeps its
 * sitecustomize there): the one its name says, or every one /etc has
 * when the name says none (a wrapper script). Up to max; how many. */
size_t sp_python_etc_dirs(const char *python, char (*dirs)[32], size_t max);

extern const char sp_prelude_py[];
extern const unsigned long sp_prelude_py_len;
extern const unsigned char sp_prelude_pyc[];
extern const unsigned long sp_prelude_pyc_len;
/* prelude_pyc.c: true when python can run the build's precompiled prelude. */
bool sp_prelude_pyc_fits(const char *python);

#endif
