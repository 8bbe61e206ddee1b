/*
 * run.c - the run object: start a sandbox, then turn everything it does
 * into events (output chunks, usage samples, violations, finished) that
 * the caller drains without ever blocking.
 *
 * All sources sit in one epoll set whose fd is the caller's one fd:
 * stdout, stderr, the program's channel, the seccomp listener, the control
 * socket, init's pidfd, a sample timer and the wall-deadline timer. Each
 * sp_run_next_event() handles what is ready now (at most one read per
 * source), so memory stays bounded however fast the program floods.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <seccomp.h>
#include <jansson.h>

#include "internal.h"
#include "launch.h"
#include "banned.h"

#define CHUNK (256 * 1024)
#define PIPE_BYTES (1024 * 1024)
#define SAMPLE_MS 50
#define QMAX 64

enum src { SRC_OUT, SRC_ERR, SRC_CHAN, SRC_NOTIFY, SRC_CTL, SRC_PIDFD,
	   SRC_SAMPLE, SRC_DEADLINE };

struct qitem {
	enum sp_event_type type;
	char *data;
	size_t len;
	struct sp_usage usage;
	size_t viol;
};

struct sp_run {
	struct sp_limits limits;
	bool keep_output;
	struct sp_launched L;
	int epfd, out_fd, err_fd, chan_fd, notify_fd, sample_fd, deadline_fd;
	struct sp_cgroup *cg;
	char cg_detail[160];
	uint64_t start_us;
	long clk_tck;

	struct qitem q[QMAX];
	size_t qhead, qlen;
	struct qitem cur;           /* the event last handed out */

	struct sp_result *res;
	struct sp_violations viol;
	bool viol_dirty;
	size_t out_cap, err_cap;

	char *chan_buf;
	size_t chan_len, chan_cap;
	bool chan_skip_line;
	json_t *carry_out;
	int pending_line;
	char pending_ctx[160];
	bool have_pending;
	int exc_line;
	char exc_kind[16];

	bool have_status;
	int wstatus;
	bool init_done;
	bool finished;
	bool finished_sent;
	enum sp_status stop;        /* why the supervisor stopped it, or OK */
	bool stopping;
	bool disk_reported, procs_reported;
	int landlock_abi;
	int seccomp_mode;           /* 0 unknown, 1 errno, 2 notify */
	char setup_error[512];
};

/* ---- queue ---- */

static void push(struct sp_run *r, struct qitem it)
{
	if (r->qlen == QMAX) {  /* never: each pump adds only a few */
		free(it.data);
		return;
	}
	r->q[(r->qhead + r->qlen) % QMAX] = it;
	r->qlen++;
}

static void push_usage(struct sp_run *r)
{
	struct qitem it = { .type = SP_EVENT_USAGE, .usage = r->res->usage };
	push(r, it);
}

static void push_violation(struct sp_run *r, struct sp_violation *v)
{
	struct qitem it = { .type = SP_EVENT_VIOLATION };

	if (!v)
		return;
	it.viol = (size_t)(v - r->viol.v);
	if (v->count == 1)
		push(r, it);
	else
		r->viol_dirty = true; /* repeats are announced with the next sample */
}

static struct sp_violation *violation(struct sp_run *r, enum sp_violation_kind k,
				      bool kernel, int line, const char *fmt, ...)
	SP_PRINTF(5, 6);
static struct sp_violation *violation(struct sp_run *r, enum sp_violation_kind k,
				      bool kernel, int line, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	struct sp_violation *v;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	v = sp_violations_add(&r->viol, k, what, kernel, line);
	push_violation(r, v);
	return v;
}

/* ---- stopping ---- */

static void kill_tree(struct sp_run *r)
{
	if (r->init_done)
		return;
	sp_cgroup_kill(r->cg);
	/* init is pid 1 of the sandbox: when it dies, the kernel kills every
	 * process in the namespace, daemons and setsid'd grandchildren too */
	if (r->L.pidfd >= 0)
		syscall(SYS_pidfd_send_signal, r->L.pidfd, SIGKILL, NULL, 0);
	else
		kill(r->L.pid, SIGKILL);
}

static void stop(struct sp_run *r, enum sp_status why)
{
	if (r->stopping)
		return;
	r->stopping = true;
	r->stop = why;
	kill_tree(r);
}

/* ---- sources ---- */

static uint64_t now_ms(const struct sp_run *r)
{
	return (sp_now_us() - r->start_us) / 1000u;
}

static int append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t ncap = *cap ? *cap : 4096;
		char *bigger;
		while (ncap < *len + n + 1)
			ncap *= 2;
		bigger = realloc(*buf, ncap);
		if (!bigger)
			return -1;
		*buf = bigger;
		*cap = ncap;
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

