/* SPDX-License-Identifier: MIT */
/*
 * prepare.c - prepared runs: a sandbox made ahead, up to the moment the
 * program is read, and released with one program (sandpit.h).
 *
 * The preparation is sp_run_start's launch without a program: the root
 * is built (with an empty /sandpit/main.py), the run's cgroups made, and
 * the interpreter started under every layer. The prelude, told by its
 * arguments that it is prepared, imports the preload list, says
 * {"t": "ready"} on the channel and blocks reading the release socket,
 * its fd SP_REL_FD. Until the release the supervisor polls only the
 * channel, the control socket, init's pidfd and the preparation's
 * deadline: output, records and samples are not the program's.
 *
 * The release (one message on a SOCK_STREAM unix socket):
 *   four little-endian u64: the file name's bytes, the program's, the
 *   carry-in's, and flags: 1 a stdin memfd rides along, 2 the texts are
 *   in a memfd (over 64 KiB of them), bits 16-31 and 32-47 the terminal's
 *   columns and lines (0: none); then the three texts, back to back,
 *   unless flag 2. The memfds ride on the first byte (SCM_RIGHTS): the
 *   texts' first, then stdin's.
 * The prelude reads it, closes the socket, puts the memfd on its fd 0
 * (else /dev/null stays there, as a cold run's), and runs the program.
 * Files in and /work/carry.json are placed through the work dir's fd
 * first, as sp_run_start places them.
 *
 * Limits count from the release: the supervisor takes the CPU spent so
 * far as its base (usage.prepare_ms) and subtracts it from every CPU
 * figure; RLIMIT_CPU, set at the preparation with SP_PREPARE_CPU_S of
 * room, is lowered by prlimit(2) to what the process used plus the
 * program's limit, as a cold run's; the wall deadline and the timeline
 * start at the release.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_impl.h"
#include "banned.h"

/* RLIMIT_CPU's room for the preparation (imports), in seconds: lowered
 * to the program's own at the release. */
#define SP_PREPARE_CPU_S 60u

static bool limits_equal(const struct sp_limits *a, const struct sp_limits *b)
{
	return a->cpu_ms == b->cpu_ms && a->wall_ms == b->wall_ms &&
	       a->memory_bytes == b->memory_bytes && a->output_bytes == b->output_bytes &&
	       a->disk_bytes == b->disk_bytes && a->carry_bytes == b->carry_bytes &&
	       a->procs == b->procs;
}

static int check_limits(const struct sp_limits *l, struct sp_error *err)
{
	if (l->output_bytes == 0 || l->wall_ms == 0 || l->cpu_ms == 0 ||
	    l->memory_bytes < SP_MIN_MEMORY_BYTES || l->disk_bytes < SP_MIN_DISK_BYTES ||
	    l->procs == 0)
		return sp_fail(err, "limits too small: cpu and wall must be > 0, memory at "
			       "least 16M, disk at least 4K, output and procs at least 1");
	return 0;
}

/* A module name: dotted Python identifiers (ASCII), at most 100 bytes. */
static bool module_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	bool start = true;

	if (n == 0 || n > 100)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		if (c == '.' && !start && i + 1 < n) {
			start = true;
			continue;
		}
		if (!alpha && !(c >= '0' && c <= '9' && !start))
			return false;
		start = false;
	}
	return true;
}

/* "numpy,pandas" for the prelude's argument, or -1 with err->msg. */
static int preload_arg(const struct sp_prepare *p, char *buf, size_t len,
		       struct sp_error *err)
{
	size_t at = 0;

	buf[0] = '\0';
	if (p->n_preload > SP_MAX_PRELOAD)
		return sp_fail(err, "preload: at most %d modules", SP_MAX_PRELOAD);
	for (size_t i = 0; i < p->n_preload; i++) {
		const char *m = p->preload[i];
		size_t n;
		if (!module_name_ok(m))
			return sp_fail(err, "preload: '%.100s' is not a module name (dotted "
				       "Python identifiers, such as numpy or matplotlib.pyplot)",
				       m ? m : "(null)");
		n = strlen(m);
		if (at + n + 2 > len)
			return sp_fail(err, "preload: the list is too long");
		if (at)
			buf[at++] = ',';
		memcpy(buf + at, m, n + 1);
		at += n;
	}
	return 0;
}

