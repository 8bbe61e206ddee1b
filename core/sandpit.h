/* SPDX-License-Identifier: MIT */
/*
 * sandpit.h - the one public face of libsandpit, the sandbox engine.
 *
 * A run is an object driven by events, never a blocking call:
 *
 *     struct sp_run *run;
 *     if (sp_run_start(&cfg, &run, &err) < 0) -> err.msg says why
 *     for (;;) {
 *         poll(sp_run_fd(run), POLLIN, sp_run_timeout_ms(run));
 *         while (sp_run_next_event(run, &ev) > 0) { ... }
 *         if (sp_run_finished(run)) break;
 *     }
 *     sp_run_result(run) -> the whole result; sp_run_free(run);
 *
 * Invariants:
 *  - Nothing here touches the terminal; errors come back as text fit to
 *    show a person (struct sp_error), never printed by the library.
 *  - Pointers inside an event are valid until the next sp_run_next_event()
 *    or sp_run_free() on the same run.
 *  - The result of a finished run lives until sp_run_free().
 *  - Every limit is enforced by the kernel; nothing relies on the program.
 *  - The program's bytes are hostile: output chunks, out/err, a
 *    violation's what, file paths (files, kept), the variables' name,
 *    type, repr and value, carry_out may hold any byte, escape sequences
 *    and invalid UTF-8 included; the message of a violation or a hint,
 *    and a run's err.msg, are the library's words but may quote the
 *    program's names. Sanitize all of it before showing it on a terminal
 *    (as tui/text/sanitize.c does), and open a kept file only under keep_dir.
 *
 * Threads: a run belongs to one thread at a time; call the sp_run_*
 * functions of one run from one thread (sp_run_interrupt() also from a
 * signal handler on that thread: its wait is ended by the EINTR). A run
 * may move to another thread between calls (hand it over with a lock or
 * a queue); its events and result are read on the thread that owns it.
 * A result from sp_run_blocking() is plain memory: any thread may read
 * and free it. Different runs may be started, driven and freed on
 * different threads at once: the state runs share (the cgroup name
 * counter, the cache of denied calls' names, the JSON writer's scratch)
 * is atomic or per thread. Every other function here is safe from any
 * thread. The process-wide things a run touches are read, never changed:
 * the SIGPIPE disposition (a write to a closed forward target is held off
 * with this thread's signal mask). A run's sandbox dies with the thread
 * that started it (sp_run_start, sp_run_prepare): the kernel's
 * parent-death signal follows the thread, not the process, so start runs
 * on a thread that outlives them (the playground prepares on one that
 * lives as long as it does: tui/app/app_prewarm.c).
 *
 * Growing (how a newer libsandpit.so.0 keeps older callers working):
 *  - struct sp_config is filled by the caller: start it with
 *    sp_config_init(), which zeroes it and records its size as the caller
 *    compiled it. Fields are only ever appended, and a new field's zero
 *    means the old behaviour, so the library reads an older caller's
 *    shorter struct as if the rest were zero; a size of 0 (no init) or a
 *    longer struct with unknown fields set is refused with a message.
 *  - struct sp_prepare, the other struct a caller fills, keeps its layout
 *    for the major version.
 *  - struct sp_limits keeps room (reserved, zero) for limits added later,
 *    so the structs around it keep their layout.
 *  - What the library returns it allocates and frees: sp_result and its
 *    arrays (pointer + count, no caps a caller must know). sp_result only
 *    grows at its end; callers hold it by pointer, never by value.
 *  - The element structs of those arrays (sp_violation, sp_file, sp_hint,
 *    sp_sample, sp_variable, sp_layer), sp_usage and sp_event keep their
 *    size for a major version: new facts come as new arrays or fields of
 *    sp_result. A caller ignores event types and statuses it does not know.
 */
#ifndef SANDPIT_H
#define SANDPIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library exports the functions marked SP_API and nothing else: core/
 * is built with -fvisibility=hidden, and tests/embed checks the list. */
#if defined(__GNUC__)
#define SP_API __attribute__((visibility("default")))
#else
#define SP_API
#endif

/* The version of this header; sp_version() gives the library's, which
 * may be newer (the same major version keeps every call and field of
 * this header working: see "Growing" above). */
#define SP_VERSION_MAJOR 0
#define SP_VERSION_MINOR 1
#define SP_VERSION_PATCH 0
#define SP_VERSION "0.1.0"
SP_API const char *sp_version(void);

