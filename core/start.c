/* SPDX-License-Identifier: MIT */
/*
 * start.c - the one start sequence of a sandbox, as named steps:
 *
 *   check config     the caller's config judged before anything starts
 *   open inputs      files to copy in, the stdin memfd, the keep dir
 *   make pipes       stdout, stderr, the channel (and a prepared run's
 *                    release socket); the program's ends above fd 10
 *   make the cgroup  before init: on v2 init is cloned straight into it
 *   clone init       new namespaces; init builds the root meanwhile
 *   ready            the root is built (the work dir's fd is ours)
 *   place inputs     files in, the program's file, carry.json, through
 *                    the work dir's fd
 *   go               init starts the program, with the filter's variant
 *   take sources     our ends of the pipes become the run's sources
 *   watch, arm       into the epoll set; the deadline and the sampler
 *
 * and the three ways in, each a list of those steps:
 *   sp_run_start     a cold run: start (placing the inputs between ready
 *                    and go) + arm
 *   sp_run_prepare   a prepared run: start without a program; only the
 *                    preparation's deadline is armed
 *   sp_run_release   its release: check config, open inputs, place
 *                    inputs, then arm and send the program (prepare.c
 *                    owns the release's wire format)
 *
 * Every descriptor a step makes has one owner (fd.h): the step's struct
 * until it is handed to init or to the run, which then closes it. A
 * failed start closes what it still holds with one call and frees the
 * run; a failed release after the sandbox was handed over spends it.
 */
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "buf.h"
#include "fd.h"
#include "run_impl.h"
#include "interpreter.h"
#include "banned.h"

/* ---- check config ---- */

static const char *python_of(const char *python)
{
	return python ? python : "/usr/bin/python3";
}

static int check_python(const char *python, struct sp_error *err)
{
	struct stat st;

	if (python[0] != '/')
		return sp_fail(err, "the interpreter must be an absolute path: %s", python);
	if (strlen(python) >= PATH_MAX)
		return sp_fail(err, "the interpreter's path is over %d bytes", PATH_MAX - 1);
	if (stat(python, &st) < 0)
		return sp_fail_errno(err, "no interpreter at %s", python);
	if (!S_ISREG(st.st_mode) || access(python, X_OK) < 0)
		return sp_fail(err, "%s is not an executable file", python);
	return sp_python_check_name(python, err);
}

static int check_limits(const struct sp_limits *l, struct sp_error *err)
{
	if (l->output_bytes == 0 || l->wall_ms == 0 || l->cpu_ms == 0 ||
	    l->memory_bytes < SP_MIN_MEMORY_BYTES || l->disk_bytes < SP_MIN_DISK_BYTES ||
	    l->procs == 0)
		return sp_fail(err, "limits too small: cpu and wall must be > 0, memory at "
			       "least %uM, disk at least %uK, output and procs at least 1",
			       SP_MIN_MEMORY_BYTES >> 20, SP_MIN_DISK_BYTES >> 10);
	return 0;
}

static bool limits_equal(const struct sp_limits *a, const struct sp_limits *b)
{
	return a->cpu_ms == b->cpu_ms && a->wall_ms == b->wall_ms &&
	       a->memory_bytes == b->memory_bytes && a->output_bytes == b->output_bytes &&
	       a->disk_bytes == b->disk_bytes && a->carry_bytes == b->carry_bytes &&
	       a->procs == b->procs;
}

/* The program's part of a config (a cold run's, a release's): its file
 * name (the last part of the path given, into *filename: its file in the
 * work dir), the carry-in, and what becomes of the output. */
static int check_program(const struct sp_config *cfg, const char **filename,
			 struct sp_error *err)
{
	if (sp_program_name_check(cfg, err) < 0)
		return -1;
	if (cfg->carry_in &&
	    sp_carry_validate(cfg->carry_in, cfg->carry_in_len, cfg->limits.carry_bytes, err) < 0)
		return -1;
	/* forwarding moves the bytes without holding them; keeping them would
	 * mean copying through our memory, and a stuck target would then hold
	 * bytes the loop must wait on */
	if (cfg->forward && cfg->keep_output)
		return sp_fail(err, "forward and keep_output cannot both be set: "
			       "forward the output, or keep it in the result");
	if (cfg->forward && (cfg->forward_out < 0 || cfg->forward_err < 0))
		return sp_fail(err, "forward needs two open descriptors (forward_out, forward_err)");
	*filename = sp_program_file_name(cfg);
	return 0;
}

