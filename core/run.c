/* SPDX-License-Identifier: MIT */
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
 *
 * This file: the public API, the event queue, the pump, and the sources
 * that need no interpretation. The output, the channel, the accounting
 * and the end of a run have their own files (see run_impl.h).
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
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <seccomp.h>
#include <jansson.h>

#include "control.h"
#include "run_impl.h"
#include "buf.h"
#include "banned.h"

/* ---- queue ---- */

/* Makes room for one more event; false only when out of memory. */
static bool queue_reserve(struct sp_run *r)
{
	size_t ncap;
	struct qitem *nq;

	if (r->queue.qlen < r->queue.qcap)
		return true;
	ncap = r->queue.qcap ? r->queue.qcap * 2 : 64;
	nq = malloc(ncap * sizeof *nq);
	if (!nq)
		return false;
	for (size_t i = 0; i < r->queue.qlen; i++)
		nq[i] = r->queue.q[(r->queue.qhead + i) % r->queue.qcap];
	free(r->queue.q);
	r->queue.q = nq;
	r->queue.qcap = ncap;
	r->queue.qhead = 0;
	return true;
}

void sp_run_push(struct sp_run *r, struct qitem it)
{
	if (!queue_reserve(r)) {
		/* out of memory: this event is lost (FINISHED never is: see
		 * sp_run_next_event) */
		free(it.data);
		return;
	}
	r->queue.q[(r->queue.qhead + r->queue.qlen) % r->queue.qcap] = it;
	r->queue.qlen++;
}

void sp_run_push_usage(struct sp_run *r)
{
	struct qitem it = { .type = SP_EVENT_USAGE, .usage = r->res->usage };
	sp_run_push(r, it);
}

static void push_violation(struct sp_run *r, struct sp_violation *v)
{
	if (!v)
		return;
	if (v->count == 1)
		sp_run_push_grown(r); /* a new record is announced at once */
	else
		r->viol_dirty = true; /* repeats are announced with the next sample */
}

void sp_run_push_grown(struct sp_run *r)
{
	size_t from = 0;
	long k;

	/* one event for each record whose count changed, however many
	 * repeats it had: a flood of one call costs one event a sample */
	while ((k = sp_violations_next_grown(&r->viol, &from)) >= 0) {
		struct qitem it = { .type = SP_EVENT_VIOLATION, .viol = (size_t)k };
		sp_run_push(r, it);
	}
}

struct sp_violation *sp_run_violation(struct sp_run *r, enum sp_violation_kind k,
				      bool kernel, int line, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	struct sp_violation *v;

	/* A runtime record always has a line: the program's report is all
	 * there is, and a record pointing nowhere explains nothing. Without
	 * one, the prelude's last known line; without that, it is dropped,
	 * and one note (counted) says so. */
	if (r->prep.on && !r->prep.released)
		return NULL; /* the preparation's, not a program's */
	if (!kernel && line <= 0)
		line = r->chan.last_line;
	if (!kernel && line <= 0) {
		sp_run_violation(r, SP_VIOL_CARRY, true, 0,
			      "a runtime report without a program line (dropped)");
		return NULL;
	}
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
	if (r->end.init_done)
		return;
	sp_cgroup_kill(r->cg);
	/* init is pid 1 of the sandbox: when it dies, the kernel kills every
	 * process in the namespace, daemons and setsid'd grandchildren too */
	if (r->L.pidfd >= 0)
		syscall(SYS_pidfd_send_signal, r->L.pidfd, SIGKILL, NULL, 0);
	else
		kill(r->L.pid, SIGKILL);
}

void sp_run_stop(struct sp_run *r, enum sp_status why)
{
	if (r->end.stopping)
		return;
	r->end.stopping = true;
	r->end.stop = why;
	kill_tree(r);
}

/* ---- sources ---- */

uint64_t sp_run_now_us(const struct sp_run *r)
{
	return r->seam.now_us ? r->seam.now_us(r->seam.ctx) : sp_now_us();
}

uint64_t sp_run_now_ms(const struct sp_run *r)
{
	return (sp_run_now_us(r) - r->start_us) / 1000u;
}

/* The wall limit is reached: stop the run (from the deadline timer, or
 * from a wait on a forward target that nobody reads). */
void sp_run_wall_deadline(struct sp_run *r)
{
	if (sp_prepare_deadline(r))
		return;
	if (!r->end.stopping && !r->end.init_done)
		sp_accounting_sample(r); /* the CPU used until now (it may stop the run) */
	if (!r->end.stopping && !r->end.init_done) {
		uint64_t cpu = r->res->usage.cpu_ms, lim = r->limits.cpu_ms;
		/* far from its own CPU limit: a program that computed all along
		 * was slowed by others on the machine, or it waited. In quarters,
		 * not ms: the text is the record's key (repeats merge by it) */
		const char *part = cpu * 4 < lim ? "a quarter" : cpu * 2 < lim ? "half" :
				   "three quarters";
		if (cpu * 4 < lim * 3)
			sp_run_violation(r, SP_VIOL_WALL, true, 0, "wall-clock time over %s "
				      "after under %s of the CPU limit of %s: the program "
				      "waited, or the machine is busy", SP_MS(r->limits.wall_ms),
				      part, SP_MS(lim));
		else
			sp_run_violation(r, SP_VIOL_WALL, true, 0, "wall-clock time over %s",
				      SP_MS(r->limits.wall_ms));
		sp_run_stop(r, SP_STATUS_WALL_LIMIT);
	}
}