static void close_pair(int p[2])
{
	for (int i = 0; i < 2; i++)
		if (p[i] >= 0) {
			close(p[i]);
			p[i] = -1;
		}
}

static void arm_at(int fd, uint64_t at_us)
{
	struct itimerspec t = { 0 };

	t.it_value.tv_sec = (time_t)(at_us / 1000000u);
	t.it_value.tv_nsec = (long)(at_us % 1000000u) * 1000L;
	timerfd_settime(fd, TFD_TIMER_ABSTIME, &t, NULL);
}

int sp_run_prepare(const struct sp_prepare *p, struct sp_run **out,
		   struct sp_error *err)
{
	struct sp_run *r;
	struct sp_launch_spec spec;
	char etc_dirs[8][32];       /* the interpreter's /etc/python3.N */
	const char *etc_ptrs[8];
	size_t n_etc;
	const char *python = p->python ? p->python : "/usr/bin/python3";
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, chan_p[2] = { -1, -1 };
	int rel[2] = { -1, -1 };
	char preload[SP_MAX_PRELOAD * 102];

	*out = NULL;
	if (err)
		err->msg[0] = '\0';
	if (sp_run_check_python(python, err) < 0 || check_limits(&p->limits, err) < 0 ||
	    preload_arg(p, preload, sizeof preload, err) < 0)
		return -1;
	r = calloc(1, sizeof *r);
	if (!r || !(r->res = calloc(1, sizeof *r->res))) {
		free(r);
		return sp_fail(err, "out of memory");
	}
	r->limits = p->limits;
	snprintf(r->python, sizeof r->python, "%s", python);
	r->res->limits = p->limits;
	r->acct.clk_tck = sysconf(_SC_CLK_TCK);
	r->src.epfd = r->src.out_fd = r->src.err_fd = r->src.chan_fd = r->src.notify_fd = -1;
	r->src.sample_fd = r->src.deadline_fd = -1;
	r->L.pidfd = r->L.ctl = r->L.work_fd = r->L.proc_fd = r->L.sockmem_fd = -1;
	r->files.keep.root_fd = -1;
	r->out.fwd_fd[0] = r->out.fwd_fd[1] = -1;
	r->prep.on = true;
	r->prep.rel_fd = -1;
	r->chan.cap = (size_t)p->limits.carry_bytes * 2 + 65536;
	r->chan.buf = malloc(r->chan.cap);