static void read_output(struct sp_run *r, int *fdp, bool is_err)
{
	char *buf = malloc(CHUNK);
	ssize_t n;
	uint64_t room;
	struct qitem it = { .type = is_err ? SP_EVENT_STDERR : SP_EVENT_STDOUT };

	if (!buf)
		return;
	n = read(*fdp, buf, CHUNK);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		free(buf);
		return;
	}
	if (n <= 0) {
		epoll_ctl(r->epfd, EPOLL_CTL_DEL, *fdp, NULL);
		close(*fdp);
		*fdp = -1;
		free(buf);
		return;
	}
	room = r->limits.output_bytes - r->res->usage.output_bytes;
	if ((uint64_t)n > room) {
		n = (ssize_t)room;
		r->res->truncated = true;
		if (!r->stopping)
			violation(r, SP_VIOL_OUTPUT, true, 0,
				  "output over %llu bytes", (unsigned long long)r->limits.output_bytes);
		stop(r, SP_STATUS_OUTPUT_LIMIT);
	}
	if (n == 0) {
		free(buf);
		return;
	}
	r->res->usage.output_bytes += (uint64_t)n;
	if (r->keep_output) {
		if (is_err)
			append(&r->res->err, &r->res->err_len, &r->err_cap, buf, (size_t)n);
		else
			append(&r->res->out, &r->res->out_len, &r->out_cap, buf, (size_t)n);
	}
	it.data = buf;
	it.len = (size_t)n;
	push(r, it);
}

static enum sp_violation_kind kind_from(const char *k)
{
	static const struct { const char *n; enum sp_violation_kind k; } t[] = {
		{ "network", SP_VIOL_NETWORK }, { "filesystem", SP_VIOL_FILESYSTEM },
		{ "process", SP_VIOL_PROCESS }, { "syscall", SP_VIOL_SYSCALL },
		{ "memory", SP_VIOL_MEMORY }, { "disk", SP_VIOL_DISK },
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (k && strcmp(k, t[i].n) == 0)
			return t[i].k;
	return SP_VIOL_SYSCALL;
}

static void carry_update(struct sp_run *r, json_t *values)
{
	json_t *merged;
	char *text;
	size_t len;

	if (!json_is_object(values)) {
		violation(r, SP_VIOL_CARRY, true, 0, "carry-out message is not an object");
		return;
	}
	merged = r->carry_out ? json_deep_copy(r->carry_out) : json_object();
	{
		const char *key;
		json_t *val;
		json_object_foreach(values, key, val) {
			const char *why = sp_carry_name_problem(key);
			if (why) {
				/* the next run could not take it: drop it now, visibly */
				violation(r, SP_VIOL_CARRY, true, 0,
					  "carry name \"%.80s\" %s (dropped)", key, why);
				continue;
			}
			json_object_set(merged, key, val);
		}
	}
	text = json_dumps(merged, JSON_COMPACT | JSON_ENSURE_ASCII);
	len = text ? strlen(text) : 0;
	free(text);
	if (len > r->limits.carry_bytes) {
		violation(r, SP_VIOL_CARRY, true, 0,
			  "carry-out over %llu bytes; this carry() call was dropped",
			  (unsigned long long)r->limits.carry_bytes);
		json_decref(merged);
		return;
	}
	json_decref(r->carry_out);
	r->carry_out = merged;
}

static void chan_line(struct sp_run *r, const char *line, size_t len)
{
	json_error_t jerr;
	json_t *msg = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	const char *t;
	json_t *jl;
	int ln;

	if (!msg || !json_is_object(msg)) {
		violation(r, SP_VIOL_CARRY, true, 0,
			  "malformed data on the carry channel (ignored)");
		json_decref(msg);
		return;
	}
	t = json_string_value(json_object_get(msg, "t"));
	jl = json_object_get(msg, "line");
	ln = json_is_integer(jl) ? (int)json_integer_value(jl) : 0;
	if (!t) {
		violation(r, SP_VIOL_CARRY, true, 0, "malformed data on the carry channel (ignored)");
	} else if (strcmp(t, "carry") == 0) {
		carry_update(r, json_object_get(msg, "v"));
	} else if (strcmp(t, "at") == 0) {
		const char *ctx = json_string_value(json_object_get(msg, "ctx"));
		r->have_pending = true;
		r->pending_line = ln;
		snprintf(r->pending_ctx, sizeof r->pending_ctx, "%s", ctx ? ctx : "");
	} else if (strcmp(t, "ev") == 0) {
		const char *what = json_string_value(json_object_get(msg, "what"));
		const char *k = json_string_value(json_object_get(msg, "k"));
		if (what)
			violation(r, kind_from(k), false, ln, "%.300s", what);
	} else if (strcmp(t, "exc") == 0) {
		const char *k = json_string_value(json_object_get(msg, "k"));
		snprintf(r->exc_kind, sizeof r->exc_kind, "%s", k ? k : "");
		r->exc_line = ln;
	} else {
		violation(r, SP_VIOL_CARRY, true, 0, "malformed data on the carry channel (ignored)");
	}
	json_decref(msg);
}

static void read_chan(struct sp_run *r)
{
	char buf[65536]; /* channel messages are small */
	ssize_t n = read(r->chan_fd, buf, sizeof buf);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		epoll_ctl(r->epfd, EPOLL_CTL_DEL, r->chan_fd, NULL);
		close(r->chan_fd);
		r->chan_fd = -1;
		return;
	}
	for (ssize_t i = 0; i < n;) {
		char *nl = memchr(buf + i, '\n', (size_t)(n - i));
		size_t take = nl ? (size_t)(nl - (buf + i)) : (size_t)(n - i);

		if (r->chan_skip_line) {
			/* the rest of an over-long line: drop it */
		} else if (r->chan_len + take > r->chan_cap) {
			violation(r, SP_VIOL_CARRY, true, 0,
				  "a message on the carry channel over %zu bytes (dropped)",
				  r->chan_cap);
			r->chan_skip_line = true;
			r->chan_len = 0;
		} else {
			memcpy(r->chan_buf + r->chan_len, buf + i, take);
			r->chan_len += take;
		}
		i += (ssize_t)take;
		if (nl) {
			if (!r->chan_skip_line && r->chan_len > 0)
				chan_line(r, r->chan_buf, r->chan_len);
			r->chan_len = 0;
			r->chan_skip_line = false;
			i++;
		}
	}
}