/* A prepared sandbox takes one program, while it waits, as it was made. */
static int check_release(const struct sp_run *r, const struct sp_config *cfg,
			 struct sp_error *err)
{
	const char *python = python_of(cfg->python);

	if (!r->prep.on)
		return sp_fail(err, "this run was not prepared (sp_run_prepare makes one)");
	if (r->prep.released)
		return sp_fail(err, "this prepared sandbox was released already: each one runs "
			       "one program, never two");
	if (r->end.stopping || r->end.init_done || r->end.finished)
		return sp_fail(err, "this prepared sandbox has ended: start the run cold");
	if (!r->prep.ready)
		return sp_fail(err, "this prepared sandbox is not ready yet (wait for "
			       "SP_EVENT_READY), or start the run cold");
	if (strcmp(python, r->python) != 0)
		return sp_fail(err, "this sandbox was prepared for %s, not %s: free it and "
			       "start the run cold", r->python, python);
	if (!limits_equal(&cfg->limits, &r->limits))
		return sp_fail(err, "this sandbox was prepared with other limits: free it and "
			       "start the run cold");
	return 0;
}

/* ---- open inputs ---- */

/* What the caller hands the program, opened and judged before anything
 * starts; each field -1 or NULL once handed on. */
struct start_inputs {
	struct sp_in_file *files;   /* cfg->files_in, opened (fds owned) */
	size_t n_files;
	int stdin_fd;               /* a sealed memfd, or -1 */
	int keep_fd;                /* the keep dir, or -1 */
	char *keep_path;
};

static void close_inputs(struct start_inputs *in)
{
	sp_in_files_close(in->files, in->n_files);
	in->files = NULL;
	in->n_files = 0;
	SP_FDS_CLOSE(&in->stdin_fd, &in->keep_fd);
	free(in->keep_path);
	in->keep_path = NULL;
}

/* The caller's stdin as an anonymous sealed file, no host path the
 * program could reopen: into *fd, -1 when there is none. 0 or -1. */