static void notify_continue(struct sp_run *r, const struct seccomp_notif *req)
{
	struct seccomp_notif_resp *resp = r->notify.notif_resp;

	resp->id = req->id;
	resp->error = 0;
	resp->val = 0;
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	seccomp_notify_respond(r->src.notify_fd, resp);
}

static void notify_refuse(struct sp_run *r, const struct seccomp_notif *req, int error)
{
	struct seccomp_notif_resp *resp = r->notify.notif_resp;

	resp->id = req->id;
	resp->error = -error;
	resp->val = 0;
	resp->flags = 0;
	seccomp_notify_respond(r->src.notify_fd, resp);
}

/* The bytes of a process's data segment (RLIMIT_DATA's measure), or 0. */
static uint64_t vm_data_bytes(int pid)
{
	char path[48], *text, *p;
	uint64_t kb = 0;

	snprintf(path, sizeof path, "/proc/%d/status", pid);
	text = sp_read_file(path, 4096, NULL);
	if (!text)
		return 0;
	p = strstr(text, "\nVmData:");
	if (p)
		kb = strtoull(p + 8, NULL, 10);
	free(text);
	return kb * 1024u;
}

/*
 * A big writable private mapping, let through: when the process's data
 * plus this call pass RLIMIT_DATA, the kernel is about to refuse it, and
 * the program gets a MemoryError it may well catch. The kernel keeps no
 * trace of that refusal; this is the supervisor's own.
 */
static void observe_memory(struct sp_run *r, const struct seccomp_notif *req,
			   const struct sp_syscall_verdict *v)
{
	uint64_t data = v->bytes ? vm_data_bytes((int)req->pid) : 0;
	/* the caller still waits, so its pid still named it during the read */
	bool refused = data && data + v->bytes > r->limits.memory_bytes &&
		       seccomp_notify_id_valid(r->src.notify_fd, req->id) == 0;

	notify_continue(r, req);
	if (refused) {
		/* glibc tries mmap, then brk, then mmap again: one malloc that
		 * fails is two refused calls a moment apart, the process's data
		 * the same at both: one record */
		uint64_t now = sp_run_now_us(r);
		bool again = req->pid == r->notify.mem_refused_pid && data == r->notify.mem_refused_data &&
			     now - r->notify.mem_refused_us < 100000;
		r->notify.mem_refused_pid = req->pid;
		r->notify.mem_refused_data = data;
		r->notify.mem_refused_us = now;
		if (again)
			return;
	}
	if (refused)
		/* one text, so repeats merge into its count */
		sp_run_violation(r, SP_VIOL_MEMORY, true, 0,
			      "an allocation over the memory limit of %s was refused",
			      SP_BYTES(r->limits.memory_bytes));
}

/*
 * A new process or thread, without a pids cgroup that keeps a peak: count
 * the program's tasks where they start (the 50 ms samples miss a burst),
 * and refuse the one over the limit here, with a record, before
 * RLIMIT_NPROC would refuse it without a trace. A task let through a
 * moment ago for another thread may not be in /proc yet: for 5 ms the
 * count is at least what it was then. (When the same thread calls again,
 * its last clone has returned, and what it made is in /proc or gone: a
 * loop that starts and joins threads must not count the dead.)
 */
static void observe_spawn(struct sp_run *r, const struct seccomp_notif *req, int line,
			  const char *ctx)
{
	struct sp_usage *u = &r->res->usage;
	uint64_t now = sp_run_now_us(r);
	uint32_t live;

	/* a fork bomb at the limit asks again and again: a count at the
	 * limit less than 1 ms old stands, rather than a walk of every task */
	if (r->notify.spawn_full_us && now - r->notify.spawn_full_us < 1000)
		live = r->limits.procs;
	else
		live = sp_proc_count_tasks(r->L.proc_fd);

	if (req->pid != r->notify.spawn_tid && live < r->notify.spawn_floor && now - r->notify.spawn_at_us < 5000)
		live = r->notify.spawn_floor;
	if (live >= r->limits.procs) {
		notify_refuse(r, req, EAGAIN);
		if (!(r->notify.spawn_full_us && now - r->notify.spawn_full_us < 1000))
			r->notify.spawn_full_us = now;
		if (live > u->procs_peak)
			u->procs_peak = live > r->limits.procs ? r->limits.procs : live;
		r->acct.procs_reported = true;
		if (ctx[0])
			sp_run_violation(r, SP_VIOL_PROCESS, true, line,
				      "%s: a new process or thread over the limit of %u was refused",
				      ctx, r->limits.procs);
		else
			sp_run_violation(r, SP_VIOL_PROCESS, true, line,
				      "a new process or thread over the limit of %u was refused",
				      r->limits.procs);
		return;
	}
	notify_continue(r, req);
	r->notify.spawn_full_us = 0;
	r->notify.spawn_floor = live + 1;
	r->notify.spawn_at_us = now;
	r->notify.spawn_tid = req->pid;
	if (live + 1 > u->procs_peak)
		u->procs_peak = live + 1;
}

