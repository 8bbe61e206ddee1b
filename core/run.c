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
 * This file: the event API, the pump, the control socket and the drain
 * once init is gone. The run object (run_object.c), its start (start.c),
 * the output, the channel, the notifications, the accounting and the end
 * of a run have their own files (see run_impl.h).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "control.h"
#include "run_impl.h"
#include "buf.h"
#include "banned.h"

static void handle_ctl(struct sp_run *r)
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
			if (sp_run_watch(r, fd, SRC_NOTIFY) < 0) {
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
		handle_ctl(r);
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

/*
 * The channel is watched from the run's first wake-up by anything but the
 * control socket on (output, a notification, a sample within SAMPLE_MS,
 * the end), not from the start: the prelude's hello, written at every
 * start, would otherwise wake the supervisor while the interpreter is
 * busiest, and on a virtual machine a wake-up on another CPU costs the
 * writer tens of microseconds. (init's and the program's messages come
 * before the interpreter runs, so they do not count.) What waits in the
 * pipe by then was written before whatever woke the supervisor (the
 * program's first output, say): it is read first. Unwatched, a full
 * channel would stall the program for ever: fail closed.
 */
static void join_channel(struct sp_run *r, const struct epoll_event *evs, int n)
{
	int i = 0;

	while (i < n && evs[i].data.u32 == SRC_CTL)
		i++;
	if (i >= n)
		return;
	r->src.chan_late = false;
	if (r->src.chan_fd >= 0 && sp_run_watch(r, r->src.chan_fd, SRC_CHAN) < 0) {
		snprintf(r->end.setup_error, sizeof r->end.setup_error,
			 "epoll: watching the program's channel: %s", strerror(errno));
		sp_run_stop(r, SP_STATUS_SANDBOX_ERROR);
		return;
	}
	sp_channel_drain(r);
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
	if (r->src.chan_late)
		join_channel(r, evs, n);
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
				sp_run_unwatch(r, &r->src.notify_fd);
				break;
			}
			read_output_first(r);
			sp_notify_handle(r);
			break;
		case SRC_CTL: handle_ctl(r); break;
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
			sp_accounting_deadline_reached(r);
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
