/* SPDX-License-Identifier: MIT */
/*
 * run_object.c - the run object itself, below everything that handles its
 * sources: its life (made with every fd -1, freed with all it holds), its
 * event queue, its records, its clock and its stop. The files above it
 * (output, channel, notify, accounting, finish, the pump, the start
 * sequence) call into this one; it calls none of them.
 *
 * The queue is a ring that grows as needed and never drops an event but
 * when memory runs out: one pump can queue hundreds of violation records.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <seccomp.h>
#include <jansson.h>

#include "fd.h"
#include "run_impl.h"
#include "banned.h"

/* ---- life ---- */

struct sp_run *sp_run_new(const struct sp_limits *limits, const char *python,
			  struct sp_error *err)
{
	struct sp_run *r = calloc(1, sizeof *r);

	if (!r || !(r->res = calloc(1, sizeof *r->res))) {
		free(r);
		sp_fail(err, "out of memory");
		return NULL;
	}
	r->limits = *limits;
	r->res->limits = *limits;
	snprintf(r->python, sizeof r->python, "%s", python);
	r->acct.clk_tck = sysconf(_SC_CLK_TCK);
	r->src.epfd = r->src.out_fd = r->src.err_fd = r->src.chan_fd = r->src.notify_fd = -1;
	r->src.sample_fd = r->src.deadline_fd = -1;
	r->L.pidfd = r->L.ctl = r->L.work_fd = r->L.proc_fd = r->L.sockmem_fd = -1;
	r->files.keep.root_fd = -1;
	r->out.fwd_fd[0] = r->out.fwd_fd[1] = -1;
	r->prep.rel_fd = -1;
	r->ids.lock_fd = -1;
	/* the longest line the channel takes (a carry message of the whole
	 * carry-out, escaped); the buffer itself grows as lines need it */
	r->chan.cap = (size_t)limits->carry_bytes * 2 + 65536;
	return r;
}

void sp_run_free(struct sp_run *r)
{
	if (!r)
		return;
	if (!r->end.finished && r->L.pid > 0) {
		sp_run_stop(r, SP_STATUS_KILLED);
		waitpid(r->L.pid, NULL, 0);
		r->end.init_done = true;
	}
	for (size_t i = 0; i < r->queue.qlen; i++)
		free(r->queue.q[(r->queue.qhead + i) % r->queue.qcap].data);
	free(r->queue.q);
	free(r->queue.cur.data);
	SP_FDS_CLOSE(&r->src.out_fd, &r->src.err_fd, &r->src.chan_fd, &r->src.notify_fd,
		     &r->src.sample_fd, &r->src.deadline_fd, &r->src.epfd,
		     &r->files.keep.root_fd, &r->prep.rel_fd);
	sp_launched_close(&r->L);
	free(r->files.keep_path);
	free(r->files.placed);
	sp_cgroup_destroy(r->cg);
	sp_host_ids_release(&r->ids);   /* init is reaped: the ids are free */
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
	if (r->end.init_done || r->L.pid <= 0)
		return; /* no init (yet): kill(0) would be our own group */
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

/* Watch fd as source s. A source not watched is a run that never hears
 * its end (the pidfd) or its deadline: the caller fails the start. */
int sp_run_watch(struct sp_run *r, int fd, enum src s)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = s };

	return epoll_ctl(r->src.epfd, EPOLL_CTL_ADD, fd, &ev);
}

/* A source that ended: out of the epoll set, closed, -1. */
void sp_run_unwatch(struct sp_run *r, int *fd)
{
	if (*fd < 0)
		return;
	epoll_ctl(r->src.epfd, EPOLL_CTL_DEL, *fd, NULL);
	sp_fd_close(fd);
}

/* The one way the deadline timer is set: at at_us on the monotonic clock
 * (a deadline counts from the start of what it limits, not from the
 * call), or off with 0. */
void sp_run_arm_deadline(struct sp_run *r, uint64_t at_us)
{
	struct itimerspec t = { 0 };

	t.it_value.tv_sec = (time_t)(at_us / 1000000u);
	t.it_value.tv_nsec = (long)(at_us % 1000000u) * 1000L;
	timerfd_settime(r->src.deadline_fd, at_us ? TFD_TIMER_ABSTIME : 0, &t, NULL);
}
