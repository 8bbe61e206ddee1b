/* SPDX-License-Identifier: MIT */
/*
 * notify.c - the seccomp listener's notifications: a call the filter
 * sends to the supervisor instead of deciding it (seccomp.c describes
 * what it is). Most are denials, answered with an errno and recorded
 * with the program line the prelude reported just before the call; some
 * are observed and let through (a big allocation, a new process or
 * thread, a new action for SIGCHLD), each with its own reason below.
 *
 * The program waits while its call is here: everything in this file
 * answers once, and never blocks on anything the program controls.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <seccomp.h>

#include "run_impl.h"
#include "observe.h"
#include "banned.h"

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

/* A denial: answered with its errno, and recorded at the line the
 * prelude reported (or where the same call was seen before). */
static void refuse_and_record(struct sp_run *r, const struct seccomp_notif *req,
			      struct sp_syscall_verdict *v, int line, const char *ctx)
{
	struct sp_violation *rec;

	if (seccomp_notify_id_valid(r->src.notify_fd, req->id) != 0) {
		/* the caller died during the reads, so its pid may name another
		 * process by now: describe the call without its memory */
		memset(v, 0, sizeof *v);
		sp_seccomp_describe(-1, req, v);
	}
	notify_refuse(r, req, v->error);
	if (!line && !ctx[0]) {
		/* no hint (e.g. a cached ctypes function): the same call was
		 * most likely made from the place it was seen before */
		for (size_t i = 0; i < r->viol.n; i++)
			if (r->viol.v[i].kind == v->kind && r->viol.v[i].from_kernel &&
			    r->viol.v[i].line > 0 && strcmp(r->viol.v[i].what, v->what) == 0) {
				line = r->viol.v[i].line;
				break;
			}
	}
	/* the kernel's words in what; the program's (which it can forge)
	 * beside them, marked as its own */
	rec = sp_run_violation(r, v->kind, true, line, "%s", v->what);
	if (rec && ctx[0]) {
		size_t k = (size_t)(rec - r->viol.v);
		if (!r->viol.context[k])
			r->viol.context[k] = strdup(ctx);
	}
}

void sp_notify_handle(struct sp_run *r)
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
		if (errno != ENOENT && errno != EINTR)
			sp_run_unwatch(r, &r->src.notify_fd);
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
	refuse_and_record(r, req, &v, line, ctx);
}