/* A message fit to show a person; empty when there is no error. */
struct sp_error {
	char msg[512];
};

/* Per-run limits. Sizes in bytes, times in milliseconds. */
struct sp_limits {
	uint64_t cpu_ms;
	uint64_t wall_ms;
	uint64_t memory_bytes;
	uint64_t output_bytes;   /* stdout + stderr together */
	uint64_t disk_bytes;     /* the work dir, and the size of one file */
	uint64_t carry_bytes;    /* carry-in and carry-out, each */
	uint32_t procs;          /* processes and threads */
	uint32_t reserved32;     /* zero; room for limits added later */
	uint64_t reserved[4];
};

/* The smallest limits a run accepts: below them Python cannot start, or
 * the work dir cannot hold a file. (cpu, wall, output, procs: above 0.) */
#define SP_MIN_MEMORY_BYTES (16u << 20)
#define SP_MIN_DISK_BYTES 4096u

/* Fill with the defaults shown in --help and the Resources pane. */
SP_API void sp_limits_default(struct sp_limits *l);

/* A size as the gauges show it: "512 B", "1.5 KiB", "64 MiB". */
SP_API void sp_format_bytes(uint64_t n, char *buf, size_t len);
/* A time as the gauges show it: "0.25 s", "12 s", "2.5 min". */
SP_API void sp_format_ms(uint64_t ms, char *buf, size_t len);

/* Parse "512M", "1G", "64k", "100" (bytes) into *out. 0 ok, -1 bad. */
SP_API int sp_parse_size(const char *s, uint64_t *out);
/* Parse seconds, "2", "0.5", "1.5s", "250ms", into milliseconds. */
SP_API int sp_parse_seconds(const char *s, uint64_t *out_ms);

/* A host file copied into the work dir before the program starts. The
 * host file is only read; the copy counts against the disk limit. */
struct sp_file_in {
	const char *host_path;
	const char *name;          /* its name in the work dir; NULL: the base name */
};
#define SP_MAX_FILES_IN 64

/* A file in given as bytes in the caller's memory (a service's request),
 * for a caller that has no host file for it and should not write one:
 * nothing of it touches the host's file system. Read when it is copied
 * in, before the program starts: keep the bytes until the run ends. */
struct sp_file_bytes {
	const char *name;          /* its name in the work dir */
	const void *data;
	size_t len;
};

struct sp_config {
	size_t size;               /* sizeof(struct sp_config) as the caller was
				    * compiled: set by sp_config_init() */
	const char *python;        /* interpreter: an absolute path, never looked
				    * up in PATH; NULL means /usr/bin/python3 */
	const char *code;          /* the program text (need not be NUL-ended) */
	size_t code_len;
	const char *filename;      /* shown in tracebacks; NULL means "main.py" */
	const char *stdin_data;    /* bytes for the program's stdin, or NULL */
	size_t stdin_len;
	const char *carry_in;      /* carry-in JSON object text, or NULL */
	size_t carry_in_len;
	bool keep_output;          /* collect stdout/stderr into the result */
	/* With forward set, the program's stdout and stderr go straight to
	 * forward_out and forward_err (moved by splice(2) where the kernel
	 * can), not as events; counted and capped all the same. The fds stay
	 * the caller's (never closed) and may be the same one. A descriptor
	 * that fails (a reader gone) is dropped and the rest discarded; its
	 * SIGPIPE is taken back unless the caller ignores SIGPIPE. Once the
	 * program has ended, what is left is written out, waiting for a slow
	 * reader as cat would, until a signal interrupts the wait. Excludes
	 * keep_output. */
	bool forward;
	int forward_out, forward_err;
	struct sp_limits limits;
	/* Files in: copied before the program starts (sp_files_in_check's
	 * rules). Files out: with keep_dir set, the regular files the program
	 * left are copied there after the run (never through a link it made,
	 * at most limits.disk_bytes in all); the dir is created, and must be
	 * empty (sp_keep_dir_prepare). */
	const struct sp_file_in *files_in;
	size_t n_files_in;
	const char *keep_dir;
	/* The size of the terminal the program's output is shown in (the
	 * playground's Output pane), or 0: then the program is told nothing
	 * and its libraries keep their defaults (80x24, as with no terminal).
	 * Set, it gets COLUMNS and LINES (which shutil.get_terminal_size()
	 * reads), and pandas' display.width and numpy's linewidth follow
	 * COLUMNS. At most SP_MAX_COLUMNS and SP_MAX_LINES. */
	unsigned columns, lines;
	/* Files in as bytes (struct sp_file_bytes), after files_in: the same
	 * rules, and they count with files_in against SP_MAX_FILES_IN and the
	 * disk limit. */
	const struct sp_file_bytes *files_bytes;
	size_t n_files_bytes;
};
#define SP_MAX_COLUMNS 1000
#define SP_MAX_LINES 1000