static void drain_chan(struct sp_run *r)
{
	for (int i = 0; i < 16 && r->chan_fd >= 0; i++) {
		int avail = 0;
		if (ioctl(r->chan_fd, FIONREAD, &avail) < 0 || avail <= 0)
			break;
		read_chan(r);
	}
}

static void handle_notify(struct sp_run *r)
{
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	struct sp_syscall_verdict v;
	int line = 0;
	char ctx[160] = "";

	if (seccomp_notify_alloc(&req, &resp) < 0)
		return;
	if (seccomp_notify_receive(r->notify_fd, req) < 0) {
		/* the caller died meanwhile, or the listener is gone */
		if (errno != ENOENT && errno != EINTR) {
			epoll_ctl(r->epfd, EPOLL_CTL_DEL, r->notify_fd, NULL);
			close(r->notify_fd);
			r->notify_fd = -1;
		}
		seccomp_notify_free(req, resp);
		return;
	}
	/* the prelude said which line this comes from just before the call */
	drain_chan(r);
	if (r->have_pending) {
		line = r->pending_line;
		snprintf(ctx, sizeof ctx, "%s", r->pending_ctx);
		r->have_pending = false;
	}
	memset(&v, 0, sizeof v);
	sp_seccomp_describe((int)req->pid, req, &v);
	resp->id = req->id;
	resp->error = -v.error;
	resp->val = 0;
	resp->flags = 0;
	seccomp_notify_respond(r->notify_fd, resp);
	if (!line && !ctx[0]) {
		/* no hint (e.g. a cached ctypes function): the same call was
		 * most likely made from the place it was seen before */
		for (size_t i = 0; i < r->viol.n; i++)
			if (r->viol.v[i].kind == v.kind && r->viol.v[i].from_kernel &&
			    r->viol.v[i].line > 0 && strcmp(r->viol.v[i].what, v.what) == 0) {
				line = r->viol.v[i].line;
				break;
			}
	}
	if (ctx[0])
		violation(r, v.kind, true, line, "%s: %s", ctx, v.what);
	else
		violation(r, v.kind, true, line, "%s", v.what);
	seccomp_notify_free(req, resp);
}

static void add_fd(struct sp_run *r, int fd, enum src s)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = s };
	epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev);
}

static void handle_ctl(struct sp_run *r)
{
	char msg[600];
	int fd = -1, nfd = 1;
	ssize_t n = sp_recv_fds(r->L.ctl, msg, sizeof msg - 1, &fd, &nfd);

	if (n < 0 && errno == EAGAIN)
		return;
	if (n <= 0) {
		epoll_ctl(r->epfd, EPOLL_CTL_DEL, r->L.ctl, NULL);
		return;
	}
	msg[n] = '\0';
	switch (msg[0]) {
	case 'N':
		r->landlock_abi = n > 1 ? (unsigned char)msg[1] : 0;
		r->seccomp_mode = n > 2 && msg[2] ? 2 : 1;
		if (nfd == 1 && fd >= 0) {
			r->notify_fd = fd;
			add_fd(r, fd, SRC_NOTIFY);
		}
		return;
	case 'E':
		snprintf(r->setup_error, sizeof r->setup_error, "%s", msg + 1);
		break;
	case 'X':
		if (n >= (ssize_t)(1 + sizeof(int))) {
			memcpy(&r->wstatus, msg + 1, sizeof(int));
			r->have_status = true;
		}
		break;
	}
	if (fd >= 0)
		close(fd);
}

/* ---- accounting ---- */