/*
 * rt_sigaction(SIGCHLD, act, oldact) with a new action (the filter sends
 * only calls with one). SIGCHLD's action can never change here, so it is
 * always the default. The call never runs (what the program rewrites
 * meanwhile changes nothing), and the supervisor writes nothing into the
 * program's memory (through a pid that may be another process's by then):
 *   SIGCHLD_DONE     the default, no SA_NOCLDWAIT, no old action asked
 *                    for (glibc's posix_spawn, in every child): answered
 *                    as done, since it is so already
 *   SIGCHLD_REFUSE   a handler, or the default with the old action asked
 *                    for: refused without a record (shells install a
 *                    handler for every command; a handler could be turned
 *                    into SIG_IGN after this look, before the kernel's)
 *   SIGCHLD_ESCAPE   SIG_IGN or SA_NOCLDWAIT, the kernel reaping children
 *                    itself with their CPU time, or an action unreadable:
 *                    refused, with a record
 */
enum sigchld_answer { SIGCHLD_DONE, SIGCHLD_REFUSE, SIGCHLD_ESCAPE };

static enum sigchld_answer sigchld_verdict(const struct seccomp_notif *req)
{
	uint64_t act[2] = { 1, 0 };          /* handler, flags */
	struct iovec l = { act, sizeof act },
		     rm = { (void *)(uintptr_t)req->data.args[1], sizeof act };

	if (process_vm_readv((pid_t)req->pid, &l, 1, &rm, 1, 0) != (ssize_t)sizeof act ||
	    act[0] == (uint64_t)(uintptr_t)SIG_IGN || (act[1] & SA_NOCLDWAIT))
		return SIGCHLD_ESCAPE;
	if (act[0] == (uint64_t)(uintptr_t)SIG_DFL && req->data.args[2] == 0 &&
	    req->data.args[3] == 8)
		return SIGCHLD_DONE;
	return SIGCHLD_REFUSE;
}

static void handle_notify(struct sp_run *r)
{
	struct seccomp_notif *req;
	struct sp_syscall_verdict v;
	int line = 0;
	char ctx[160] = "";

	/* one pair of buffers per run: a program may be denied 100,000 times */
	if (!r->notify.notif_req && seccomp_notify_alloc(&r->notify.notif_req, &r->notify.notif_resp) < 0)
		return;
	req = r->notify.notif_req;
	memset(req, 0, sizeof *req);
	if (seccomp_notify_receive(r->src.notify_fd, req) < 0) {
		/* the caller died meanwhile, or the listener is gone */
		if (errno != ENOENT && errno != EINTR) {
			epoll_ctl(r->src.epfd, EPOLL_CTL_DEL, r->src.notify_fd, NULL);
			close(r->src.notify_fd);
			r->src.notify_fd = -1;
		}
		return;
	}
	memset(&v, 0, sizeof v);
	sp_seccomp_describe((int)req->pid, req, &v);
	if (v.action == SP_VERDICT_MEMORY) {
		/* not a denial: the prelude's pending line is for another call */
		observe_memory(r, req, &v);
		return;
	}
	if (v.action == SP_VERDICT_CONTINUE) {
		/* allowed after all: the prelude's line was for this call.
		 * Forgotten before the program goes on, not after: once it
		 * runs, its next call's line may already be in the channel */
		sp_channel_drain(r);
		r->chan.have_pending = false;
		notify_continue(r, req);
		return;
	}
	/* the prelude said which line this comes from just before the call */
	sp_channel_drain(r);
	if (r->chan.have_pending) {
		line = r->chan.pending_line;
		snprintf(ctx, sizeof ctx, "%s", r->chan.pending_ctx);
		r->chan.have_pending = false;
	}
	if (v.action == SP_VERDICT_SPAWN) {
		observe_spawn(r, req, line, ctx);
		return;
	}
	if (v.action == SP_VERDICT_SIGCHLD) {
		enum sigchld_answer ans = sigchld_verdict(req);
		if (seccomp_notify_id_valid(r->src.notify_fd, req->id) != 0)
			return; /* the caller is gone */
		if (ans == SIGCHLD_DONE || ans == SIGCHLD_REFUSE) {
			notify_refuse(r, req, ans == SIGCHLD_DONE ? 0 : EPERM);
			return;
		}
	}
	if (seccomp_notify_id_valid(r->src.notify_fd, req->id) != 0) {
		/* the caller died during the reads, so its pid may name another
		 * process by now: describe the call without its memory */
		memset(&v, 0, sizeof v);
		sp_seccomp_describe(-1, req, &v);
	}
	notify_refuse(r, req, v.error);
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
	/* the kernel's words in what; the program's (which it can forge)
	 * beside them, marked as its own */
	struct sp_violation *rec = sp_run_violation(r, v.kind, true, line, "%s", v.what);
	if (rec && ctx[0]) {
		size_t k = (size_t)(rec - r->viol.v);
		if (!r->viol.context[k])
			r->viol.context[k] = strdup(ctx);
	}
}

/* Watch fd as source s. A source not watched is a run that never hears
 * its end (the pidfd) or its deadline: the caller fails the start. */
static int add_fd(struct sp_run *r, int fd, enum src s)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = s };

	return epoll_ctl(r->src.epfd, EPOLL_CTL_ADD, fd, &ev);
}

