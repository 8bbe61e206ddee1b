/* SPDX-License-Identifier: MIT */
/*
 * run_impl.h - the run object's insides, shared by the files that make it
 * up and by nobody else. Layer: the top of core/, above launch.h; it
 * brings base.h, result.h, workfiles.h and launch.h (sandbox.h), which
 * every file of the run uses. The files, lowest first; each calls only
 * files on its own line or below, never one above:
 *   run_object.c  the object's life (new, free), the event queue, the
 *                 records, the clock, the stop, watching a source, the
 *                 deadline timer
 *   output.c      stdout and stderr: the output limit, keeping, and
 *                 forwarding to the caller's fds
 *   channel.c     the program's private channel: carry-out and the
 *                 prelude's line reports
 *   notify.c      the seccomp notifications: denials and what is observed
 *   accounting.c  usage samples and the CPU / memory / disk / process
 *                 checks; the wall deadline reached
 *   samples.c     the usage timeline; variables.c  the globals at the end
 *   prepare.c     what is a prepared run's alone: its wait for the
 *                 release (below output, channel, accounting), the
 *                 release's wire format
 *   finish.c      what happens once init has exited and the pipes are
 *                 drained: the last figures and records, the files left,
 *                 the layers; the status itself from status.c, from facts
 *   start.c       the one start sequence: a cold run, a prepared one, a
 *                 release
 *   run.c         the event API, the pump, the drain once init is gone
 *
 * struct sp_run is grouped by owner: each sub-struct names the file that
 * writes it (others may read it).
 *
 * Invariants: res is never NULL while the run lives; viol holds every
 * record (res->violations points into it only once finished); the queue
 * grows as needed and never drops an event (the program can make one pump
 * queue hundreds of violation records); an fd field is -1 once its source
 * is closed.
 */
#ifndef SP_RUN_IMPL_H
#define SP_RUN_IMPL_H

#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <sys/epoll.h>

#include "base.h"
#include "launch.h"
#include "result.h"
#include "workfiles.h"

#define CHUNK (256 * 1024)
#define PIPE_BYTES (1024 * 1024)
#define SAMPLE_MS 50

enum src { SRC_OUT, SRC_ERR, SRC_CHAN, SRC_NOTIFY, SRC_CTL, SRC_PIDFD,
	   SRC_SAMPLE, SRC_DEADLINE };

struct qitem {
	enum sp_event_type type;
	char *data;
	size_t len;
	struct sp_usage usage;
	size_t viol;
};

/* output.c: stdout and stderr */
struct run_output {
	bool keep_output;
	bool forward;
	int fwd_fd[2];              /* stdout, stderr; -1 once dropped */
	bool fwd_copy[2];           /* splice refused: read and write */
	bool fwd_guard_sigpipe;     /* SIGPIPE is not ignored: hold it */
	bool draining;              /* the program is gone: forward all that is left */
	size_t out_cap, err_cap;    /* of res->out and res->err, when kept */
	char errtail[8192];         /* the end of stderr, for its tracebacks (hints.c) */
	size_t errtail_len;
};

/* start.c makes the sources in the epoll set; each -1 once closed
 * (sp_run_unwatch) */
struct run_sources {
	int epfd, out_fd, err_fd, chan_fd, notify_fd, sample_fd, deadline_fd;
	bool chan_late;             /* the channel joins the set at the first wake-up */
};

/* run_object.c queues the events; run.c hands them out */
struct run_queue {
	struct qitem *q;            /* a ring of qcap items */
	size_t qhead, qlen, qcap;
	struct qitem cur;           /* the event last handed out */
};

/* start.c places the files in; finish.c lists what is left (workdir.c,
 * keep.c) */
struct run_files {
	struct sp_keep keep;        /* root_fd -1 unless the caller keeps files */
	char *keep_path;
	struct sp_placed *placed;   /* what sandpit put in the work dir */
	size_t n_placed;
};

/* samples.c: the usage timeline */
struct run_timeline {
	struct sp_samples samples;
	size_t seen;                /* records it has looked at for limits */
};

/* variables.c: the globals at the end */
struct run_variables {
	struct sp_variable *v;      /* SP_MAX_VARIABLES slots once one comes */
	char **tables;              /* beside v: a table's preview, or NULL */
	size_t n;
	uint64_t more;
	size_t value_bytes, table_bytes;
};