/* A config with every field zero (no stdin, no carry, no files) and the
 * default limits; call it first, then set what the run needs. Inline, so
 * that size is this header's, the one the caller compiled with. */
static inline void sp_config_init(struct sp_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->size = sizeof(struct sp_config);
	sp_limits_default(&cfg->limits);
}

enum sp_status {
	SP_STATUS_OK,
	SP_STATUS_ERROR,
	SP_STATUS_CPU_LIMIT,
	SP_STATUS_WALL_LIMIT,
	SP_STATUS_MEMORY_LIMIT,
	SP_STATUS_OUTPUT_LIMIT,
	SP_STATUS_KILLED,
	SP_STATUS_SANDBOX_ERROR,
};
SP_API const char *sp_status_name(enum sp_status s);

enum sp_violation_kind {
	SP_VIOL_NETWORK,
	SP_VIOL_FILESYSTEM,
	SP_VIOL_PROCESS,
	SP_VIOL_SYSCALL,
	SP_VIOL_CPU,
	SP_VIOL_WALL,
	SP_VIOL_MEMORY,
	SP_VIOL_OUTPUT,
	SP_VIOL_DISK,
	SP_VIOL_CARRY,
};
SP_API const char *sp_violation_kind_name(enum sp_violation_kind k);

struct sp_violation {
	enum sp_violation_kind kind;
	char *what;        /* in the program's terms: "socket(AF_INET, SOCK_STREAM)" */
	char *message;     /* plain words: what, which constraint, why, workaround */
	bool from_kernel;  /* source "kernel" (true) or "runtime" (false) */
	int line;          /* the program's line, or 0 when unknown */
	unsigned count;    /* repeats merged into this record */
	unsigned id;       /* 1, 2, ... in order of first sight; stable for the
			    * run: events and the result name a record by it */
};
/* What the program's prelude said it was doing just before a record
 * ("connect() to host:443") is the program's own words, never part of a
 * kernel record's what: it comes beside the record, as the VIOLATION
 * event's data and the result's violation_contexts (the element struct
 * keeps its size for the major version). */

/* An explanation of a Python error that the sandbox's rules caused (no
 * module to import and no network to install it, a file from an earlier
 * run, input() with nobody typing, ...). Observed by the runtime, so it
 * only explains; see core/hints.c. */
struct sp_hint {
	int line;          /* the program's line, or 0 when unknown */
	char *about;       /* the exception's name: "ModuleNotFoundError" */
	char *message;     /* the rule that caused it, and the way around it */
	const char *topic; /* "module", "file", "input", "memory", ... */
};
#define SP_MAX_HINTS 8

struct sp_usage {
	uint64_t cpu_ms;
	uint64_t wall_ms;
	uint64_t memory_bytes;       /* now */
	uint64_t peak_memory_bytes;
	uint32_t procs;              /* now */
	uint32_t procs_peak;
	uint64_t output_bytes;
	uint64_t disk_bytes;
	uint64_t prepare_ms;         /* a prepared run: CPU its preparation
				      * spent, not counted in cpu_ms; else 0 */
};

struct sp_file {
	char *path;        /* relative to the work dir (files_in: the name) */
	uint64_t bytes;
	char *kept;        /* keep_dir/path of the host copy, or NULL */
	const char *skipped; /* why it was not kept (keep_dir set), or NULL:
			      * "symlink", "fifo", "socket", "device",
			      * "over the bound", "copy failed: ..." */
};

/* One isolation layer and how it stood for a run (or for the host). */
struct sp_layer {
	const char *name;  /* "user_namespace", "seccomp", "landlock", ... */
	bool active;
	char detail[160];   /* "ABI 4", "cgroup v1", why it is missing, ... */
};

/* The room sp_doctor() fills at most (the caller's array); a result's
 * layers are the library's array, of any length. */
#define SP_MAX_LAYERS 24