void sp_run_handle_ctl(struct sp_run *r)
{
	char msg[600];
	int fd = -1, nfd = 1;
	ssize_t n = sp_recv_fds(r->L.ctl, msg, sizeof msg - 1, &fd, &nfd);

	if (n < 0 && errno == EAGAIN)
		return;
	if (n <= 0) {
		epoll_ctl(r->src.epfd, EPOLL_CTL_DEL, r->L.ctl, NULL);
		return;
	}
	msg[n] = '\0';
	switch (msg[0]) {
	case SP_CTL_LAYERS:
		r->layers.landlock_abi = n > 1 ? (unsigned char)msg[1] : 0;
		r->layers.seccomp_mode = n > 2 && msg[2] ? 2 : 1;
		if (nfd == 1 && fd >= 0) {
			r->src.notify_fd = fd;
			/* unwatched, the program's first notified call would
			 * wait for ever: fail closed */
			if (add_fd(r, fd, SRC_NOTIFY) < 0) {
				snprintf(r->end.setup_error, sizeof r->end.setup_error,
					 "epoll: watching the seccomp notifications: %s", strerror(errno));
				sp_run_stop(r, SP_STATUS_SANDBOX_ERROR);
			}
		}
		return;
	case SP_CTL_ERROR:
		snprintf(r->end.setup_error, sizeof r->end.setup_error, "%s", msg + 1);
		break;
	case SP_CTL_EXIT:
		if (n >= (ssize_t)(1 + sizeof(int))) {
			memcpy(&r->end.wstatus, msg + 1, sizeof(int));
			r->end.have_status = true;
		}
		break;
	}
	if (fd >= 0)
		close(fd);
}

/*
 * Whether a pipe of the dead sandbox has more to give: data or its end.
 * Every writer is gone with the sandbox, unless a write end is still in
 * flight in a unix socket (SCM_RIGHTS) the kernel has yet to collect; such
 * a pipe stays empty, and is left after 100 ms rather than spun on.
 */
static bool left_to_read(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	if (fd < 0)
		return false;
	do
		n = poll(&p, 1, 100);
	while (n < 0 && errno == EINTR);
	return n > 0;
}

/* Every writer is dead now: take what is left in the pipes (forwarded
 * output all of it, waiting for a slow reader as cat would), on the
 * channel and on the control socket, before the end is decided. */
static void drain(struct sp_run *r)
{
	r->out.draining = true;
	if (r->prep.on && !r->prep.released)
		sp_prepare_take_output(r); /* the preparation's, not a program's */
	for (int i = 0; (i < 64 || r->out.forward) && left_to_read(r->src.out_fd); i++)
		sp_output_read(r, &r->src.out_fd, false);
	for (int i = 0; (i < 64 || r->out.forward) && left_to_read(r->src.err_fd); i++)
		sp_output_read(r, &r->src.err_fd, true);
	while (left_to_read(r->src.chan_fd))
		sp_channel_read(r);
	for (int i = 0; i < 16; i++) {
		char peek;
		if (recv(r->L.ctl, &peek, 1, MSG_PEEK | MSG_DONTWAIT) <= 0)
			break;
		sp_run_handle_ctl(r);
	}
}

/* What the program wrote before a call is in its pipes before the call's
 * notification or record arrives (one thread, in program order), but
 * epoll may hand the record over first: read what the pipes hold, so the
 * output comes before the record it led to (step mode shows them in
 * that order). One read each, never blocking. */
static void read_output_first(struct sp_run *r)
{
	struct pollfd p[2] = {
		{ .fd = r->src.out_fd, .events = POLLIN },
		{ .fd = r->src.err_fd, .events = POLLIN },
	};

	if (r->prep.on && !r->prep.released)
		return; /* a prepared sandbox's pipes are its own until the release */
	if (poll(p, 2, 0) <= 0)
		return;
	if (r->src.out_fd >= 0 && (p[0].revents & (POLLIN | POLLHUP)))
		sp_output_read(r, &r->src.out_fd, false);
	if (r->src.err_fd >= 0 && (p[1].revents & (POLLIN | POLLHUP)))
		sp_output_read(r, &r->src.err_fd, true);
}

/* ---- public ---- */