static void sample(struct sp_run *r)
{
	struct sp_usage *u = &r->res->usage;
	struct sp_proc_sample ps;
	bool have_proc = sp_proc_sample(r->L.proc_fd, r->clk_tck, &ps) == 0;

	u->wall_ms = now_ms(r);
	if (sp_cgroup_has_cpu(r->cg))
		u->cpu_ms = sp_cgroup_cpu_ms(r->cg);
	else if (have_proc && ps.cpu_ms > u->cpu_ms)
		u->cpu_ms = ps.cpu_ms;
	if (sp_cgroup_has_memory(r->cg)) {
		uint64_t peak = sp_cgroup_memory_peak(r->cg);
		u->memory_bytes = sp_cgroup_memory(r->cg);
		if (peak > u->peak_memory_bytes)
			u->peak_memory_bytes = peak;
	} else if (have_proc) {
		u->memory_bytes = ps.rss_bytes;
	}
	if (u->memory_bytes > u->peak_memory_bytes)
		u->peak_memory_bytes = u->memory_bytes;
	u->procs = sp_cgroup_has_pids(r->cg) ? sp_cgroup_procs(r->cg)
					      : (have_proc ? ps.procs : 0);
	if (u->procs > u->procs_peak)
		u->procs_peak = u->procs;
	u->disk_bytes = sp_workdir_bytes(r->L.work_fd);

	if (r->stopping || r->init_done)
		return;
	if (u->cpu_ms >= r->limits.cpu_ms) {
		violation(r, SP_VIOL_CPU, true, 0, "CPU time %llu ms of %llu ms",
			  (unsigned long long)u->cpu_ms, (unsigned long long)r->limits.cpu_ms);
		stop(r, SP_STATUS_CPU_LIMIT);
	} else if (!sp_cgroup_has_memory(r->cg) &&
		   u->memory_bytes > r->limits.memory_bytes) {
		violation(r, SP_VIOL_MEMORY, true, 0, "memory %llu bytes of %llu",
			  (unsigned long long)u->memory_bytes,
			  (unsigned long long)r->limits.memory_bytes);
		stop(r, SP_STATUS_MEMORY_LIMIT);
	}
	if (!r->disk_reported && r->limits.disk_bytes > 65536 &&
	    u->disk_bytes + 65536 >= r->limits.disk_bytes) {
		r->disk_reported = true;
		violation(r, SP_VIOL_DISK, true, 0, "work dir full: %llu of %llu bytes",
			  (unsigned long long)u->disk_bytes,
			  (unsigned long long)r->limits.disk_bytes);
	}
	if (!r->procs_reported && r->limits.procs > 1 &&
	    (sp_cgroup_pids_hit(r->cg) || u->procs + 1 >= r->limits.procs)) {
		r->procs_reported = true;
		violation(r, SP_VIOL_PROCESS, true, 0, "processes and threads at the limit of %u",
			  r->limits.procs);
	}
}

/* The next sample comes sooner when the CPU limit is near, so a CPU-bound
 * run stops within a few ms of it (the tree can burn ncpu ms per ms). */
static void arm_sample(struct sp_run *r)
{
	uint64_t ms = SAMPLE_MS, left;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct itimerspec its = { 0 };

	if (r->res->usage.cpu_ms < r->limits.cpu_ms) {
		left = (r->limits.cpu_ms - r->res->usage.cpu_ms) / (uint64_t)(ncpu > 0 ? ncpu : 1);
		if (left < ms)
			ms = left < 2 ? 2 : left;
	}
	its.it_value.tv_sec = (time_t)(ms / 1000);
	its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
	timerfd_settime(r->sample_fd, 0, &its, NULL);
}

/* ---- finishing ---- */

/* A record already made for kind (e.g. by a live sample), or NULL. */
static struct sp_violation *find_kind(struct sp_run *r, enum sp_violation_kind k)
{
	for (size_t i = 0; i < r->viol.n; i++)
		if (r->viol.v[i].kind == k)
			return &r->viol.v[i];
	return NULL;
}

/*
 * Disk and process limits do not stop a run, so a short program can hit
 * one between two samples: check them once more at the end. One cause
 * gives one record; the prelude's uncaught-exception report lends it the
 * line.
 */
static void limit_records_at_end(struct sp_run *r)
{
	struct sp_result *res = r->res;
	struct sp_violation *v;
	bool exc_disk = strcmp(r->exc_kind, "disk") == 0;
	bool exc_proc = strcmp(r->exc_kind, "process") == 0;
	int line = r->exc_line > 0 ? r->exc_line : 0;

	if (!r->disk_reported) {
		for (size_t i = 0; i < res->n_files && !r->disk_reported; i++)
			if (res->files[i].bytes >= r->limits.disk_bytes) {
				r->disk_reported = true;
				violation(r, SP_VIOL_DISK, true, exc_disk ? line : 0,
					  "file %s reached the size limit of %llu bytes",
					  res->files[i].path,
					  (unsigned long long)r->limits.disk_bytes);
			}
	}
	if (!r->disk_reported && (exc_disk || (r->limits.disk_bytes > 65536 &&
			res->usage.disk_bytes + 65536 >= r->limits.disk_bytes))) {
		r->disk_reported = true;
		violation(r, SP_VIOL_DISK, true, exc_disk ? line : 0,
			  "work dir full: %llu of %llu bytes",
			  (unsigned long long)res->usage.disk_bytes,
			  (unsigned long long)r->limits.disk_bytes);
	} else if (exc_disk && (v = find_kind(r, SP_VIOL_DISK)) && !v->line) {
		v->line = line;
	}
	if (!r->procs_reported &&
	    (exc_proc || sp_cgroup_pids_hit(r->cg) ||
	     (r->limits.procs > 1 && res->usage.procs_peak + 1 >= r->limits.procs))) {
		r->procs_reported = true;
		violation(r, SP_VIOL_PROCESS, true, exc_proc ? line : 0,
			  "processes and threads at the limit of %u", r->limits.procs);
	} else if (exc_proc && (v = find_kind(r, SP_VIOL_PROCESS)) && !v->line) {
		v->line = line;
	}
}