/* The layers' names, as sp_result.layers and sp_doctor() give them. */
#define SP_LAYER_USER_NS "user_namespace"
#define SP_LAYER_PID_NS "pid_namespace"
#define SP_LAYER_MOUNT_NS "mount_namespace"
#define SP_LAYER_NET_NS "network_namespace"
#define SP_LAYER_SECCOMP "seccomp"
#define SP_LAYER_SECCOMP_CONTINUE "seccomp_continue"
#define SP_LAYER_LANDLOCK "landlock"
#define SP_LAYER_CAPS "capabilities"
#define SP_LAYER_NO_NEW_PRIVS "no_new_privs"
#define SP_LAYER_CGROUP "cgroup"
/* the run cgroup's controllers, "memory pids cpu" (v1: cpu is cpuacct) */
#define SP_LAYER_CGROUP_CONTROLLERS "cgroup_controllers"
#define SP_LAYER_RLIMITS "rlimits"
#define SP_LAYER_PYTHON "python"
#define SP_LAYER_IPC_NS "ipc_namespace"
#define SP_LAYER_UTS_NS "uts_namespace"
#define SP_LAYER_CPU_TREE "cpu_tree"
#define SP_LAYER_PROCESS_COUNT "process_count"
#define SP_LAYER_MEMORY_REFUSALS "memory_refusals"
#define SP_LAYER_WORKDIR_TMPFS "workdir_tmpfs"

/* Started as host root, the sandbox's user and group are a host id of
 * the run's own, one of SP_ROOT_HOST_ID_COUNT from SP_ROOT_HOST_ID_FIRST
 * (2000000000-2000065535: no host user's, above the ranges that
 * containers and /etc/subuid use, below 2^31); otherwise they are the
 * caller's own. docs/security.md says why. */
#define SP_ROOT_HOST_ID_FIRST 2000000000u
#define SP_ROOT_HOST_ID_COUNT 65536u

/* One point of the run's usage timeline (core/samples.c). limit is the
 * kind + 1 of a limit reached at this point (enum sp_violation_kind), or 0. */
struct sp_sample {
	uint64_t t_ms, cpu_ms, memory_bytes, output_bytes, disk_bytes;
	uint32_t procs;
	uint8_t limit;
};
#define SP_MAX_SAMPLES 1000

/* One of the program's globals at its end, as the prelude saw it
 * (core/variables.c): runtime-observed, so bounded and never trusted. */
struct sp_variable {
	char *name;        /* at most 80 bytes */
	char *type;        /* at most 40 bytes */
	char *repr;        /* short: at most 200 bytes */
	bool carryable;    /* JSON can carry it, under a valid carry name */
	char *value;       /* compact JSON of a small carryable value, or NULL */
};
#define SP_MAX_VARIABLES 200

struct sp_result {
	enum sp_status status;
	int exit_code;              /* -1 when the program did not exit normally */
	int signal;                 /* 0 when not killed by a signal */
	char *out;                  /* stdout, when keep_output */
	size_t out_len;
	char *err;                  /* stderr, when keep_output */
	size_t err_len;
	bool truncated;             /* output was cut at the output limit */
	struct sp_usage usage;
	struct sp_limits limits;
	const char *peak_memory_source; /* "cgroup" or "rss_samples" */
	struct sp_violation *violations;
	size_t n_violations;
	struct sp_file *files;      /* what the program left (not the inputs it kept as they were) */
	size_t n_files;
	struct sp_file *files_in;   /* what went in: name and bytes copied */
	size_t n_files_in;
	struct sp_hint *hints;
	size_t n_hints;
	char *carry_out;            /* JSON object text, or NULL: the program's bytes */
	struct sp_sample *samples;  /* the usage timeline, oldest first: at most
				     * SP_MAX_SAMPLES, first, last and limit hits kept */
	size_t n_samples;
	struct sp_variable *variables; /* at most SP_MAX_VARIABLES, program order */
	size_t n_variables;
	uint64_t variables_more;    /* globals not listed (over the caps) */
	struct sp_layer *layers;    /* the isolation layers as they stood */
	size_t n_layers;
	char error[512];            /* sandbox_error: what failed, for a person */
	bool prepared;              /* released from sp_run_prepare's sandbox */
	/* The value of the program's last top-level statement, when that is an
	 * expression whose value is not None (a notebook's "Out"), as the
	 * prelude saw it: runtime-observed, so bounded and never trusted.
	 * NULL when there is none; the type is at most 80 bytes, the repr at
	 * most SP_LAST_VALUE_MAX, both valid UTF-8. */
	char *last_value_type;
	char *last_value_repr;
	/* Beside variables (n_variables entries, or NULL): for a DataFrame,
	 * Series or array, its first rows as the prelude saw them, a JSON
	 * object text {"shape": [rows, cols], "columns": [str], "index": [str],
	 * "numeric": [bool], "rows": [[str]]}, or NULL. Program-made: bounded
	 * (SP_TABLE_MAX bytes each) and never trusted; check it as you read. */
	char **variable_tables;
	/* Beside violations (n_violations entries, or NULL): each NULL or the
	 * program's own words about what it was doing (see sp_violation);
	 * program-made, so never trusted. */
	char **violation_contexts;
};
#define SP_TABLE_MAX 65536
#define SP_LAST_VALUE_MAX 16384

