/* SPDX-License-Identifier: MIT */
/*
 * limits.c - the default limits, the parsers for sizes and durations, and
 * the rlimits the program runs under. Defaults follow the spirit of a
 * code-runner sandbox: a few seconds of work, moderate memory, small
 * output.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "sandbox.h"
#include "buf.h"
#include "banned.h"

void sp_limits_default(struct sp_limits *l)
{
	*l = (struct sp_limits){ 0 };  /* the reserved room too */
	l->cpu_ms = 5000;
	l->wall_ms = 10000;
	l->memory_bytes = 512ull << 20;
	l->output_bytes = 1ull << 20;
	l->disk_bytes = 64ull << 20;
	l->carry_bytes = 1ull << 20;
	l->procs = 64;
}

int sp_parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;
	uint64_t mult = 1;

	/* decimal only: strtod would also take hex, inf and nan */
	if (!s || !isdigit((unsigned char)*s) || strpbrk(s, "xXpP"))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case '\0': break;
	case 'b': mult = 1; end++; break;
	case 'k': mult = 1ull << 10; end++; break;
	case 'm': mult = 1ull << 20; end++; break;
	case 'g': mult = 1ull << 30; end++; break;
	default: return -1;
	}
	/* accept "64M", "64MB", "64MiB" */
	if (mult > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (mult > 1 && (*end == 'b' || *end == 'B'))
		end++;
	if (*end)
		return -1;
	if (v * (double)mult > 9.0e18)
		return -1;
	*out = (uint64_t)(v * (double)mult);
	return 0;
}

int sp_parse_seconds(const char *s, uint64_t *out_ms)
{
	char *end;
	double v;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.') || strpbrk(s, "xXpP"))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (strcmp(end, "ms") == 0)
		v /= 1000.0;
	else if (*end && strcmp(end, "s") != 0)
		return -1;
	if (v > 1.0e9)
		return -1;
	*out_ms = (uint64_t)(v * 1000.0 + 0.5); /* 0 <= v <= 1e9: rounds */
	return 0;
}

/* Lower a limit to soft/hard; never try to raise past the hard limit we
 * were given (that fails, and would leave the limit as it was). */
static void set_limit(int res, uint64_t soft, uint64_t hard)
{
	struct rlimit rl = { (rlim_t)soft, (rlim_t)hard };
	struct rlimit cur;

	if (getrlimit(res, &cur) == 0 && cur.rlim_max != RLIM_INFINITY) {
		if (rl.rlim_max > cur.rlim_max)
			rl.rlim_max = cur.rlim_max;
		if (rl.rlim_cur > rl.rlim_max)
			rl.rlim_cur = rl.rlim_max;
	}
	setrlimit(res, &rl);
}

/*
 * Every rlimit is set, none inherited from the host: a host that grants
 * its user realtime priority (an audio group's RLIMIT_RTPRIO) or a lower
 * nice value must not pass that on. The process count has room for init
 * (pid 1 runs as the same uid, and RLIMIT_NPROC counts it), and one more
 * under a pids cgroup, so the cgroup refuses first and says so in
 * pids.events. RLIMIT_AS alone stays as the host has it: numpy and thread
 * stacks reserve address space they never use; RLIMIT_DATA and the
 * memory cgroup bound what is used.
 */
void sp_rlimits_apply(const struct sp_limits *l, bool pids_cgroup)
{
	uint64_t cpu_s = (l->cpu_ms + 999) / 1000 + 1; /* a backstop only */
	uint64_t nproc = (uint64_t)l->procs + (pids_cgroup ? 2 : 1);
	uint64_t stack = 8u << 20;

	if (stack > l->memory_bytes / 2)
		stack = l->memory_bytes / 2;
	set_limit(RLIMIT_CPU, cpu_s, cpu_s + 1);
	set_limit(RLIMIT_DATA, l->memory_bytes, l->memory_bytes);
	set_limit(RLIMIT_RSS, l->memory_bytes, l->memory_bytes); /* not enforced; shown */
	/* a stack counts in neither RLIMIT_DATA nor, without a cgroup, any
	 * limit but the RSS samples: an unlimited one is unbounded memory */
	set_limit(RLIMIT_STACK, stack, stack);
	set_limit(RLIMIT_FSIZE, l->disk_bytes, l->disk_bytes);
	set_limit(RLIMIT_NPROC, nproc, nproc);
	set_limit(RLIMIT_CORE, 0, 0);
	set_limit(RLIMIT_MEMLOCK, 64 << 10, 64 << 10);
	/* also the bound on descriptors in flight in unix sockets (the kernel
	 * checks the sender's RLIMIT_NOFILE), each of which may hold a pipe */
	set_limit(RLIMIT_NOFILE, SP_NOFILE, SP_NOFILE);
	set_limit(RLIMIT_MSGQUEUE, 0, 0);
	set_limit(RLIMIT_SIGPENDING, 256, 256);
	set_limit(RLIMIT_LOCKS, 256, 256);
	/* no realtime class, no nice value below 0 (20 - RLIMIT_NICE) */
	set_limit(RLIMIT_RTPRIO, 0, 0);
	set_limit(RLIMIT_RTTIME, 0, 0);
	set_limit(RLIMIT_NICE, 0, 0);
}

const char *sp_status_name(enum sp_status s)
{
	static const char *const names[] = {
		[SP_STATUS_OK] = "ok",
		[SP_STATUS_ERROR] = "error",
		[SP_STATUS_CPU_LIMIT] = "cpu_limit",
		[SP_STATUS_WALL_LIMIT] = "wall_limit",
		[SP_STATUS_MEMORY_LIMIT] = "memory_limit",
		[SP_STATUS_OUTPUT_LIMIT] = "output_limit",
		[SP_STATUS_KILLED] = "killed",
		[SP_STATUS_SANDBOX_ERROR] = "sandbox_error",
	};
	if ((unsigned)s >= SP_ARRAY_SIZE(names))
		return "unknown";
	return names[s];
}