	if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(chan_p, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, rel) < 0 || !r->chan.buf) {
		sp_fail_errno(err, "pipes for the program");
		goto fail;
	}
	out_p[1] = sp_fd_move_above(out_p[1], 10);
	err_p[1] = sp_fd_move_above(err_p[1], 10);
	chan_p[1] = sp_fd_move_above(chan_p[1], 10);
	rel[1] = sp_fd_move_above(rel[1], 10);
	if (out_p[1] < 0 || err_p[1] < 0 || chan_p[1] < 0 || rel[1] < 0) {
		sp_fail_errno(err, "pipes for the program: move above fd 10");
		goto fail;
	}

	memset(&spec, 0, sizeof spec);
	spec.python = r->python;
	spec.filename = "main.py";
	spec.limits = p->limits;
	/* RLIMIT_CPU with room for the imports; the release lowers it */
	spec.limits.cpu_ms += SP_PREPARE_CPU_S * 1000u;
	spec.stdin_fd = -1;
	spec.out_w = out_p[1];
	spec.err_w = err_p[1];
	spec.chan_w = chan_p[1];
	spec.rel_fd = rel[1];
	spec.preload = preload;
	spec.mounts.python = r->python;
	n_etc = sp_python_etc_dirs(python, etc_dirs, sizeof etc_dirs / sizeof etc_dirs[0]);
	for (size_t i = 0; i < n_etc; i++)
		etc_ptrs[i] = etc_dirs[i];
	spec.mounts.ro_binds = etc_ptrs;
	spec.mounts.n_ro_binds = n_etc;
	spec.mounts.disk_bytes = p->limits.disk_bytes;
	spec.mounts.code = "";
	spec.mounts.code_len = 0;
	spec.mounts.prelude = sp_prelude_py;
	spec.mounts.prelude_len = sp_prelude_py_len;
	if (sp_prelude_pyc_fits(python)) {
		spec.mounts.prelude_pyc = sp_prelude_pyc;
		spec.mounts.prelude_pyc_len = sp_prelude_pyc_len;
	}
	spec.mounts.filename = "main.py";

	r->start_us = sp_now_us();
	/* before init, as for a run (run.c) */
	r->cg = sp_cgroup_create(&p->limits, r->cg_detail, sizeof r->cg_detail);
	r->layers.filter = sp_run_filter_for(r->cg);
	spec.cgroup_fd = sp_cgroup_fd(r->cg);
	spec.n_cgroup_join = sp_cgroup_join_fds(r->cg, spec.cgroup_join);
	if (sp_launch_start(&spec, &r->L, err) < 0)
		goto fail;
	if (sp_launch_ready(&r->L, r->cg, err) < 0 ||
	    sp_launch_go(&r->L, r->layers.filter |
			 (sp_cgroup_has_pids(r->cg) ? SP_GO_PIDS_CGROUP : 0), err) < 0)
		goto fail;
	close(out_p[1]);
	close(err_p[1]);
	close(chan_p[1]);
	close(rel[1]);
	out_p[1] = err_p[1] = chan_p[1] = rel[1] = -1;
	r->prep.rel_fd = rel[0];
	rel[0] = -1;
	/* the run owns them now, even when taking them fails */
	if (sp_run_take_sources(r, out_p[0], err_p[0], chan_p[0], err) < 0) {
		out_p[0] = err_p[0] = chan_p[0] = -1;
		goto fail;
	}
	out_p[0] = err_p[0] = chan_p[0] = -1;
	/* stdout, stderr and the sampler join at the release */
	if (sp_run_add_fd(r, r->src.chan_fd, SRC_CHAN) < 0 || sp_run_add_fd(r, r->L.ctl, SRC_CTL) < 0 ||
	    sp_run_add_fd(r, r->L.pidfd, SRC_PIDFD) < 0 ||
	    sp_run_add_fd(r, r->src.sample_fd, SRC_SAMPLE) < 0 ||
	    sp_run_add_fd(r, r->src.deadline_fd, SRC_DEADLINE) < 0) {
		sp_fail_errno(err, "epoll: watching the sandbox's channel and timers");
		goto fail;
	}
	arm_at(r->src.deadline_fd, r->start_us + (uint64_t)SP_PREPARE_TIMEOUT_MS * 1000u);
	*out = r;
	return 0;
fail:
	close_pair(out_p);
	close_pair(err_p);
	close_pair(chan_p);
	close_pair(rel);
	r->end.finished = true;
	sp_launch_abort(&r->L);
	sp_cgroup_destroy(r->cg);
	r->cg = NULL;
	sp_run_free(r);
	return -1;
}

bool sp_run_ready(const struct sp_run *r)
{
	return r && r->prep.on && r->prep.ready && !r->prep.released && !r->end.stopping &&
	       !r->end.init_done && !r->end.finished;
}

const char *sp_run_preloaded(const struct sp_run *r)
{
	return r->prep.preloaded;
}

void sp_prepare_on_ready(struct sp_run *r, json_t *msg)
{
	struct qitem it = { .type = SP_EVENT_READY };
	struct itimerspec off = { 0 };
	json_t *pre = json_object_get(msg, "pre"), *v;
	size_t i, at = 0;

	if (!r->prep.on || r->prep.released || r->prep.ready) {
		/* the program's own line: nothing waits for it */
		sp_run_violation(r, SP_VIOL_CARRY, true, 0, "malformed data on the carry channel (ignored)");
		return;
	}
	r->prep.ready = true;
	/* the names as given to the prelude: a dotted identifier each */
	json_array_foreach(pre, i, v) {
		const char *m = json_string_value(v);
		size_t n = m ? strlen(m) : 0;
		if (!module_name_ok(m) || at + n + 3 > sizeof r->prep.preloaded)
			continue;
		if (at) {
			memcpy(r->prep.preloaded + at, ", ", 2);
			at += 2;
		}
		memcpy(r->prep.preloaded + at, m, n);
		at += n;
		r->prep.preloaded[at] = '\0';
	}
	/* ready: it may wait as long as its owner likes */
	timerfd_settime(r->src.deadline_fd, 0, &off, NULL);
	sp_run_push(r, it);
}