static int make_stdin(const struct sp_config *cfg, int *fd, struct sp_error *err)
{
	*fd = -1;
	if (!cfg->stdin_data)
		return 0;
	*fd = memfd_create("stdin", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (*fd < 0)
		return sp_fail_errno(err, "stdin: memfd");
	if (sp_write_all(*fd, cfg->stdin_data, cfg->stdin_len) < 0 ||
	    lseek(*fd, 0, SEEK_SET) < 0) {
		sp_fail_errno(err, "stdin: write");
		sp_fd_close(fd);
		return -1;
	}
	fcntl(*fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	return 0;
}

static int open_inputs(const struct sp_config *cfg, struct start_inputs *in,
		       struct sp_error *err)
{
	memset(in, 0, sizeof *in);
	in->stdin_fd = in->keep_fd = -1;
	if (sp_in_files_open(cfg, &in->files, err) < 0)
		return -1;
	in->n_files = in->files ? sp_in_files_count(cfg) : 0;
	if (make_stdin(cfg, &in->stdin_fd, err) < 0)
		goto fail;
	if (cfg->keep_dir) {
		in->keep_fd = sp_keep_dir_open(cfg->keep_dir, err);
		if (in->keep_fd < 0)
			goto fail;
		in->keep_path = strdup(cfg->keep_dir);
		if (!in->keep_path) {
			sp_fail(err, "out of memory");
			goto fail;
		}
	}
	return 0;
fail:
	close_inputs(in);
	return -1;
}

/* What the caller asked of the output and of the files left: the run's
 * from here (the keep dir's fd and path taken from in). */
static void take_output_choices(struct sp_run *r, const struct sp_config *cfg,
				struct start_inputs *in)
{
	r->out.keep_output = cfg->keep_output;
	r->out.forward = cfg->forward;
	r->out.fwd_fd[0] = cfg->forward ? cfg->forward_out : -1;
	r->out.fwd_fd[1] = cfg->forward ? cfg->forward_err : -1;
	if (cfg->forward) {
		struct sigaction sa;
		r->out.fwd_guard_sigpipe = sigaction(SIGPIPE, NULL, &sa) < 0 ||
					   sa.sa_handler != SIG_IGN;
	}
	r->files.keep.root_fd = sp_fd_take(&in->keep_fd);
	r->files.keep_path = in->keep_path;
	in->keep_path = NULL;
	r->files.keep.root_path = r->files.keep_path;
	r->files.keep.budget = cfg->limits.disk_bytes;
}

/* ---- make pipes ---- */

/* The pipes between the supervisor and the program: [0] the supervisor's
 * end, [1] the program's; -1 once handed on. */
struct start_pipes {
	int out[2], err[2], chan[2];
	int rel[2];                 /* a prepared run's release socket, or -1 */
	int stdin_fd;               /* the program's stdin (a memfd), or -1 */
};

static void close_pipes(struct start_pipes *p)
{
	SP_FDS_CLOSE(&p->out[0], &p->out[1], &p->err[0], &p->err[1], &p->chan[0],
		     &p->chan[1], &p->rel[0], &p->rel[1], &p->stdin_fd);
}

/* The program's ends must not land on 0-3, where init's dup2 puts them. */
static int above_10(int *fd)
{
	if (*fd < 0)
		return 0;
	*fd = sp_fd_move_above(*fd, 10);
	return *fd < 0 ? -1 : 0;
}

/* stdin_fd (or -1) is taken; on failure p holds nothing. */
static int make_pipes(struct start_pipes *p, int stdin_fd, bool release_socket,
		      struct sp_error *err)
{
	p->out[0] = p->out[1] = p->err[0] = p->err[1] = -1;
	p->chan[0] = p->chan[1] = p->rel[0] = p->rel[1] = -1;
	p->stdin_fd = stdin_fd;
	if (pipe2(p->out, O_CLOEXEC) < 0 || pipe2(p->err, O_CLOEXEC) < 0 ||
	    pipe2(p->chan, O_CLOEXEC) < 0 ||
	    (release_socket &&
	     socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p->rel) < 0)) {
		sp_fail_errno(err, "pipes for the program");
		goto fail;
	}
	if (above_10(&p->out[1]) < 0 || above_10(&p->err[1]) < 0 ||
	    above_10(&p->chan[1]) < 0 || above_10(&p->rel[1]) < 0 ||
	    above_10(&p->stdin_fd) < 0) {
		sp_fail_errno(err, "pipes for the program: move above fd 10");
		goto fail;
	}
	return 0;
fail:
	close_pipes(p);
	return -1;
}

/* ---- the sandbox's plan ---- */

/* What init builds the sandbox from; the spec points into it. */
struct start_plan {
	struct sp_launch_spec spec;
	char etc_dirs[8][32];       /* the interpreter's /etc/python3.N */
	const char *etc_ptrs[8];
};

/* The plan every start shares: the run's interpreter, limits and file
 * name, the prelude, and the program's ends of p; no program yet. */
static void plan_sandbox(const struct sp_run *r, struct start_plan *pl,
			 const struct start_pipes *p)
{
	struct sp_launch_spec *s = &pl->spec;
	size_t n_etc = sp_python_etc_dirs(r->python, pl->etc_dirs, SP_ARRAY_SIZE(pl->etc_dirs));

	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < n_etc; i++)
		pl->etc_ptrs[i] = pl->etc_dirs[i];
	s->python = r->python;
	s->filename = r->filename;
	s->limits = r->limits;
	s->stdin_fd = p->stdin_fd;
	s->out_w = p->out[1];
	s->err_w = p->err[1];
	s->chan_w = p->chan[1];
	s->rel_fd = p->rel[1];
	s->mounts.python = r->python;
	s->mounts.ro_binds = pl->etc_ptrs;
	s->mounts.n_ro_binds = n_etc;
	s->mounts.disk_bytes = r->limits.disk_bytes;
	s->mounts.code = "";
	s->mounts.prelude = sp_prelude_py;
	s->mounts.prelude_len = sp_prelude_py_len;
	if (sp_prelude_pyc_fits(r->python)) {
		s->mounts.prelude_pyc = sp_prelude_pyc;
		s->mounts.prelude_pyc_len = sp_prelude_pyc_len;
	}
	s->mounts.filename = r->filename;
}

/* ---- place inputs ---- */

/* The root is built and the program not started: copy the files in
 * through the work dir's fd (a prepared sandbox's root was built without
 * the carry-in: it is written now), write the program's own file beside
 * them (its __file__, as `python3 FILE` run in the work dir has it), and
 * note what sandpit put there (carry.json too), so the listing at the end
 * can tell it from the program's own. */
static int place_inputs(struct sp_run *r, const struct sp_config *cfg,
			const struct start_inputs *in, const char *filename,
			struct sp_error *err)
{
	struct stat st;
	size_t n = in->n_files;