static void pump(struct sp_run *r)
{
	struct epoll_event evs[8];
	int n;

	if (r->end.finished)
		return;
	n = r->seam.ready ? r->seam.ready(r->seam.ctx, r->src.epfd, evs, 8)
			  : epoll_wait(r->src.epfd, evs, 8, 0);
	for (int i = 0; i < n; i++) {
		uint64_t ticks;
		switch ((enum src)evs[i].data.u32) {
		case SRC_OUT: if (r->src.out_fd >= 0) sp_output_read(r, &r->src.out_fd, false); break;
		case SRC_ERR: if (r->src.err_fd >= 0) sp_output_read(r, &r->src.err_fd, true); break;
		case SRC_CHAN:
			if (r->src.chan_fd >= 0) {
				read_output_first(r);
				sp_channel_read(r);
			}
			break;
		case SRC_NOTIFY:
			if (r->src.notify_fd < 0)
				break;
			if (evs[i].events & (EPOLLHUP | EPOLLERR)) {
				/* every filtered task is gone: nothing more can come,
				 * and a hung-up fd would spin the loop */
				epoll_ctl(r->src.epfd, EPOLL_CTL_DEL, r->src.notify_fd, NULL);
				close(r->src.notify_fd);
				r->src.notify_fd = -1;
				break;
			}
			read_output_first(r);
			handle_notify(r);
			break;
		case SRC_CTL: sp_run_handle_ctl(r); break;
		case SRC_PIDFD:
			r->end.init_done = true;
			break;
		case SRC_SAMPLE:
			if (read(r->src.sample_fd, &ticks, sizeof ticks) < 0) { /* cleared either way */ }
			sp_accounting_sample(r);
			sp_timeline_point(r);
			sp_run_push_usage(r);
			if (r->viol_dirty) {
				r->viol_dirty = false;
				sp_run_push_grown(r);
			}
			sp_accounting_arm(r);
			break;
		case SRC_DEADLINE:
			if (read(r->src.deadline_fd, &ticks, sizeof ticks) < 0) { /* cleared */ }
			sp_run_wall_deadline(r);
			break;
		}
	}
	if (r->end.init_done && !r->end.finished) {
		struct qitem it = { .type = SP_EVENT_FINISHED };
		/* the sandbox is over (init is gone): a slow reader of
		 * forwarded output does not make the run longer */
		uint64_t wall_ms = sp_run_now_ms(r);

		drain(r);
		sp_finish_run(r, wall_ms);
		sp_run_push_grown(r); /* repeats since the last sample, and the last records */
		sp_run_push(r, it);
	}
}

int sp_run_next_event(struct sp_run *r, struct sp_event *ev)
{
	free(r->queue.cur.data);
	memset(&r->queue.cur, 0, sizeof r->queue.cur);
	if (r->end.finished_sent)
		return 0;
	if (r->queue.qlen == 0)
		pump(r);
	if (r->queue.qlen == 0 && !r->end.finished)
		return 0;
	if (r->queue.qlen == 0) {
		r->queue.cur.type = SP_EVENT_FINISHED;   /* its push failed */
	} else {
		r->queue.cur = r->queue.q[r->queue.qhead];
		r->queue.qhead = (r->queue.qhead + 1) % r->queue.qcap;
		r->queue.qlen--;
	}
	memset(ev, 0, sizeof *ev);
	ev->type = r->queue.cur.type;
	switch (r->queue.cur.type) {
	case SP_EVENT_STDOUT:
	case SP_EVENT_STDERR:
		ev->data = r->queue.cur.data;
		ev->len = r->queue.cur.len;
		break;
	case SP_EVENT_USAGE:
		ev->usage = &r->queue.cur.usage;
		break;
	case SP_EVENT_VIOLATION:
		ev->violation = &r->viol.v[r->queue.cur.viol];
		ev->data = r->viol.context[r->queue.cur.viol];
		ev->len = ev->data ? strlen(ev->data) : 0;
		break;
	case SP_EVENT_FINISHED:
		ev->result = r->res;
		r->end.finished_sent = true;
		break;
	case SP_EVENT_READY:
		break;
	}
	return 1;
}

int sp_run_fd(const struct sp_run *r) { return r->src.epfd; }

int sp_run_timeout_ms(const struct sp_run *r)
{
	if (r->queue.qlen > 0 || (r->end.finished && !r->end.finished_sent))
		return 0;
	return r->end.finished_sent ? -1 : 1000;
}

bool sp_run_finished(const struct sp_run *r) { return r->end.finished_sent; }

const struct sp_result *sp_run_result(const struct sp_run *r)
{
	return r->end.finished ? r->res : NULL;
}

void sp_run_interrupt(struct sp_run *r)
{
	r->interrupted = 1;
}

void sp_run_cancel(struct sp_run *r)
{
	if (!r->end.finished)
		sp_run_stop(r, SP_STATUS_KILLED);
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
	if (!r->end.finished) {
		sp_run_stop(r, SP_STATUS_KILLED);
		waitpid(r->L.pid, NULL, 0);
		r->end.init_done = true;
	}
	for (size_t i = 0; i < r->queue.qlen; i++)
		free(r->queue.q[(r->queue.qhead + i) % r->queue.qcap].data);
	free(r->queue.q);
	free(r->queue.cur.data);
	close_fd(&r->src.out_fd);
	close_fd(&r->src.err_fd);
	close_fd(&r->src.chan_fd);
	close_fd(&r->src.notify_fd);
	close_fd(&r->src.sample_fd);
	close_fd(&r->src.deadline_fd);
	close_fd(&r->src.epfd);
	close_fd(&r->L.ctl);
	close_fd(&r->L.pidfd);
	close_fd(&r->L.work_fd);
	close_fd(&r->L.proc_fd);
	close_fd(&r->L.sockmem_fd);
	close_fd(&r->files.keep.root_fd);
	close_fd(&r->prep.rel_fd);
	free(r->files.keep_path);
	free(r->files.placed);
	sp_cgroup_destroy(r->cg);
	json_decref(r->chan.carry_out);
	json_decref(r->chan.carry_sizes);
	free(r->chan.buf);
	if (r->notify.notif_req)
		seccomp_notify_free(r->notify.notif_req, r->notify.notif_resp);
	if (r->res) {
		r->res->violations = NULL;
		r->res->violation_contexts = NULL;
		r->res->n_violations = 0;
		sp_result_free(r->res);
	}
	sp_violations_free(&r->viol);
	sp_samples_free(&r->timeline.samples);
	for (size_t i = 0; r->vars.tables && i < r->vars.n; i++)
		free(r->vars.tables[i]);
	free(r->vars.tables);
	sp_variables_free(r->vars.v, r->vars.n);
	free(r);
}