bool sp_prepare_deadline(struct sp_run *r)
{
	if (!r->prep.on || r->prep.released)
		return false;
	if (!r->end.stopping && !r->end.init_done && !r->prep.ready) {
		snprintf(r->end.setup_error, sizeof r->end.setup_error,
			 "preparing the sandbox took over %d s (the interpreter and its "
			 "preload did not become ready): start the run cold, or preload less",
			 SP_PREPARE_TIMEOUT_MS / 1000);
		sp_run_stop(r, SP_STATUS_SANDBOX_ERROR);
	}
	return true;
}

void sp_prepare_take_output(struct sp_run *r)
{
	char *t = r->prep.err_head;
	ssize_t n = r->src.err_fd >= 0 ? read(r->src.err_fd, t, sizeof r->prep.err_head - 1) : 0;

	if (n < 0)
		n = 0;
	t[n] = '\0';
	/* the first line, as plain text */
	for (ssize_t i = 0; i < n; i++)
		if ((unsigned char)t[i] < 0x20 || (unsigned char)t[i] >= 0x7f) {
			t[i] = t[i] == '\n' && !t[i + 1] ? '\0' : ' ';
		}
	if (r->src.out_fd >= 0)
		close(r->src.out_fd);
	if (r->src.err_fd >= 0)
		close(r->src.err_fd);
	r->src.out_fd = r->src.err_fd = -1;
}

void sp_prepare_on_finish(struct sp_run *r)
{
	const char *tail = r->prep.err_head;
	const char *how = "it ended";
	int code = 0;

	if (r->end.setup_error[0] || (r->end.stopping && r->end.stop == SP_STATUS_KILLED) ||
	    !r->chan.prelude_started)
		return; /* said already, cancelled by its owner, or the interpreter
			 * never ran the prelude (finish.c says that) */
	if (r->end.have_status && WIFEXITED(r->end.wstatus)) {
		how = "exit";
		code = WEXITSTATUS(r->end.wstatus);
	} else if (r->end.have_status && WIFSIGNALED(r->end.wstatus)) {
		how = "signal";
		code = WTERMSIG(r->end.wstatus);
	}
	snprintf(r->end.setup_error, sizeof r->end.setup_error,
		 "the prepared sandbox ended before its release (%s %d)%s%s; nothing of "
		 "the program ran: start it cold", how, code, tail[0] ? ": " : "", tail);
}

/* Write the carry-in where a cold run has it: /work/carry.json, 0644, the
 * sandbox user's (as sp_in_files_copy makes its copies). */
static int write_carry(int work_fd, const char *text, size_t len, struct sp_error *err)
{
	bool as_root = geteuid() == 0;
	int fd, rc = 0;

	if (as_root) {
		syscall(SYS_setfsgid, SP_ROOT_HOST_GID);
		syscall(SYS_setfsuid, SP_ROOT_HOST_UID);
	}
	fd = openat(work_fd, "carry.json", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0 || fchmod(fd, 0644) < 0 || sp_write_all(fd, text, len) < 0)
		rc = sp_fail_errno(err, "write carry.json into the work dir");
	if (fd >= 0)
		close(fd);
	if (as_root) {
		syscall(SYS_setfsuid, 0);
		syscall(SYS_setfsgid, 0);
	}
	return rc;
}

/* The sandbox's CPU so far, as the samples count it (ms). */
static uint64_t cpu_now_ms(struct sp_run *r)
{
	struct sp_proc_sample ps;

	if (sp_cgroup_has_cpu(r->cg))
		return sp_cgroup_cpu_ms(r->cg);
	if (sp_proc_sample(r->L.proc_fd, r->acct.clk_tck, &ps) == 0)
		return ps.cpu_ms;
	return 0;
}

/*
 * RLIMIT_CPU, the kernel's backstop, counts a process's whole life: set
 * at the preparation with room for the imports, it becomes what the
 * prelude's process used plus what a cold run gets. Lowering a limit
 * needs no privilege over the sandbox but being its user namespace's
 * owner. -1 with err->msg: the backstop would stay too loose.
 */
