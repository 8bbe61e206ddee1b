/* SPDX-License-Identifier: MIT */
/*
 * status.c - the status of a run from the facts of its end (status.h).
 * Pure: the same facts give the same verdict.
 */
#include <signal.h>
#include <sys/wait.h>

#include "status.h"
#include "banned.h"

struct sp_end_verdict sp_status_decide(const struct sp_end_facts *f)
{
	struct sp_end_verdict v = { .status = SP_STATUS_SANDBOX_ERROR, .exit_code = -1 };

	if (f->have_status) {
		v.exit_code = WIFEXITED(f->wstatus) ? WEXITSTATUS(f->wstatus) : -1;
		v.signal = WIFSIGNALED(f->wstatus) ? WTERMSIG(f->wstatus) : 0;
	} else {
		v.signal = f->stopping ? SIGKILL : 0;
	}
	if (f->setup_error) {
		v.cause = SP_END_SETUP;
	} else if (!f->stopping && f->have_status && !f->prelude_started && v.exit_code != 0) {
		/* the interpreter ended before the prelude's first word: its
		 * error is sandpit's (an interpreter it cannot drive), not the
		 * program's, which never ran */
		v.cause = SP_END_NO_PRELUDE;
	} else if (f->stopping) {
		v.cause = SP_END_STOPPED;
		v.status = f->stop;
	} else if (f->oom_killed) {
		v.cause = SP_END_OOM;
		v.status = SP_STATUS_MEMORY_LIMIT;
	} else if (v.signal == SIGXCPU ||
		   (v.signal == SIGKILL && f->cpu_ms + 1000 >= f->cpu_limit_ms)) {
		v.cause = SP_END_CPU;
		v.status = SP_STATUS_CPU_LIMIT;
	} else if (!f->have_status) {
		v.cause = SP_END_NO_STATUS;
	} else {
		v.cause = SP_END_EXITED;
		v.status = v.exit_code == 0 ? SP_STATUS_OK :
			   f->exc_memory ? SP_STATUS_MEMORY_LIMIT : SP_STATUS_ERROR;
	}
	return v;
}