static void finish(struct sp_run *r)
{
	struct sp_result *res = r->res;
	struct rusage ru;
	int st = 0;
	siginfo_t si;

	/* every writer is dead now: take what is left in the pipes */
	for (int i = 0; i < 64 && r->out_fd >= 0; i++)
		read_output(r, &r->out_fd, false);
	for (int i = 0; i < 64 && r->err_fd >= 0; i++)
		read_output(r, &r->err_fd, true);
	while (r->chan_fd >= 0)
		read_chan(r);
	for (int i = 0; i < 16; i++) {
		char peek;
		if (recv(r->L.ctl, &peek, 1, MSG_PEEK | MSG_DONTWAIT) <= 0)
			break;
		handle_ctl(r);
	}
	sample(r);
	memset(&ru, 0, sizeof ru);
	memset(&si, 0, sizeof si);
	if (wait4(r->L.pid, &st, 0, &ru) == r->L.pid) {
		uint64_t cpu = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000u +
			       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000u;
		if (!sp_cgroup_has_cpu(r->cg) && cpu > res->usage.cpu_ms)
			res->usage.cpu_ms = cpu;
		if (!sp_cgroup_has_memory(r->cg) &&
		    (uint64_t)ru.ru_maxrss * 1024u > res->usage.peak_memory_bytes)
			res->usage.peak_memory_bytes = (uint64_t)ru.ru_maxrss * 1024u;
	}
	res->usage.wall_ms = now_ms(r);
	if (sp_cgroup_has_memory(r->cg)) {
		uint64_t peak = sp_cgroup_memory_peak(r->cg);
		if (peak > res->usage.peak_memory_bytes)
			res->usage.peak_memory_bytes = peak;
		res->peak_memory_source = "cgroup";
	} else {
		res->peak_memory_source = "rss_samples";
	}
	res->usage.disk_bytes = sp_workdir_bytes(r->L.work_fd);
	sp_workdir_list(r->L.work_fd, &res->files, &res->n_files, 1000);

	/* Decide the status: the supervisor's own stop reason first, then what
	 * the kernel did, then how the program ended. */
	if (r->have_status) {
		int w = r->wstatus;
		res->exit_code = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
		res->signal = WIFSIGNALED(w) ? WTERMSIG(w) : 0;
	} else {
		res->exit_code = -1;
		res->signal = r->stopping ? SIGKILL : 0;
	}
	if (r->setup_error[0]) {
		res->status = SP_STATUS_SANDBOX_ERROR;
		snprintf(res->error, sizeof res->error, "%s", r->setup_error);
	} else if (r->stopping) {
		res->status = r->stop;
	} else if (r->cg && sp_cgroup_oom_killed(r->cg)) {
		res->status = SP_STATUS_MEMORY_LIMIT;
		violation(r, SP_VIOL_MEMORY, true, 0, "out of memory: the limit is %llu bytes",
			  (unsigned long long)r->limits.memory_bytes);
	} else if (res->signal == SIGXCPU ||
		   (res->signal == SIGKILL && res->usage.cpu_ms + 1000 >= r->limits.cpu_ms)) {
		res->status = SP_STATUS_CPU_LIMIT;
		violation(r, SP_VIOL_CPU, true, 0, "CPU time %llu ms of %llu ms",
			  (unsigned long long)res->usage.cpu_ms,
			  (unsigned long long)r->limits.cpu_ms);
	} else if (!r->have_status) {
		res->status = SP_STATUS_SANDBOX_ERROR;
		snprintf(res->error, sizeof res->error,
			 "the sandbox's init ended without reporting the program's status");
	} else if (strcmp(r->exc_kind, "memory") == 0) {
		res->status = SP_STATUS_MEMORY_LIMIT;
		violation(r, SP_VIOL_MEMORY, true, r->exc_line,
			  "allocation over the memory limit of %llu bytes (MemoryError)",
			  (unsigned long long)r->limits.memory_bytes);
	} else if (res->exit_code == 0) {
		res->status = SP_STATUS_OK;
	} else {
		res->status = SP_STATUS_ERROR;
	}
	limit_records_at_end(r);
	if (r->carry_out)
		res->carry_out = json_dumps(r->carry_out, JSON_COMPACT);

	sp_layer_set(res, "user_namespace", true, "uid %d -> host %s", SP_SANDBOX_UID,
		     geteuid() == 0 ? "65534" : "self");
	sp_layer_set(res, "pid_namespace", true, "init is pid 1");
	sp_layer_set(res, "mount_namespace", true, "pivot_root to a fresh read-only root");
	sp_layer_set(res, "network_namespace", true, "empty: loopback only, down");
	sp_layer_set(res, "ipc_namespace", true, "private");
	sp_layer_set(res, "uts_namespace", true, "hostname sandpit");
	sp_layer_set(res, "seccomp", r->seccomp_mode > 0, "%s",
		     r->seccomp_mode == 2 ? "deny list, user notification" :
		     r->seccomp_mode == 1 ? "deny list, errno only" : "not reached");
	if (r->landlock_abi > 0)
		sp_layer_set(res, "landlock", true, "ABI %d", r->landlock_abi);
	else
		sp_layer_set(res, "landlock", false, "the kernel has no Landlock");
	sp_layer_set(res, "capabilities", true, "all dropped, bounding and ambient too");
	sp_layer_set(res, "no_new_privs", true, "set");
	sp_layer_set(res, "cgroup", r->cg != NULL, "%s", r->cg_detail);
	sp_layer_set(res, "rlimits", true, "cpu, data, fsize, nproc, core");
	sp_layer_set(res, "workdir_tmpfs", true, "%llu bytes",
		     (unsigned long long)r->limits.disk_bytes);

	res->violations = r->viol.v;
	res->n_violations = r->viol.n;
	sp_cgroup_destroy(r->cg);
	r->cg = NULL;
	r->finished = true;
	(void)si;
}