/* channel.c: the program's private channel, and what the prelude said */
struct run_channel {
	char *buf;                  /* the line being read: size bytes, grown */
	size_t len, size, cap;      /* as lines need, up to cap */
	bool skip_line;
	unsigned lines;             /* lines read from the channel so far */
	json_t *carry_out;
	json_t *carry_sizes;        /* name -> bytes of "name":value in carry_out */
	size_t carry_len;           /* bytes of carry_out, dumped compact */
	int pending_line;
	char pending_ctx[160];
	bool have_pending;
	int exc_line;
	char exc_kind[16];
	int last_line;              /* the last valid line the prelude reported */
	bool prelude_started;       /* its hello came first on the channel */
};

/* accounting.c: the usage checks */
struct run_accounting {
	long clk_tck;
	bool disk_reported, procs_reported, memory_reported;
	uint64_t own_pipes[3];      /* inodes of the program's stdout, stderr, channel */
};

/* notify.c: the seccomp notifications */
struct run_notify {
	uint32_t spawn_floor;       /* tasks counted at the last spawn let through */
	uint64_t spawn_at_us;       /* and when */
	uint32_t spawn_tid;         /* and for which thread */
	uint64_t spawn_full_us;     /* when a count last found the limit reached, or 0 */
	uint32_t mem_refused_pid;   /* the last allocation seen refused: who */
	uint64_t mem_refused_us;    /* and when */
	uint64_t mem_refused_data;  /* and the process's data then */
	struct seccomp_notif *notif_req;     /* allocated on the first denial */
	struct seccomp_notif_resp *notif_resp;
};

/* run.c (the program's SP_CTL_LAYERS), start.c (the filter chosen); finish.c
 * records them */
struct run_layers {
	int landlock_abi;
	int seccomp_mode;           /* 0 unknown, 1 errno, 2 notify */
	unsigned filter;            /* the filter's variant, SP_FILTER_* */
};

/* run.c learns how the run ends (run_object.c stops it); finish.c
 * decides from it */
struct run_end {
	bool have_status;
	int wstatus;
	bool init_done;
	bool finished;
	bool finished_sent;
	enum sp_status stop;        /* why the supervisor stopped it, or OK */
	bool stopping;
	char setup_error[512];
};

/* prepare.c: a prepared run */
struct run_prep {
	bool on;                    /* made by sp_run_prepare */
	bool ready;                 /* the prelude waits for its release */
	bool released;
	int rel_fd;                 /* our end of the release socket, or -1 */
	uint64_t cpu_base_ms;       /* the sandbox's CPU at the release */
	char preloaded[512];        /* "numpy, pandas" */
	char err_head[200];         /* its stderr's start, when it failed */
};

/* The run's clock and what is ready to be handled: both real (the
 * monotonic clock, epoll) unless a test scripts them, to drive the pump
 * through an exact order of sources at exact times without depending on
 * the machine's speed (tests/integration/test_pump_order.c). NULL
 * members mean the real ones. */
struct sp_run_seam {
	uint64_t (*now_us)(void *ctx);
	/* up to max sources ready now, as epoll_wait fills them (data.u32 is
	 * an enum src); the count, or -1 */
	int (*ready)(void *ctx, int epfd, struct epoll_event *evs, int max);
	void *ctx;
};

struct sp_run {
	/* start.c, run_object.c */
	struct sp_run_seam seam;    /* the real clock and epoll, or a script */
	struct sp_limits limits;
	/* the interpreter and the program's name, copied: init blanks the
	 * caller's argv, where a config's strings may point (launch.c) */
	char python[PATH_MAX];
	char filename[NAME_MAX + 1];
	volatile sig_atomic_t interrupted; /* sp_run_interrupt, from a signal handler */
	struct sp_host_ids ids;     /* the sandbox user's host uid and gid */
	struct sp_launched L;
	struct sp_cgroup *cg;
	char cg_detail[160];
	uint64_t start_us;
	struct sp_result *res;
	struct sp_violations viol;
	bool viol_dirty;            /* a record grew since the last sample */

	struct run_sources src;     /* start.c, run.c */
	struct run_queue queue;     /* run_object.c, run.c */
	struct run_notify notify;   /* notify.c */
	struct run_layers layers;   /* start.c, run.c, finish.c */
	struct run_end end;         /* run.c, run_object.c, finish.c */
	struct run_files files;     /* start.c, finish.c */
	struct run_output out;      /* output.c */
	struct run_channel chan;    /* channel.c */
	struct run_accounting acct; /* accounting.c */
	struct run_timeline timeline; /* samples.c */
	struct run_variables vars;  /* variables.c */
	struct run_prep prep;       /* prepare.c */
};

/* run_object.c: the run's life, queue, records, clock and stop */
/* A run with every fd -1 and its result, or NULL with err ("out of memory"). */
struct sp_run *sp_run_new(const struct sp_limits *limits, const char *python,
			  struct sp_error *err);
