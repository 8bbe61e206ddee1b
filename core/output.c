/* SPDX-License-Identifier: MIT */
/*
 * output.c - the program's stdout and stderr: read what is ready (one
 * chunk), count it against the output limit, keep it for the result if
 * the caller asked, and either queue it as an event or forward it to the
 * caller's fds (splice for stdout when it can, read and write otherwise).
 *
 * Contract: one call reads at most CHUNK bytes, so a flood cannot grow
 * memory; bytes over the output limit are dropped, recorded once, and stop
 * the run; a forward target that is full slows the program down (its pipe
 * fills) but never hides the wall deadline; a target whose reader is gone
 * is dropped without SIGPIPE reaching the caller; the pipe's fd is closed
 * and set to -1 when it ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "buf.h"
#include "run_impl.h"
#include "banned.h"

static int append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
	if (*len + n + 1 > *cap) {
		char *bigger = sp_grow(*buf, cap, *len + n + 1, 1);
		if (!bigger)
			return -1;
		*buf = bigger;
	}
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

/* Wait up to ms for a forward target to take bytes. A full one must slow
 * the program down (its own pipe fills), not spin the supervisor, and not
 * stop it either: the loop must still see its deadline when nobody reads
 * the target at all. */
static bool forward_wait(const struct sp_run *r, int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	int rc;

	for (;;) {
		/* ms < 0: the program is over, wait as cat would, in slices,
		 * until the reader takes more or the caller interrupts (a
		 * signal, such as the CLI's SIGINT, ends it as it would end cat;
		 * sp_run_interrupt covers one that came just before the wait) */
		rc = poll(&p, 1, ms < 0 ? 100 : ms);
		if (rc < 0 && errno == EINTR && ms >= 0)
			continue;
		if (ms < 0 && rc == 0 && !r->interrupted)
			continue;
		break;
	}
	return rc == 1 && !(p.revents & (POLLERR | POLLNVAL));
}

/* A forward target whose reader is gone must not kill the caller with
 * SIGPIPE (the CLI ignores it; a library user may not): unless it is
 * ignored, hold it for the call and take back the one the call raised. */
struct pipe_guard {
	bool on;
	bool was_pending;  /* a SIGPIPE of someone else's, left alone */
	sigset_t pipe, old;
};

static void guard_begin(const struct sp_run *r, struct pipe_guard *g)
{
	sigset_t pending;

	g->on = r->out.fwd_guard_sigpipe;
	if (!g->on)
		return;
	sigemptyset(&g->pipe);
	sigaddset(&g->pipe, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &g->pipe, &g->old);
	g->was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
}

/* Whatever the call returned: a write that was partly done when the
 * reader left returns a count and still raises SIGPIPE. */
static void guard_end(struct pipe_guard *g)
{
	int saved = errno;
	sigset_t pending;

	if (!g->on)
		return;
	if (!g->was_pending && sigpending(&pending) == 0 &&
	    sigismember(&pending, SIGPIPE)) {
		const struct timespec now = { 0, 0 };
		while (sigtimedwait(&g->pipe, NULL, &now) < 0 && errno == EINTR)
			;
	}
	pthread_sigmask(SIG_SETMASK, &g->old, NULL);
	errno = saved;
}

static ssize_t guarded_write(const struct sp_run *r, int fd, const char *buf, size_t n)
{
	struct pipe_guard g;
	ssize_t w;

	guard_begin(r, &g);
	w = write(fd, buf, n);
	guard_end(&g);
	return w;
}

static ssize_t guarded_splice(const struct sp_run *r, int in, int out, size_t len)
{
	struct pipe_guard g;
	ssize_t m;

	guard_begin(r, &g);
	m = splice(in, NULL, out, NULL, len, SPLICE_F_MOVE);
	guard_end(&g);
	return m;
}

static void forward_write(struct sp_run *r, int slot, const char *buf, size_t n)
{
	while (n > 0 && r->out.fwd_fd[slot] >= 0) {
		ssize_t w = guarded_write(r, r->out.fwd_fd[slot], buf, n);
		if (w > 0) {
			buf += w;
			n -= (size_t)w;
		} else if (w < 0 && errno == EINTR) {
			continue;
		} else if (w < 0 && errno == EAGAIN) {
			/* these bytes are read already: wait for the target (the
			 * deadline still holds meanwhile), or give them up once
			 * the run is being stopped */
			if (forward_wait(r, r->out.fwd_fd[slot], r->out.draining ? -1 : 50))
				continue;
			if (r->end.stopping || r->out.draining)
				r->out.fwd_fd[slot] = -1;
			else if (sp_run_now_ms(r) >= r->limits.wall_ms)
				sp_accounting_deadline_reached(r);
		} else {
			r->out.fwd_fd[slot] = -1; /* the reader is gone: discard the rest */
		}
	}
}