/* ---- public ---- */

static void pump(struct sp_run *r)
{
	struct epoll_event evs[8];
	int n;

	if (r->finished)
		return;
	n = epoll_wait(r->epfd, evs, 8, 0);
	for (int i = 0; i < n; i++) {
		uint64_t ticks;
		switch ((enum src)evs[i].data.u32) {
		case SRC_OUT: if (r->out_fd >= 0) read_output(r, &r->out_fd, false); break;
		case SRC_ERR: if (r->err_fd >= 0) read_output(r, &r->err_fd, true); break;
		case SRC_CHAN: if (r->chan_fd >= 0) read_chan(r); break;
		case SRC_NOTIFY:
			if (r->notify_fd < 0)
				break;
			if (evs[i].events & (EPOLLHUP | EPOLLERR)) {
				/* every filtered task is gone: nothing more can come,
				 * and a hung-up fd would spin the loop */
				epoll_ctl(r->epfd, EPOLL_CTL_DEL, r->notify_fd, NULL);
				close(r->notify_fd);
				r->notify_fd = -1;
				break;
			}
			handle_notify(r);
			break;
		case SRC_CTL: handle_ctl(r); break;
		case SRC_PIDFD:
			r->init_done = true;
			break;
		case SRC_SAMPLE:
			if (read(r->sample_fd, &ticks, sizeof ticks) < 0) { /* cleared either way */ }
			sample(r);
			push_usage(r);
			if (r->viol_dirty) {
				/* announce repeats: the last record that grew */
				r->viol_dirty = false;
				for (size_t k = 0; k < r->viol.n; k++)
					if (r->viol.v[k].count > 1) {
						struct qitem it = { .type = SP_EVENT_VIOLATION, .viol = k };
						push(r, it);
						break;
					}
			}
			arm_sample(r);
			break;
		case SRC_DEADLINE:
			if (read(r->deadline_fd, &ticks, sizeof ticks) < 0) { /* cleared */ }
			if (!r->stopping && !r->init_done) {
				violation(r, SP_VIOL_WALL, true, 0, "wall-clock time over %llu ms",
					  (unsigned long long)r->limits.wall_ms);
				stop(r, SP_STATUS_WALL_LIMIT);
			}
			break;
		}
	}
	if (r->init_done && !r->finished) {
		struct qitem it = { .type = SP_EVENT_FINISHED };
		finish(r);
		push(r, it);
	}
}

int sp_run_next_event(struct sp_run *r, struct sp_event *ev)
{
	free(r->cur.data);
	memset(&r->cur, 0, sizeof r->cur);
	if (r->finished_sent)
		return 0;
	if (r->qlen == 0)
		pump(r);
	if (r->qlen == 0)
		return 0;
	r->cur = r->q[r->qhead];
	r->qhead = (r->qhead + 1) % QMAX;
	r->qlen--;
	memset(ev, 0, sizeof *ev);
	ev->type = r->cur.type;
	switch (r->cur.type) {
	case SP_EVENT_STDOUT:
	case SP_EVENT_STDERR:
		ev->data = r->cur.data;
		ev->len = r->cur.len;
		break;
	case SP_EVENT_USAGE:
		ev->usage = &r->cur.usage;
		break;
	case SP_EVENT_VIOLATION:
		ev->violation = &r->viol.v[r->cur.viol];
		break;
	case SP_EVENT_FINISHED:
		ev->result = r->res;
		r->finished_sent = true;
		break;
	}
	return 1;
}

int sp_run_fd(const struct sp_run *r) { return r->epfd; }

int sp_run_timeout_ms(const struct sp_run *r)
{
	if (r->qlen > 0 || (r->finished && !r->finished_sent))
		return 0;
	return r->finished_sent ? -1 : 1000;
}

bool sp_run_finished(const struct sp_run *r) { return r->finished_sent; }