void sp_run_push(struct sp_run *r, struct qitem it);
void sp_run_push_usage(struct sp_run *r);
/* Queue an event for every record whose count changed since its last one. */
void sp_run_push_grown(struct sp_run *r);
/* Add or merge a record, and queue an event for a new one. */
struct sp_violation *sp_run_violation(struct sp_run *r, enum sp_violation_kind k,
				   bool kernel, int line, const char *fmt, ...)
	SP_PRINTF(5, 6);
/* Kill the whole tree (once), remembering why. */
void sp_run_stop(struct sp_run *r, enum sp_status why);
uint64_t sp_run_now_ms(const struct sp_run *r);
/* The seam's clock (sp_now_us unless scripted). */
uint64_t sp_run_now_us(const struct sp_run *r);
/* Watch fd as source s (-1: errno); a source that ended: unwatched,
 * closed, -1. */
int sp_run_watch(struct sp_run *r, int fd, enum src s);
void sp_run_unwatch(struct sp_run *r, int *fd);
/* The deadline timer at at_us (monotonic), or off with 0: the one way
 * it is set. */
void sp_run_arm_deadline(struct sp_run *r, uint64_t at_us);

/* notify.c: one seccomp notification, answered and recorded. */
void sp_notify_handle(struct sp_run *r);

/* prepare.c */
/* RLIMIT_CPU's room for the preparation (imports), in seconds: lowered
 * to the program's own at the release. */
#define SP_PREPARE_CPU_S 60u
/* "numpy,pandas" for the prelude's argument, or -1 with err->msg. */
int sp_prepare_preload_arg(const struct sp_prepare *p, char *buf, size_t len,
			   struct sp_error *err);
/* At the release: /work/carry.json written as a cold run has it; the
 * interpreter's RLIMIT_CPU lowered to the program's; the preparation's
 * output discarded and its CPU taken as the base; the release sent. */
int sp_prepare_write_carry(int work_fd, const struct sp_host_ids *ids, const char *text,
			   size_t len, struct sp_error *err);
int sp_prepare_lower_cpu_rlimit(struct sp_run *r, struct sp_error *err);
void sp_prepare_hand_over(struct sp_run *r);
int sp_prepare_send_release(struct sp_run *r, const struct sp_config *cfg,
			    const char *filename, int stdin_fd, struct sp_error *err);
/* The prelude's {"t": "ready"}: the one of a preparing run only. */
void sp_prepare_on_ready(struct sp_run *r, json_t *msg);
/* Preparing ended before the release: take what it wrote, which is no
 * program's (no events), then say why (finish.c). */
void sp_prepare_take_output(struct sp_run *r);
void sp_prepare_on_finish(struct sp_run *r);
/* The preparation's time is up: its deadline before it is ready
 * (accounting.c asks first); false when the deadline is the program's. */
bool sp_prepare_deadline(struct sp_run *r);

/* output.c: read one chunk of stdout (is_err false) or stderr from *fdp
 * and queue, keep or forward it; *fdp is -1 once the pipe ended. */
void sp_output_read(struct sp_run *r, int *fdp, bool is_err);

/* channel.c */
void sp_channel_read(struct sp_run *r);
/* Take what the program already wrote (its line reports come before the
 * call they explain). */
void sp_channel_drain(struct sp_run *r);

/* accounting.c */
void sp_accounting_sample(struct sp_run *r);
/* The sampler's next tick (sooner near the CPU limit). */
void sp_accounting_arm(struct sp_run *r);
/* The wall limit is reached: stop the run (once); a preparation's
 * deadline is prepare.c's. */
void sp_accounting_deadline_reached(struct sp_run *r);
/* The records of limits reached that do not stop a run (once each). */
void sp_accounting_limit_records(struct sp_run *r);

/* samples.c: a point of the timeline from the usage just sampled, marked
 * with a limit a record since the last point says was reached; at the
 * end, the last marks and the timeline into the result. */
void sp_timeline_point(struct sp_run *r);
void sp_timeline_end(struct sp_run *r);

/* variables.c: {"t": "var"} and {"t": "vars"} messages; into the result */
void sp_variables_add(struct sp_run *r, json_t *msg);
void sp_variables_more(struct sp_run *r, json_t *msg);
void sp_variables_take(struct sp_run *r);
/* last_value.c: the {"t": "last"} message, into the result */
void sp_last_value_set(struct sp_run *r, json_t *msg);

/* finish.c: once init is gone and its pipes are drained; wall_ms is
 * the run's wall time, taken when init ended */
void sp_finish_run(struct sp_run *r, uint64_t wall_ms);

#endif