static int lower_cpu_rlimit(struct sp_run *r, struct sp_error *err)
{
	char path[96], *text, *stat, *p;
	long prog;
	unsigned long long ut = 0, st = 0;
	uint64_t used_s, cpu_s = (r->limits.cpu_ms + 999) / 1000 + 1;
	struct rlimit rl;

	/* init's one child, the interpreter, by its host pid */
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)r->L.pid, (int)r->L.pid);
	text = sp_read_file(path, 4096, NULL);
	if (!text)
		return sp_fail_errno(err, "find the prepared interpreter (%s)", path);
	prog = strtol(text, NULL, 10);
	free(text);
	if (prog <= 0)
		return sp_fail(err, "the prepared sandbox's interpreter is gone");
	snprintf(path, sizeof path, "/proc/%ld/stat", prog);
	stat = sp_read_file(path, 4096, NULL);
	/* after the command's ')': state is field 3, utime 14, stime 15 */
	p = stat ? strrchr(stat, ')') : NULL;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2) {
		free(stat);
		return sp_fail(err, "read the prepared interpreter's CPU time");
	}
	free(stat);
	used_s = (ut + st + (unsigned long long)r->acct.clk_tck - 1) / (unsigned long long)r->acct.clk_tck;
	rl.rlim_cur = (rlim_t)(used_s + cpu_s);
	rl.rlim_max = rl.rlim_cur + 1;
	if (syscall(SYS_prlimit64, (pid_t)prog, RLIMIT_CPU, &rl, NULL) < 0)
		return sp_fail_errno(err, "set the prepared interpreter's CPU limit");
	return 0;
}

/* What the preparation wrote to stdout or stderr is not the program's. */
static void discard(int fd)
{
	char buf[65536];

	while (fd >= 0 && read(fd, buf, sizeof buf) > 0)
		;
}

/* A body bigger than this goes in a sealed memfd: the socket's buffer
 * takes a smaller one whole, so the send never waits on the prelude,
 * whose big allocation may itself wait on this supervisor (a mapping
 * over 1 MiB is a seccomp notification). */
#define INLINE_MAX 65536