/* The supervisor's ends of the program's pipes become the run's sources,
 * for a cold run and a prepared one alike: their inodes noted (what the
 * supervisor drains is not the program's memory), stdout and stderr made
 * big (fewer wake-ups when a program writes a lot), all of them and the
 * control socket non-blocking; then epoll and the two timers. The fds are
 * the run's from the call on, even when it fails (-1 with err). */
int sp_run_take_sources(struct sp_run *r, int out_fd, int err_fd, int chan_fd,
			struct sp_error *err)
{
	int own[3] = { out_fd, err_fd, chan_fd };

	r->src.out_fd = out_fd;
	r->src.err_fd = err_fd;
	r->src.chan_fd = chan_fd;
	for (int i = 0; i < 3; i++) {
		struct stat st;
		r->acct.own_pipes[i] = fstat(own[i], &st) == 0 ? (uint64_t)st.st_ino : 0;
		fcntl(own[i], F_SETFL, O_NONBLOCK);
	}
	fcntl(out_fd, F_SETPIPE_SZ, PIPE_BYTES);
	fcntl(err_fd, F_SETPIPE_SZ, PIPE_BYTES);
	fcntl(r->L.ctl, F_SETFL, O_NONBLOCK);
	r->src.epfd = epoll_create1(EPOLL_CLOEXEC);
	r->src.sample_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	r->src.deadline_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (r->src.epfd < 0 || r->src.sample_fd < 0 || r->src.deadline_fd < 0)
		return sp_fail_errno(err, "epoll and timers");
	return 0;
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
		sp_fail_errno(err, "stdin: write");
		close(fd);
		return -2;
	}
	fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	return fd;
}

/* The root is built and the program not started: copy the files in
 * through the work dir's fd, and note what sandpit put there (carry.json
 * too), so the listing at the end can tell it from the program's own. */