	if (cfg->carry_in && r->prep.on &&
	    sp_prepare_write_carry(r->L.work_fd, &r->ids, cfg->carry_in, cfg->carry_in_len,
				   err) < 0)
		return -1;
	r->files.placed = calloc(n + 2, sizeof *r->files.placed);
	r->res->files_in = n ? calloc(n, sizeof *r->res->files_in) : NULL;
	if (!r->files.placed || (n && !r->res->files_in))
		return sp_fail(err, "out of memory");
	if (n) {
		/* count what exists, so a failure half way is freed */
		r->res->n_files_in = n;
		if (sp_in_files_copy(r->L.work_fd, &r->ids, in->files, n, r->res->files_in,
				     r->files.placed, err) < 0)
			return -1;
		r->files.n_placed = n;
	}
	if (sp_program_file_write(r->L.work_fd, &r->ids, filename, cfg->code ? cfg->code : "",
				  cfg->code ? cfg->code_len : 0,
				  &r->files.placed[r->files.n_placed], err) < 0)
		return -1;
	r->files.n_placed++;
	if (cfg->carry_in &&
	    fstatat(r->L.work_fd, "carry.json", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct sp_placed *pl = &r->files.placed[r->files.n_placed++];
		snprintf(pl->name, sizeof pl->name, "carry.json");
		pl->ino = st.st_ino;
		pl->size = st.st_size;
		pl->mtime = st.st_mtim;
		pl->ctime = st.st_ctim;
	}
	return 0;
}

/* ---- take sources, watch, arm ---- */

/* The supervisor's ends of the program's pipes become the run's sources,
 * for a cold run and a prepared one alike: their inodes noted (what the
 * supervisor drains is not the program's memory), stdout and stderr made
 * big (fewer wake-ups when a program writes a lot), all of them and the
 * control socket non-blocking; then epoll and the two timers. The fds are
 * the run's from the call on, even when it fails (-1 with err). */
static int take_sources(struct sp_run *r, struct start_pipes *p, struct sp_error *err)
{
	int *own[3] = { &r->src.out_fd, &r->src.err_fd, &r->src.chan_fd };

	r->src.out_fd = sp_fd_take(&p->out[0]);
	r->src.err_fd = sp_fd_take(&p->err[0]);
	r->src.chan_fd = sp_fd_take(&p->chan[0]);
	r->prep.rel_fd = sp_fd_take(&p->rel[0]);
	for (int i = 0; i < 3; i++) {
		struct stat st;
		r->acct.own_pipes[i] = fstat(*own[i], &st) == 0 ? (uint64_t)st.st_ino : 0;
		fcntl(*own[i], F_SETFL, O_NONBLOCK);
	}
	fcntl(r->src.out_fd, F_SETPIPE_SZ, PIPE_BYTES);
	fcntl(r->src.err_fd, F_SETPIPE_SZ, PIPE_BYTES);
	fcntl(r->L.ctl, F_SETFL, O_NONBLOCK);
	r->src.epfd = epoll_create1(EPOLL_CLOEXEC);
	r->src.sample_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	r->src.deadline_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (r->src.epfd < 0 || r->src.sample_fd < 0 || r->src.deadline_fd < 0)
		return sp_fail_errno(err, "epoll and timers");
	return 0;
}

static int source_fd(const struct sp_run *r, enum src s)
{
	switch (s) {
	case SRC_OUT: return r->src.out_fd;
	case SRC_ERR: return r->src.err_fd;
	case SRC_CHAN: return r->src.chan_fd;
	case SRC_NOTIFY: return r->src.notify_fd;
	case SRC_CTL: return r->L.ctl;
	case SRC_PIDFD: return r->L.pidfd;
	case SRC_SAMPLE: return r->src.sample_fd;
	case SRC_DEADLINE: return r->src.deadline_fd;
	}
	return -1;
}

static int watch(struct sp_run *r, const enum src *srcs, size_t n, struct sp_error *err)
{
	for (size_t i = 0; i < n; i++)
		if (sp_run_watch(r, source_fd(r, srcs[i]), srcs[i]) < 0)
			return sp_fail_errno(err, "epoll: watching the run's pipes and timers");
	return 0;
}

/* The program's clock runs: its deadline counts from r->start_us, and
 * the sampler starts. */
static void arm(struct sp_run *r)
{
	sp_run_arm_deadline(r, r->start_us + r->limits.wall_ms * 1000u);
	sp_accounting_arm(r);
}

/* The filter's variant: what the run's cgroups cannot tell the
 * supervisor, the filter must (see SP_FILTER_* in sandbox.h). */
static unsigned filter_for(struct sp_cgroup *cg)
{
	unsigned f = 0;

	if (sp_seccomp_can_continue()) {
		f |= SP_FILTER_OBSERVE_MEMORY;
		if (!sp_cgroup_has_pids_peak(cg))
			f |= SP_FILTER_COUNT_PROCS;
	}
	if (!sp_cgroup_has_cpu(cg))
		f |= SP_FILTER_KEEP_SIGCHLD;
	return f;
}

/* ---- the sequence ---- */

/*
 * The steps every start shares, from the cgroup to the sources; a cold
 * run places in between ready and go (in, else NULL). The program's ends
 * of p are init's from the clone on and closed here once it goes; ours
 * become the run's. -1 with err: the caller fails the start.
 */
static int start_sandbox(struct sp_run *r, struct start_plan *pl, struct start_pipes *p,
			 const struct sp_config *cfg, const struct start_inputs *in,
			 struct sp_error *err)
{
	bool late;