enum sp_event_type {
	SP_EVENT_STDOUT,
	SP_EVENT_STDERR,
	SP_EVENT_USAGE,
	SP_EVENT_VIOLATION,
	SP_EVENT_FINISHED,
	SP_EVENT_READY,             /* a prepared run waits for its release */
};

struct sp_event {
	enum sp_event_type type;
	const char *data;                     /* STDOUT/STDERR chunk; VIOLATION:
					       * the program's context, or NULL */
	size_t len;
	const struct sp_usage *usage;         /* USAGE */
	const struct sp_violation *violation; /* VIOLATION (new, or its count grew;
					       * the same id, the newer count) */
	const struct sp_result *result;       /* FINISHED */
};

struct sp_run;

/*
 * Start a run. Returns 0 and sets *out, or -1 with err->msg saying what
 * is wrong (bad config, a missing isolation layer). The config and its
 * strings may be freed once this returns.
 */
SP_API int sp_run_start(const struct sp_config *cfg, struct sp_run **out,
			struct sp_error *err);

/* The one fd to poll for POLLIN; readable when events may be waiting. */
SP_API int sp_run_fd(const struct sp_run *run);

/* How long the caller may sleep in poll() before calling in again (ms). */
SP_API int sp_run_timeout_ms(const struct sp_run *run);

/*
 * Take the next event without blocking: 1 and *ev filled, 0 when none is
 * ready now. After SP_EVENT_FINISHED it returns 0 for ever.
 */
SP_API int sp_run_next_event(struct sp_run *run, struct sp_event *ev);

/* Stop the run and its whole process tree; it finishes with "killed". */
SP_API void sp_run_cancel(struct sp_run *run);
/* Async-signal-safe, for a signal handler: a run that forwards its output
 * waits at its end for a slow reader, as cat would; this ends that wait
 * (call sp_run_cancel from the loop for the rest). */
SP_API void sp_run_interrupt(struct sp_run *run);

SP_API bool sp_run_finished(const struct sp_run *run);

/* The result once finished, else NULL. Owned by the run. */
SP_API const struct sp_result *sp_run_result(const struct sp_run *run);

/* Free the run and everything it returned. A run not yet finished is
 * killed first, so this may block: it waits for the kernel to reap the
 * whole process tree (usually a few ms; longer for a process stuck in
 * the kernel) and removes the run's cgroups. Call sp_run_cancel() and
 * drive the run to SP_EVENT_FINISHED first to keep the loop responsive. */
SP_API void sp_run_free(struct sp_run *run);

/*
 * Prepared runs: a sandbox made ahead, up to the moment the program is
 * read, then released with one program and used once.
 *
 * sp_run_prepare() returns a run in the preparing state, driven like any
 * run (sp_run_fd, sp_run_timeout_ms, sp_run_next_event): namespaces,
 * root, cgroups, every layer, seccomp, Landlock and rlimits are set up,
 * and the interpreter has started with the prelude loaded and the preload
 * modules imported (a module that fails to import is skipped). Then
 * SP_EVENT_READY comes, and it waits as long as its owner likes. If
 * preparing fails (or takes over SP_PREPARE_TIMEOUT_MS), SP_EVENT_FINISHED
 * comes instead, status sandbox_error and result->error saying why.
 * Nothing of any program has run in it; its output, records and samples
 * before the release are dropped.
 *
 * sp_run_release() hands it cfg's program, filename, stdin, carry-in,
 * files in, keep_dir and keep_output/forward; from then on the run goes
 * exactly as one from sp_run_start() (same events, same result, with
 * result->prepared set and usage.prepare_ms). CPU and wall limits, usage
 * and the timeline count from the release. cfg->python (NULL:
 * /usr/bin/python3) and cfg->limits must equal the preparation's, and
 * the run must be ready (sp_run_ready): else -1 with err->msg and the run
 * untouched (the caller frees it and starts cold). A bad cfg (carry-in,
 * files in, ...) is -1 the same way. Past those checks the sandbox is
 * spent: a failure then (a file that cannot be copied in, the sandbox
 * gone) returns 0 and the run finishes with sandbox_error. A run is
 * released once: a second call is -1. Freeing a prepared run at any
 * point kills its sandbox and leaves nothing behind. Its stdin is a
 * sealed memfd, /dev/null without stdin_data, as a cold run's.
 */