static int place_inputs(struct sp_run *r, const struct sp_config *cfg,
			const struct sp_in_file *in_files, struct sp_error *err)
{
	struct stat st;
	size_t n = cfg->n_files_in;

	r->files.placed = calloc(n + 1, sizeof *r->files.placed);
	r->res->files_in = n ? calloc(n, sizeof *r->res->files_in) : NULL;
	if (!r->files.placed || (n && !r->res->files_in))
		return sp_fail(err, "out of memory");
	if (n) {
		/* count what exists, so a failure half way is freed */
		r->res->n_files_in = n;
		if (sp_in_files_copy(r->L.work_fd, in_files, n, r->res->files_in,
				     r->files.placed, err) < 0)
			return -1;
		r->files.n_placed = n;
	}
	if (cfg->carry_in &&
	    fstatat(r->L.work_fd, "carry.json", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct sp_placed *p = &r->files.placed[r->files.n_placed++];
		snprintf(p->name, sizeof p->name, "carry.json");
		p->ino = st.st_ino;
		p->size = st.st_size;
		p->mtime = st.st_mtim;
	}
	return 0;
}

/* The filter's variant: what the run's cgroups cannot tell the
 * supervisor, the filter must (see SP_FILTER_* in internal.h). */
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

static int start_run(const struct sp_config *cfg, struct sp_run **out,
		     struct sp_error *err)
{
	struct sp_run *r;
	struct sp_launch_spec spec;
	char etc_dirs[8][32];       /* the interpreter's /etc/python3.N */
	const char *etc_ptrs[8];
	size_t n_etc;
	const char *python = cfg->python ? cfg->python : "/usr/bin/python3";
	const char *filename = cfg->filename ? cfg->filename : "main.py";
	const char *base = strrchr(filename, '/');
	int out_p[2] = { -1, -1 }, err_p[2] = { -1, -1 }, chan_p[2] = { -1, -1 };
	int stdin_fd;
	struct sp_in_file *in_files = NULL;
	bool moved_stdin;
	*out = NULL;
	if (err)
		err->msg[0] = '\0';
	if (base)
		filename = base + 1;
	if (strlen(filename) > NAME_MAX)
		return sp_fail(err, "the program's file name is over %d bytes: give a shorter one",
			       NAME_MAX);
	if (check_python(python, err) < 0)
		return -1;
	if (cfg->carry_in &&
	    sp_carry_validate(cfg->carry_in, cfg->carry_in_len,
			      cfg->limits.carry_bytes, err) < 0)
		return -1;
	if (cfg->limits.output_bytes == 0 || cfg->limits.wall_ms == 0 ||
	    cfg->limits.cpu_ms == 0 || cfg->limits.memory_bytes < SP_MIN_MEMORY_BYTES ||
	    cfg->limits.disk_bytes < SP_MIN_DISK_BYTES || cfg->limits.procs == 0)
		return sp_fail(err, "limits too small: cpu and wall must be > 0, memory at "
			       "least %uM, disk at least %uK, output and procs at least 1",
			       SP_MIN_MEMORY_BYTES >> 20, SP_MIN_DISK_BYTES >> 10);
	/* forwarding moves the bytes without holding them; keeping them would
	 * mean copying through our memory, and a stuck target would then hold
	 * bytes the loop must wait on */
	if (cfg->forward && cfg->keep_output)
		return sp_fail(err, "forward and keep_output cannot both be set: "
			       "forward the output, or keep it in the result");
	if (cfg->forward && (cfg->forward_out < 0 || cfg->forward_err < 0))
		return sp_fail(err, "forward needs two open descriptors (forward_out, forward_err)");
	/* the user's files, opened and judged before anything starts */
	if (sp_in_files_open(cfg, &in_files, err) < 0)
		return -1;
	stdin_fd = make_stdin(cfg, err);
	if (stdin_fd == -2) {
		sp_in_files_close(in_files, cfg->n_files_in);
		return -1;
	}

	r = calloc(1, sizeof *r);
	if (!r || !(r->res = calloc(1, sizeof *r->res))) {
		free(r);
		if (stdin_fd >= 0)
			close(stdin_fd);
		sp_in_files_close(in_files, cfg->n_files_in);
		return sp_fail(err, "out of memory");
	}
	r->limits = cfg->limits;
	snprintf(r->python, sizeof r->python, "%s", python);
	snprintf(r->filename, sizeof r->filename, "%s", filename);
	r->out.keep_output = cfg->keep_output;
	r->out.forward = cfg->forward;
	r->out.fwd_fd[0] = cfg->forward ? cfg->forward_out : -1;
	r->out.fwd_fd[1] = cfg->forward ? cfg->forward_err : -1;
	if (cfg->forward) {
		struct sigaction sa;
		r->out.fwd_guard_sigpipe = sigaction(SIGPIPE, NULL, &sa) < 0 ||
				       sa.sa_handler != SIG_IGN;
	}
	r->res->limits = cfg->limits;
	r->acct.clk_tck = sysconf(_SC_CLK_TCK);
	r->src.epfd = r->src.out_fd = r->src.err_fd = r->src.chan_fd = r->src.notify_fd = -1;
	r->src.sample_fd = r->src.deadline_fd = -1;
	r->L.pidfd = r->L.ctl = r->L.work_fd = r->L.proc_fd = r->L.sockmem_fd = -1;
	r->files.keep.root_fd = -1;
	r->prep.rel_fd = -1;
	if (cfg->keep_dir) {
		r->files.keep.root_fd = sp_keep_dir_open(cfg->keep_dir, err);
		r->files.keep_path = strdup(cfg->keep_dir);
		r->files.keep.root_path = r->files.keep_path;
		r->files.keep.budget = cfg->limits.disk_bytes;
		if (r->files.keep.root_fd < 0 || !r->files.keep_path) {
			if (r->files.keep.root_fd >= 0)
				sp_fail(err, "out of memory");
			goto fail;
		}
	}
	r->chan.cap = (size_t)cfg->limits.carry_bytes * 2 + 65536;
	r->chan.buf = malloc(r->chan.cap);

	if (pipe2(out_p, O_CLOEXEC) < 0 || pipe2(err_p, O_CLOEXEC) < 0 ||
	    pipe2(chan_p, O_CLOEXEC) < 0 || !r->chan.buf) {
		sp_fail_errno(err, "pipes for the program");
		goto fail;
	}
	/* the program's ends must not land on 0-3, where dup2 puts them */
	out_p[1] = sp_fd_move_above(out_p[1], 10);
	err_p[1] = sp_fd_move_above(err_p[1], 10);
	chan_p[1] = sp_fd_move_above(chan_p[1], 10);
	moved_stdin = stdin_fd < 0 || (stdin_fd = sp_fd_move_above(stdin_fd, 10)) >= 0;
	if (out_p[1] < 0 || err_p[1] < 0 || chan_p[1] < 0 || !moved_stdin) {
		sp_fail_errno(err, "pipes for the program: move above fd 10");
		goto fail;
	}

	memset(&spec, 0, sizeof spec);
	spec.python = r->python;
	spec.filename = r->filename;
	spec.limits = cfg->limits;
	spec.columns = cfg->columns;
	spec.lines = cfg->lines;
	spec.stdin_fd = stdin_fd;
	spec.rel_fd = -1;
	spec.out_w = out_p[1];
	spec.err_w = err_p[1];
	spec.chan_w = chan_p[1];
	spec.mounts.python = r->python;
	n_etc = sp_python_etc_dirs(python, etc_dirs, SP_ARRAY_SIZE(etc_dirs));
	for (size_t i = 0; i < n_etc; i++)
		etc_ptrs[i] = etc_dirs[i];
	spec.mounts.ro_binds = etc_ptrs;
	spec.mounts.n_ro_binds = n_etc;
	spec.mounts.disk_bytes = cfg->limits.disk_bytes;
	spec.mounts.code = cfg->code ? cfg->code : "";
	spec.mounts.code_len = cfg->code ? cfg->code_len : 0;
	spec.mounts.prelude = sp_prelude_py;
	spec.mounts.prelude_len = sp_prelude_py_len;
	if (sp_prelude_pyc_fits(python)) {
		spec.mounts.prelude_pyc = sp_prelude_pyc;
		spec.mounts.prelude_pyc_len = sp_prelude_pyc_len;
	}
	spec.mounts.carry_in = cfg->carry_in;
	spec.mounts.carry_in_len = cfg->carry_in_len;
	spec.mounts.filename = r->filename;

	r->start_us = sp_now_us();
	/* before init: on v2 init is cloned straight into it, and the
	 * controllers are enabled while no process of the run sits in the
	 * parent (v1: init joins it itself as it starts, cgroup_join.h) */
	r->cg = sp_cgroup_create(&cfg->limits, r->cg_detail, sizeof r->cg_detail);
	r->layers.filter = filter_for(r->cg);
	spec.cgroup_fd = sp_cgroup_fd(r->cg);
	spec.n_cgroup_join = sp_cgroup_join_fds(r->cg, spec.cgroup_join);
	if (sp_launch_start(&spec, &r->L, err) < 0)
		goto fail;
	if (sp_launch_ready(&r->L, r->cg, err) < 0 ||
	    place_inputs(r, cfg, in_files, err) < 0 ||
	    sp_launch_go(&r->L, r->layers.filter |
			 (sp_cgroup_has_pids(r->cg) ? SP_GO_PIDS_CGROUP : 0), err) < 0)
		goto fail;
	sp_in_files_close(in_files, cfg->n_files_in);
	in_files = NULL;
	close(out_p[1]);
	close(err_p[1]);
	close(chan_p[1]);
	out_p[1] = err_p[1] = chan_p[1] = -1;
	if (stdin_fd >= 0)
		close(stdin_fd);
	stdin_fd = -1;
	/* the run owns them now, even when taking them fails */
	if (sp_run_take_sources(r, out_p[0], err_p[0], chan_p[0], err) < 0) {
		out_p[0] = err_p[0] = chan_p[0] = -1;
		goto fail;
	}
	out_p[0] = err_p[0] = chan_p[0] = -1;
	if (add_fd(r, r->src.out_fd, SRC_OUT) < 0 || add_fd(r, r->src.err_fd, SRC_ERR) < 0 ||
	    add_fd(r, r->src.chan_fd, SRC_CHAN) < 0 || add_fd(r, r->L.ctl, SRC_CTL) < 0 ||
	    add_fd(r, r->L.pidfd, SRC_PIDFD) < 0 || add_fd(r, r->src.sample_fd, SRC_SAMPLE) < 0 ||
	    add_fd(r, r->src.deadline_fd, SRC_DEADLINE) < 0) {
		sp_fail_errno(err, "epoll: watching the run's pipes and timers");
		goto fail;
	}
	{
		/* the deadline counts from the start of the sandbox, not now */
		struct itimerspec deadline = { 0 };
		uint64_t at_us = r->start_us + cfg->limits.wall_ms * 1000u;
		deadline.it_value.tv_sec = (time_t)(at_us / 1000000u);
		deadline.it_value.tv_nsec = (long)(at_us % 1000000u) * 1000L;
		timerfd_settime(r->src.deadline_fd, TFD_TIMER_ABSTIME, &deadline, NULL);
	}
	sp_accounting_arm(r);
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
	sp_in_files_close(in_files, cfg->n_files_in);
	r->end.finished = true;
	sp_launch_abort(&r->L); /* init, if it was started */
	sp_cgroup_destroy(r->cg);
	r->cg = NULL;
	sp_run_free(r);
	return -1;
}

int sp_run_start(const struct sp_config *caller, struct sp_run **out,
		 struct sp_error *err)
{
	struct sp_config cfg;

	*out = NULL;
	if (sp_config_take(caller, &cfg, err) < 0)
		return -1;
	return start_run(&cfg, out, err);
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
	r->res->violation_contexts = r->viol.context;
	r->res->n_violations = r->viol.n;
	free(r->viol.announced);
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
		if (res->violation_contexts)
			free(res->violation_contexts[i]);
	}
	free(res->violations);
	free(res->violation_contexts);
	for (size_t i = 0; i < res->n_files; i++) {
		free(res->files[i].path);
		free(res->files[i].kept);
	}
	free(res->files);
	for (size_t i = 0; i < res->n_files_in; i++)
		free(res->files_in[i].path);
	free(res->files_in);
	sp_hints_free(res);
	free(res->carry_out);
	free(res->samples);
	for (size_t i = 0; res->variable_tables && i < res->n_variables; i++)
		free(res->variable_tables[i]);
	free(res->variable_tables);
	sp_variables_free(res->variables, res->n_variables);
	free(res->last_value_type);
	free(res->last_value_repr);
	free(res->layers);
	free(res);
}

/* For prepare.c (run_impl.h): the same steps as sp_run_start's. */
int sp_run_add_fd(struct sp_run *r, int fd, enum src s) { return add_fd(r, fd, s); }
int sp_run_check_python(const char *python, struct sp_error *err)
{
	return check_python(python, err);
}
int sp_run_make_stdin(const struct sp_config *cfg, struct sp_error *err)
{
	return make_stdin(cfg, err);
}
int sp_run_place_inputs(struct sp_run *r, const struct sp_config *cfg,
			const struct sp_in_file *in_files, struct sp_error *err)
{
	return place_inputs(r, cfg, in_files, err);
}
unsigned sp_run_filter_for(struct sp_cgroup *cg) { return filter_for(cg); }