	r->start_us = sp_now_us();
	if (sp_host_ids_take(&r->ids, err) < 0)
		return -1;
	pl->spec.host_uid = r->ids.uid;
	pl->spec.host_gid = r->ids.gid;
	/* make the cgroup: on v2 init is cloned straight into it, and the
	 * controllers are enabled while no process of the run sits in the
	 * parent; on v1 it is made while init builds the root, and init
	 * joins it itself when told to start (cgroup_join.h) */
	r->cg = sp_cgroup_create_early(&r->limits, r->cg_detail, sizeof r->cg_detail, &late);
	pl->spec.cgroup_fd = sp_cgroup_fd(r->cg);
	if (sp_launch_start(&pl->spec, &r->L, err) < 0)       /* clone init */
		return -1;
	if (late)
		r->cg = sp_cgroup_create_late(&r->limits, r->cg_detail, sizeof r->cg_detail);
	r->layers.filter = filter_for(r->cg);
	if (sp_launch_ready(&r->L, r->cg, err) < 0 ||         /* the root is built */
	    (in && place_inputs(r, cfg, in, r->filename, err) < 0) ||
	    sp_launch_go(&r->L, r->cg, r->layers.filter |
			 (sp_cgroup_has_pids(r->cg) ? SP_GO_PIDS_CGROUP : 0), err) < 0)
		return -1;
	SP_FDS_CLOSE(&p->out[1], &p->err[1], &p->chan[1], &p->rel[1], &p->stdin_fd);
	return take_sources(r, p, err);
}

/* A start that failed: close what it holds, stop init, free the run. */
static int start_failed(struct sp_run *r, struct start_pipes *p)
{
	close_pipes(p);
	r->end.finished = true;
	sp_launch_abort(&r->L); /* init, if it was started */
	sp_cgroup_destroy(r->cg);
	r->cg = NULL;
	sp_run_free(r);
	return -1;
}

static int start_cold(const struct sp_config *cfg, struct sp_run **out,
		      struct sp_error *err)
{
	/* not the channel yet: it joins at the run's first wake-up (run.c) */
	static const enum src all[] = { SRC_OUT, SRC_ERR, SRC_CTL, SRC_PIDFD,
					SRC_SAMPLE, SRC_DEADLINE };
	const char *python = python_of(cfg->python), *filename;
	struct start_inputs in;
	struct start_pipes p;
	struct start_plan pl;
	struct sp_run *r;

	if (check_python(python, err) < 0 || check_limits(&cfg->limits, err) < 0 ||
	    check_program(cfg, &filename, err) < 0 || open_inputs(cfg, &in, err) < 0)
		return -1;
	r = sp_run_new(&cfg->limits, python, err);
	if (!r) {
		close_inputs(&in);
		return -1;
	}
	snprintf(r->filename, sizeof r->filename, "%s", filename);
	take_output_choices(r, cfg, &in);
	if (make_pipes(&p, sp_fd_take(&in.stdin_fd), false, err) < 0) {
		close_inputs(&in);
		sp_run_free(r);
		return -1;
	}
	plan_sandbox(r, &pl, &p);
	pl.spec.columns = cfg->columns;
	pl.spec.lines = cfg->lines;
	pl.spec.mounts.code = cfg->code ? cfg->code : "";
	pl.spec.mounts.code_len = cfg->code ? cfg->code_len : 0;
	pl.spec.mounts.carry_in = cfg->carry_in;
	pl.spec.mounts.carry_in_len = cfg->carry_in_len;
	if (start_sandbox(r, &pl, &p, cfg, &in, err) < 0) {
		close_inputs(&in);
		return start_failed(r, &p);
	}
	close_inputs(&in);
	if (watch(r, all, SP_ARRAY_SIZE(all), err) < 0)
		return start_failed(r, &p);
	r->src.chan_late = true;
	arm(r);
	*out = r;
	return 0;
}

int sp_run_start(const struct sp_config *caller, struct sp_run **out,
		 struct sp_error *err)
{
	struct sp_config cfg;