const struct sp_result *sp_run_result(const struct sp_run *r)
{
	return r->finished ? r->res : NULL;
}

void sp_run_cancel(struct sp_run *r)
{
	if (!r->finished)
		stop(r, SP_STATUS_KILLED);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void sp_run_free(struct sp_run *r)
{
	if (!r)
		return;
	if (!r->finished) {
		stop(r, SP_STATUS_KILLED);
		waitpid(r->L.pid, NULL, 0);
		r->init_done = true;
	}
	for (size_t i = 0; i < r->qlen; i++)
		free(r->q[(r->qhead + i) % QMAX].data);
	free(r->cur.data);
	close_fd(&r->out_fd);
	close_fd(&r->err_fd);
	close_fd(&r->chan_fd);
	close_fd(&r->notify_fd);
	close_fd(&r->sample_fd);
	close_fd(&r->deadline_fd);
	close_fd(&r->epfd);
	close_fd(&r->L.ctl);
	close_fd(&r->L.pidfd);
	close_fd(&r->L.work_fd);
	close_fd(&r->L.proc_fd);
	sp_cgroup_destroy(r->cg);
	json_decref(r->carry_out);
	free(r->chan_buf);
	if (r->res) {
		r->res->violations = NULL;
		r->res->n_violations = 0;
		sp_result_free(r->res);
	}
	sp_violations_free(&r->viol);
	free(r);
}

static int check_python(const char *python, struct sp_error *err)
{
	struct stat st;

	if (python[0] != '/')
		return sp_fail(err, "the interpreter must be an absolute path: %s", python);
	if (stat(python, &st) < 0)
		return sp_fail_errno(err, "no interpreter at %s", python);
	if (!S_ISREG(st.st_mode) || access(python, X_OK) < 0)
		return sp_fail(err, "%s is not an executable file", python);
	return 0;
}

static int make_stdin(const struct sp_config *cfg, struct sp_error *err)
{
	int fd;

	if (!cfg->stdin_data)
		return -1;
	/* an anonymous sealed file: no host path the program could reopen */
	fd = memfd_create("stdin", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return sp_fail_errno(err, "stdin: memfd"), -2;
	if (sp_write_all(fd, cfg->stdin_data, cfg->stdin_len) < 0 ||
	    lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return sp_fail_errno(err, "stdin: write"), -2;
	}
	fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	return fd;
}

int sp_run_start(const struct sp_config *cfg, struct sp_run **out,
		 struct sp_error *err)
{
	struct sp_run *r;
	struct sp_launch_spec spec;
	const char *python = cfg->python ? cfg->python : "/usr/bin/python3";
	const char *filename = cfg->filename ? cfg->filename : "main.py";
	const char *base = strrchr(filename, '/');
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, chan_p[2] = { -1, -1 };
	int stdin_fd;
	struct itimerspec its = { 0 };

	*out = NULL;
	if (err)
		err->msg[0] = '\0';
	if (base)
		filename = base + 1;
	if (check_python(python, err) < 0)
		return -1;
	if (cfg->carry_in &&
	    sp_carry_validate(cfg->carry_in, cfg->carry_in_len,
			      cfg->limits.carry_bytes, err) < 0)
		return -1;
	if (cfg->limits.output_bytes == 0 || cfg->limits.wall_ms == 0 ||
	    cfg->limits.cpu_ms == 0 || cfg->limits.memory_bytes < (16u << 20) ||
	    cfg->limits.procs == 0)
		return sp_fail(err, "limits too small: cpu and wall must be > 0, memory at "
			       "least 16M, output and procs at least 1");
	stdin_fd = make_stdin(cfg, err);
	if (stdin_fd == -2)
		return -1;

	r = calloc(1, sizeof *r);
	if (!r || !(r->res = calloc(1, sizeof *r->res))) {
		free(r);
		if (stdin_fd >= 0)
			close(stdin_fd);
		return sp_fail(err, "out of memory");
	}
	r->limits = cfg->limits;
	r->keep_output = cfg->keep_output;
	r->res->limits = cfg->limits;
	r->clk_tck = sysconf(_SC_CLK_TCK);
	r->epfd = r->out_fd = r->err_fd = r->chan_fd = r->notify_fd = -1;
	r->sample_fd = r->deadline_fd = -1;
	r->L.pidfd = r->L.ctl = r->L.work_fd = r->L.proc_fd = -1;
	r->chan_cap = (size_t)cfg->limits.carry_bytes * 2 + 65536;
	r->chan_buf = malloc(r->chan_cap);

	if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(chan_p, O_CLOEXEC) < 0 || !r->chan_buf) {
		sp_fail_errno(err, "pipes for the program");
		goto fail;
	}
	/* the program's ends must not land on 0-3, where dup2 puts them */
	out_p[1] = sp_fd_move_above(out_p[1], 10);
	err_p[1] = sp_fd_move_above(err_p[1], 10);
	chan_p[1] = sp_fd_move_above(chan_p[1], 10);
	if (stdin_fd >= 0)
		stdin_fd = sp_fd_move_above(stdin_fd, 10);

	memset(&spec, 0, sizeof spec);
	spec.python = python;
	spec.filename = filename;
	spec.limits = cfg->limits;
	spec.stdin_fd = stdin_fd;
	spec.out_w = out_p[1];
	spec.err_w = err_p[1];
	spec.chan_w = chan_p[1];
	spec.mounts.python = python;
	spec.mounts.disk_bytes = cfg->limits.disk_bytes;
	spec.mounts.code = cfg->code ? cfg->code : "";
	spec.mounts.code_len = cfg->code ? cfg->code_len : 0;
	spec.mounts.prelude = sp_prelude_py;
	spec.mounts.prelude_len = sp_prelude_py_len;
	spec.mounts.carry_in = cfg->carry_in;
	spec.mounts.carry_in_len = cfg->carry_in_len;
	spec.mounts.filename = filename;

	r->cg = sp_cgroup_create(&cfg->limits, r->cg_detail, sizeof r->cg_detail);
	r->start_us = sp_now_us();
	if (sp_launch(&spec, r->cg, &r->L, err) < 0)
		goto fail;
	close(out_p[1]);
	close(err_p[1]);
	close(chan_p[1]);
	out_p[1] = err_p[1] = chan_p[1] = -1;
	if (stdin_fd >= 0)
		close(stdin_fd);
	stdin_fd = -1;
	r->out_fd = out_p[0];
	r->err_fd = err_p[0];
	r->chan_fd = chan_p[0];
	/* bigger pipes: fewer wake-ups when a program writes a lot */
	fcntl(r->out_fd, F_SETPIPE_SZ, PIPE_BYTES);
	fcntl(r->err_fd, F_SETPIPE_SZ, PIPE_BYTES);
	fcntl(r->out_fd, F_SETFL, O_NONBLOCK);
	fcntl(r->err_fd, F_SETFL, O_NONBLOCK);
	fcntl(r->chan_fd, F_SETFL, O_NONBLOCK);
	fcntl(r->L.ctl, F_SETFL, O_NONBLOCK);

	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	r->sample_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	r->deadline_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (r->epfd < 0 || r->sample_fd < 0 || r->deadline_fd < 0) {
		sp_fail_errno(err, "epoll and timers");
		goto fail;
	}
	add_fd(r, r->out_fd, SRC_OUT);
	add_fd(r, r->err_fd, SRC_ERR);
	add_fd(r, r->chan_fd, SRC_CHAN);
	add_fd(r, r->L.ctl, SRC_CTL);
	add_fd(r, r->L.pidfd, SRC_PIDFD);
	add_fd(r, r->sample_fd, SRC_SAMPLE);
	add_fd(r, r->deadline_fd, SRC_DEADLINE);
	its.it_value.tv_sec = (time_t)(cfg->limits.wall_ms / 1000);
	its.it_value.tv_nsec = (long)(cfg->limits.wall_ms % 1000) * 1000000L;
	{
		/* the deadline counts from the start of the sandbox, not now */
		struct itimerspec abs = { 0 };
		uint64_t at_us = r->start_us + cfg->limits.wall_ms * 1000u;
		abs.it_value.tv_sec = (time_t)(at_us / 1000000u);
		abs.it_value.tv_nsec = (long)(at_us % 1000000u) * 1000L;
		timerfd_settime(r->deadline_fd, TFD_TIMER_ABSTIME, &abs, NULL);
	}
	(void)its;
	arm_sample(r);
	*out = r;
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (out_p[i] >= 0) close(out_p[i]);
		if (err_p[i] >= 0) close(err_p[i]);
		if (chan_p[i] >= 0) close(chan_p[i]);
	}
	if (stdin_fd >= 0)
		close(stdin_fd);
	r->finished = true;
	r->L.pid = 0;
	sp_cgroup_destroy(r->cg);
	r->cg = NULL;
	sp_run_free(r);
	return -1;
}