/* Zero it, then fill it. Unlike sp_config it carries no size: it keeps
 * this layout for the major version (a new preparation option would come
 * as a new function), so a newer library reads an older caller's. */
struct sp_prepare {
	const char *python;              /* NULL: /usr/bin/python3 */
	struct sp_limits limits;
	const char *const *preload;      /* module names to import ahead */
	size_t n_preload;
};
#define SP_MAX_PRELOAD 32
#define SP_PREPARE_TIMEOUT_MS 60000

SP_API int sp_run_prepare(const struct sp_prepare *p, struct sp_run **out,
			  struct sp_error *err);
/* Prepared, ready and not yet released. */
SP_API bool sp_run_ready(const struct sp_run *run);
SP_API int sp_run_release(struct sp_run *run, const struct sp_config *cfg,
			  struct sp_error *err);
/* The modules the preparation actually imported, "numpy, pandas" ("" for
 * none, or before SP_EVENT_READY). As the prelude reported them: it only
 * explains. Owned by the run. */
SP_API const char *sp_run_preloaded(const struct sp_run *run);

/* Run to completion, blocking; for tests and simple callers. */
SP_API int sp_run_blocking(const struct sp_config *cfg, struct sp_result **out,
			   struct sp_error *err);
SP_API void sp_result_free(struct sp_result *r);

/* The contract's JSON result object as text (malloc'd), or NULL. */
SP_API char *sp_result_to_json(const struct sp_result *r);

/*
 * Carry buffer. Validate a carry-in object: JSON object, names are
 * Python identifiers, values nest at most SP_CARRY_MAX_DEPTH levels (so
 * Python's json reads them well within its recursion limit), at most
 * max_bytes. 0 ok, -1 with err->msg.
 */
#define SP_CARRY_MAX_DEPTH 64
SP_API int sp_carry_validate(const char *json, size_t len, uint64_t max_bytes,
			     struct sp_error *err);
/* Where text stops being JSON: 0 with *line and *column (1-based, in
 * characters), or -1 when it parses (any problem is not of syntax). */
SP_API int sp_carry_error_at(const char *json, size_t len, int *line, int *column);
/*
 * Merge carry_out into carry_in (new names added, existing replaced).
 * Returns malloc'd pretty JSON text, or NULL with err->msg. *changed gets
 * a malloc'd NULL-terminated list of the names added or replaced (may be
 * NULL); free each and the list.
 */
SP_API char *sp_carry_merge(const char *carry_in, const char *carry_out,
			    char ***changed, struct sp_error *err);

/*
 * Check cfg's files_in and files_bytes as sp_run_start will, without
 * running anything: each host path opens for reading (a FIFO does not
 * block) and is a regular file; names are 1-255 bytes of valid UTF-8, no
 * '/', no control characters, not . or .., distinct, and not carry.json
 * with carry-in nor the program's own name (its base name, cfg->filename's:
 * the program is /work/NAME, its __file__, and that name follows the same
 * rules); all of them and the carry-in fit the disk limit. 0, or -1 with
 * err->msg naming the file and what to do.
 */
SP_API int sp_files_in_check(const struct sp_config *cfg, struct sp_error *err);
/* Create dir when missing (mode 0700; its parent must exist); refuse
 * anything but an empty directory. 0, or -1 with err->msg. */
SP_API int sp_keep_dir_prepare(const char *dir, struct sp_error *err);

/* The host's isolation layers, for `sandpit doctor`. Returns count. */
SP_API size_t sp_doctor(struct sp_layer *layers, size_t max);
/* A hint for a missing layer (how to enable it), or NULL. */
SP_API const char *sp_doctor_hint(const char *layer_name);

#ifdef __cplusplus
}
#endif

#endif