	*out = NULL;
	if (err)
		err->msg[0] = '\0';
	if (sp_config_take(caller, &cfg, err) < 0)
		return -1;
	return start_cold(&cfg, out, err);
}

int sp_run_prepare(const struct sp_prepare *prep, struct sp_run **out,
		   struct sp_error *err)
{
	/* stdout, stderr and the sampler's ticks join at the release */
	static const enum src waiting[] = { SRC_CHAN, SRC_CTL, SRC_PIDFD, SRC_SAMPLE,
					    SRC_DEADLINE };
	const char *python = python_of(prep->python);
	char preload[SP_MAX_PRELOAD * 102];
	struct start_pipes p;
	struct start_plan pl;
	struct sp_run *r;

	*out = NULL;
	if (err)
		err->msg[0] = '\0';
	if (check_python(python, err) < 0 || check_limits(&prep->limits, err) < 0 ||
	    sp_prepare_preload_arg(prep, preload, sizeof preload, err) < 0)
		return -1;
	r = sp_run_new(&prep->limits, python, err);
	if (!r)
		return -1;
	r->prep.on = true;
	snprintf(r->filename, sizeof r->filename, "main.py"); /* empty until the release */
	if (make_pipes(&p, -1, true, err) < 0) {
		sp_run_free(r);
		return -1;
	}
	plan_sandbox(r, &pl, &p);
	/* RLIMIT_CPU with room for the imports; the release lowers it */
	pl.spec.limits.cpu_ms += SP_PREPARE_CPU_S * 1000u;
	pl.spec.preload = preload;
	if (start_sandbox(r, &pl, &p, NULL, NULL, err) < 0 ||
	    watch(r, waiting, SP_ARRAY_SIZE(waiting), err) < 0)
		return start_failed(r, &p);
	sp_run_arm_deadline(r, r->start_us + (uint64_t)SP_PREPARE_TIMEOUT_MS * 1000u);
	*out = r;
	return 0;
}

static int release_run(struct sp_run *r, const struct sp_config *cfg, struct sp_error *err)
{
	static const enum src output[] = { SRC_OUT, SRC_ERR };
	const char *filename;
	struct start_inputs in;

	if (check_release(r, cfg, err) < 0 || check_program(cfg, &filename, err) < 0 ||
	    open_inputs(cfg, &in, err) < 0)
		return -1;
	if (sp_prepare_lower_cpu_rlimit(r, err) < 0) {
		close_inputs(&in);
		return -1;
	}
	/* From here the sandbox is this program's: whatever fails, it is
	 * spent (it finishes as sandbox_error, or never starts). */
	r->prep.released = true;
	r->res->prepared = true;
	take_output_choices(r, cfg, &in);
	if (place_inputs(r, cfg, &in, filename, err) < 0)
		goto spent;
	sp_prepare_hand_over(r);
	/* the program's clock starts now, before it can run */
	r->start_us = sp_now_us();
	if (watch(r, output, SP_ARRAY_SIZE(output), err) < 0)
		goto spent;
	arm(r);
	if (sp_prepare_send_release(r, cfg, filename, in.stdin_fd, err) < 0)
		goto spent;
	close_inputs(&in);
	sp_fd_close(&r->prep.rel_fd);
	return 0;
spent:
	close_inputs(&in);
	snprintf(r->end.setup_error, sizeof r->end.setup_error, "%s",
		 err ? err->msg : "release failed");
	sp_run_stop(r, SP_STATUS_SANDBOX_ERROR);
	return 0;
}

int sp_run_release(struct sp_run *r, const struct sp_config *caller, struct sp_error *err)
{
	struct sp_config cfg;

	if (err)
		err->msg[0] = '\0';
	if (sp_config_take(caller, &cfg, err) < 0)
		return -1;
	return release_run(r, &cfg, err);
}