int sp_run_blocking(const struct sp_config *cfg, struct sp_result **out,
		    struct sp_error *err)
{
	struct sp_run *r;
	struct sp_event ev;

	*out = NULL;
	if (sp_run_start(cfg, &r, err) < 0)
		return -1;
	while (!sp_run_finished(r)) {
		struct pollfd pfd = { .fd = sp_run_fd(r), .events = POLLIN };
		int t = sp_run_timeout_ms(r);
		if (t != 0)
			poll(&pfd, 1, t);
		while (sp_run_next_event(r, &ev) > 0) {
		}
	}
	/* hand the result over: the run gives up ownership */
	*out = r->res;
	r->res->violations = r->viol.v;
	r->res->n_violations = r->viol.n;
	memset(&r->viol, 0, sizeof r->viol);
	r->res = NULL;
	sp_run_free(r);
	return 0;
}

void sp_result_free(struct sp_result *res)
{
	if (!res)
		return;
	free(res->out);
	free(res->err);
	for (size_t i = 0; i < res->n_violations; i++) {
		free(res->violations[i].what);
		free(res->violations[i].message);
	}
	free(res->violations);
	for (size_t i = 0; i < res->n_files; i++)
		free(res->files[i].path);
	free(res->files);
	free(res->carry_out);
	free(res);
}