static int body_memfd(const char *body, size_t len, struct sp_error *err)
{
	int fd = memfd_create("program", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return sp_fail_errno(err, "release: memfd for the program");
	if (sp_write_all(fd, body, len) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		sp_fail_errno(err, "release: write the program");
		close(fd);
		return -1;
	}
	fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	return fd;
}

static int send_release(struct sp_run *r, const struct sp_config *cfg, const char *filename,
			int stdin_fd, struct sp_error *err)
{
	size_t nf = strlen(filename), nc = cfg->code ? cfg->code_len : 0;
	size_t nk = cfg->carry_in ? cfg->carry_in_len : 0;
	size_t body = nf + nc + nk, total = 32 + body;
	bool inline_body = body <= INLINE_MAX;
	uint64_t head[4] = { nf, nc, nk, (stdin_fd >= 0 ? 1u : 0u) | (inline_body ? 0u : 2u) |
			     (uint64_t)cfg->columns << 16 | (uint64_t)cfg->lines << 32 };
	char *msg = malloc(total);
	int fds[2], nfds = 0, mfd = -1, rc = 0;

	if (!msg)
		return sp_fail(err, "out of memory");
	for (int i = 0; i < 4; i++)
		for (int b = 0; b < 8; b++)
			msg[i * 8 + b] = (char)(head[i] >> (8 * b));
	memcpy(msg + 32, filename, nf);
	if (nc)
		memcpy(msg + 32 + nf, cfg->code, nc);
	if (nk)
		memcpy(msg + 32 + nf + nc, cfg->carry_in, nk);
	if (!inline_body) {
		mfd = body_memfd(msg + 32, body, err);
		if (mfd < 0) {
			free(msg);
			return -1;
		}
		fds[nfds++] = mfd;
		total = 32;
	}
	if (stdin_fd >= 0)
		fds[nfds++] = stdin_fd;
	/* one message: the header, the fds on its first byte, a small body */
	if (sp_send_fds(r->prep.rel_fd, msg, total, fds, nfds) < 0)
		rc = sp_fail_errno(err, "release the prepared sandbox");
	if (mfd >= 0)
		close(mfd);
	free(msg);
	return rc;
}

static int release_run(struct sp_run *r, const struct sp_config *cfg, struct sp_error *err)
{
	const char *python = cfg->python ? cfg->python : "/usr/bin/python3";
	const char *filename = cfg->filename ? cfg->filename : "main.py";
	const char *base = strrchr(filename, '/');
	struct sp_in_file *in_files = NULL;
	int stdin_fd = -1, keep_fd = -1;
	char *keep_path = NULL;

	if (err)
		err->msg[0] = '\0';
	if (base)
		filename = base + 1;
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
	if (cfg->carry_in &&
	    sp_carry_validate(cfg->carry_in, cfg->carry_in_len, cfg->limits.carry_bytes, err) < 0)
		return -1;
	if (cfg->forward && cfg->keep_output)
		return sp_fail(err, "forward and keep_output cannot both be set: "
			       "forward the output, or keep it in the result");
	if (cfg->forward && (cfg->forward_out < 0 || cfg->forward_err < 0))
		return sp_fail(err, "forward needs two open descriptors (forward_out, forward_err)");
	if (sp_in_files_open(cfg, &in_files, err) < 0)
		return -1;
	stdin_fd = sp_run_make_stdin(cfg, err);
	if (stdin_fd == -2) {
		sp_in_files_close(in_files, cfg->n_files_in);
		return -1;
	}
	if (cfg->keep_dir) {
		keep_fd = sp_keep_dir_open(cfg->keep_dir, err);
		keep_path = keep_fd >= 0 ? strdup(cfg->keep_dir) : NULL;
		if (keep_fd < 0 || !keep_path) {
			if (keep_fd >= 0) {
				sp_fail(err, "out of memory");
				close(keep_fd);
			}
			if (stdin_fd >= 0)
				close(stdin_fd);
			sp_in_files_close(in_files, cfg->n_files_in);
			return -1;
		}
	}
	if (lower_cpu_rlimit(r, err) < 0) {
		if (stdin_fd >= 0)
			close(stdin_fd);
		if (keep_fd >= 0)
			close(keep_fd);
		free(keep_path);
		sp_in_files_close(in_files, cfg->n_files_in);
		return -1;
	}

	/* From here the sandbox is this program's: whatever fails, it is
	 * spent (it finishes as sandbox_error, or never starts). */
	r->prep.released = true;
	r->res->prepared = true;
	r->out.keep_output = cfg->keep_output;
	r->out.forward = cfg->forward;
	r->out.fwd_fd[0] = cfg->forward ? cfg->forward_out : -1;
	r->out.fwd_fd[1] = cfg->forward ? cfg->forward_err : -1;
	if (cfg->forward) {
		struct sigaction sa;
		r->out.fwd_guard_sigpipe = sigaction(SIGPIPE, NULL, &sa) < 0 ||
				       sa.sa_handler != SIG_IGN;
	}
	r->files.keep.root_fd = keep_fd;
	r->files.keep_path = keep_path;
	r->files.keep.root_path = keep_path;
	r->files.keep.budget = cfg->limits.disk_bytes;
	if ((cfg->carry_in && write_carry(r->L.work_fd, cfg->carry_in, cfg->carry_in_len, err) < 0) ||
	    sp_run_place_inputs(r, cfg, in_files, err) < 0)
		goto spent;
	sp_in_files_close(in_files, cfg->n_files_in);
	in_files = NULL;
	discard(r->src.out_fd);
	discard(r->src.err_fd);
	r->prep.cpu_base_ms = cpu_now_ms(r);
	r->res->usage.prepare_ms = r->prep.cpu_base_ms;

	/* the program's clock starts now */
	r->start_us = sp_now_us();
	if (sp_run_add_fd(r, r->src.out_fd, SRC_OUT) < 0 ||
	    sp_run_add_fd(r, r->src.err_fd, SRC_ERR) < 0) {
		sp_fail_errno(err, "epoll: watching the program's output");
		goto spent;
	}
	arm_at(r->src.deadline_fd, r->start_us + r->limits.wall_ms * 1000u);
	sp_accounting_arm(r);
	if (send_release(r, cfg, filename, stdin_fd, err) < 0)
		goto spent;
	if (stdin_fd >= 0)
		close(stdin_fd);
	close(r->prep.rel_fd);
	r->prep.rel_fd = -1;
	return 0;
spent:
	if (stdin_fd >= 0)
		close(stdin_fd);
	if (in_files)
		sp_in_files_close(in_files, cfg->n_files_in);
	snprintf(r->end.setup_error, sizeof r->end.setup_error, "%s", err ? err->msg : "release failed");
	sp_run_stop(r, SP_STATUS_SANDBOX_ERROR);
	return 0;
}

int sp_run_release(struct sp_run *r, const struct sp_config *caller, struct sp_error *err)
{
	struct sp_config cfg;

	if (sp_config_take(caller, &cfg, err) < 0)
		return -1;
	return release_run(r, &cfg, err);
}