/* What one forward_splice did. */
enum splice_result {
	SPLICE_MOVED,           /* moved some bytes */
	SPLICE_NOTHING_NOW,     /* nothing to do now */
	SPLICE_PIPE_ENDED,      /* the program's pipe ended */
	SPLICE_USE_COPY,        /* splice cannot: read and write instead */
};

/* Move output from the program's pipe to the forward target without
 * copying it through our memory. */
static enum splice_result forward_splice(struct sp_run *r, int fd, int slot, size_t len)
{
	for (;;) {
		ssize_t m = guarded_splice(r, fd, r->out.fwd_fd[slot], len);
		if (m > 0) {
			r->res->usage.output_bytes += (uint64_t)m;
			return SPLICE_MOVED;
		}
		if (m == 0)
			return SPLICE_PIPE_ENDED;
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN) {
			/* our pipe is empty, or the target is full: in the
			 * second case wait a little, then let the loop run */
			if (forward_wait(r, r->out.fwd_fd[slot], 0))
				return SPLICE_NOTHING_NOW;
			if (forward_wait(r, r->out.fwd_fd[slot], r->out.draining ? -1 : 50))
				continue;
			if (r->out.draining)
				r->out.fwd_fd[slot] = -1; /* the target failed */
			return SPLICE_NOTHING_NOW;
		}
		if (errno == EINVAL || errno == ENOSYS || errno == EBADF) {
			r->out.fwd_copy[slot] = true; /* O_APPEND, or an fd splice cannot reach */
			return SPLICE_USE_COPY;
		}
		r->out.fwd_fd[slot] = -1;
		return SPLICE_USE_COPY;
	}
}

void sp_output_read(struct sp_run *r, int *fdp, bool is_err)
{
	char *buf;
	size_t want = CHUNK;
	int avail = 0;
	ssize_t n;
	uint64_t room;
	int slot = is_err ? 1 : 0;
	struct qitem it = { .type = is_err ? SP_EVENT_STDERR : SP_EVENT_STDOUT };

	room = r->limits.output_bytes - r->res->usage.output_bytes;
	/* stderr is read and written, never spliced: its tracebacks are
	 * explained at the end (hints.c), and the output limit keeps it small */
	if (r->out.forward && !r->out.keep_output && r->out.fwd_fd[slot] >= 0 && !is_err &&
	    !r->out.fwd_copy[slot] && room > 0) {
		enum splice_result rc = forward_splice(r, *fdp, slot,
						       room < CHUNK ? (size_t)room : CHUNK);
		if (rc == SPLICE_MOVED || rc == SPLICE_NOTHING_NOW)
			return;
		if (rc == SPLICE_PIPE_ENDED) {
			sp_run_unwatch(r, fdp);
			return;
		}
	}
	/* sized by what the pipe holds: a few bytes, or the pipe's end, cost
	 * no mapping and unmapping of a whole chunk */
	if (ioctl(*fdp, FIONREAD, &avail) == 0 && avail >= 0 && (size_t)avail < CHUNK)
		want = avail > 0 ? (size_t)avail : 1;
	buf = malloc(want);
	if (!buf)
		return;
	n = read(*fdp, buf, want);
	if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
		free(buf);
		return;
	}
	if (n <= 0) {
		sp_run_unwatch(r, fdp);
		free(buf);
		return;
	}
	room = r->limits.output_bytes - r->res->usage.output_bytes;
	if ((uint64_t)n > room) {
		n = (ssize_t)room;
		r->res->truncated = true;
		if (!r->end.stopping)
			sp_run_violation(r, SP_VIOL_OUTPUT, true, 0,
				  "output over %s", SP_BYTES(r->limits.output_bytes));
		sp_run_stop(r, SP_STATUS_OUTPUT_LIMIT);
	}
	if (n == 0) {
		free(buf);
		return;
	}
	r->res->usage.output_bytes += (uint64_t)n;
	if (is_err)
		sp_hints_tail_add(r->out.errtail, &r->out.errtail_len, sizeof r->out.errtail, buf, (size_t)n);
	if (r->out.keep_output) {
		if (is_err)
			append(&r->res->err, &r->res->err_len, &r->out.err_cap, buf, (size_t)n);
		else
			append(&r->res->out, &r->res->out_len, &r->out.out_cap, buf, (size_t)n);
	}
	if (r->out.forward) {
		forward_write(r, slot, buf, (size_t)n);
		free(buf);
		return;
	}
	it.data = buf;
	it.len = (size_t)n;
	sp_run_push(r, it);
}
