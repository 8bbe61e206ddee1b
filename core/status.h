/* SPDX-License-Identifier: MIT */
/*
 * status.h - how a run ended, decided from facts alone (status.c): no
 * file, no clock, no run object, so every branch has a unit test
 * (tests/unit/test_core_status.c). finish.c gathers the facts once every
 * process is gone and its pipes are drained, then acts on the verdict.
 */
#ifndef SP_STATUS_H
#define SP_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#include "sandpit.h"

/* What is known once the sandbox is gone. */
struct sp_end_facts {
	bool setup_error;      /* setting up failed (an SP_CTL_ERROR came) */
	bool have_status;      /* init reported the program's wait status */
	int wstatus;           /* and this is it */
	bool stopping;         /* the supervisor killed the tree */
	enum sp_status stop;   /* and why */
	bool prelude_started;  /* the prelude's hello came on the channel */
	bool oom_killed;       /* the memory cgroup killed a process */
	uint64_t cpu_ms;       /* the CPU time used, and its limit */
	uint64_t cpu_limit_ms;
	bool exc_memory;       /* the prelude reported an uncaught MemoryError */
};

/* Which rule decided: what the caller has to add (a record, a message). */
enum sp_end_cause {
	SP_END_SETUP,          /* setting up failed: its message */
	SP_END_NO_PRELUDE,     /* the interpreter ended before the prelude ran */
	SP_END_STOPPED,        /* the supervisor's stop reason */
	SP_END_OOM,            /* the kernel's OOM killer: a memory record */
	SP_END_CPU,            /* SIGXCPU, or a kill at the CPU limit: a CPU record */
	SP_END_NO_STATUS,      /* init ended without the program's status */
	SP_END_EXITED,         /* the program's own ending: OK, an error, or
				* MEMORY_LIMIT for an uncaught MemoryError */
};

struct sp_end_verdict {
	enum sp_status status;
	enum sp_end_cause cause;
	int exit_code;         /* -1 unless the program exited */
	int signal;            /* the signal that ended it, or 0 */
};

/* The status, in this order: setting up failed, the supervisor's own
 * stop reason, what the kernel did (OOM, CPU), how the program ended. */
struct sp_end_verdict sp_status_decide(const struct sp_end_facts *f);

#endif
