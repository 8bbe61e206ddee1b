/* SPDX-License-Identifier: MIT */
/*
 * accounting.c - what the run uses, sampled every 50 ms (sooner near the
 * CPU limit): from its cgroup where there is one, else from the sandbox's
 * own /proc; and the checks that stop a run (CPU, memory without a cgroup)
 * or record a limit reached (disk, processes). It owns the sampler's
 * timer, and what happens when the wall deadline is reached.
 */
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "run_impl.h"
#include "observe.h"
#include "banned.h"

void sp_accounting_sample(struct sp_run *r)
{
	struct sp_usage *u = &r->res->usage;
	struct sp_proc_sample ps;
	/* /proc is read only for what the cgroup cannot say: walking every
	 * process of the sandbox competes with the program it measures */
	bool need_proc = !sp_cgroup_has_cpu(r->cg) || !sp_cgroup_has_memory(r->cg) ||
			 !sp_cgroup_has_pids(r->cg);
	bool have_proc = need_proc && sp_proc_sample(r->L.proc_fd, r->acct.clk_tck, &ps) == 0;

	u->wall_ms = sp_run_now_ms(r);
	/* a prepared run's CPU counts from its release */
	if (have_proc)
		ps.cpu_ms = ps.cpu_ms > r->prep.cpu_base_ms ? ps.cpu_ms - r->prep.cpu_base_ms : 0;
	if (sp_cgroup_has_cpu(r->cg)) {
		uint64_t all = sp_cgroup_cpu_ms(r->cg);
		u->cpu_ms = all > r->prep.cpu_base_ms ? all - r->prep.cpu_base_ms : 0;
	} else if (have_proc && ps.cpu_ms > u->cpu_ms) {
		u->cpu_ms = ps.cpu_ms;
	}
	if (sp_cgroup_has_memory(r->cg)) {
		uint64_t peak = sp_cgroup_memory_peak(r->cg);
		u->memory_bytes = sp_cgroup_memory(r->cg);
		if (peak > u->peak_memory_bytes)
			u->peak_memory_bytes = peak;
	} else if (have_proc) {
		/* plus what its unix sockets hold, which no process maps (a
		 * memory cgroup charges that itself) */
		uint64_t queued = 0, piped = 0;  /* left 0 when they cannot say */
		if (r->L.sockmem_fd >= 0)
			(void)sp_sockmem_bytes(r->L.sockmem_fd, &queued);
		/* and its pipes, kernel memory just the same */
		(void)sp_pipemem_bytes(r->L.proc_fd, r->acct.own_pipes, 3, &piped);
		u->memory_bytes = ps.rss_bytes + queued + piped;
	}
	if (u->memory_bytes > u->peak_memory_bytes)
		u->peak_memory_bytes = u->memory_bytes;
	u->procs = sp_cgroup_has_pids(r->cg) ? sp_cgroup_procs(r->cg)
					      : (have_proc ? ps.procs : 0);
	if (u->procs > u->procs_peak)
		u->procs_peak = u->procs;
	if (sp_cgroup_has_pids_peak(r->cg)) {
		/* the kernel's own peak: a burst between two samples counts */
		uint32_t peak = sp_cgroup_procs_peak(r->cg);
		if (peak > u->procs_peak)
			u->procs_peak = peak;
	}
	u->disk_bytes = sp_workdir_bytes(r->L.work_fd);
	if (!r->end.init_done)
		sp_accounting_limit_records(r); /* at the end: after the finer ones */

	if (r->end.stopping || r->end.init_done)
		return;
	if (u->cpu_ms >= r->limits.cpu_ms) {
		sp_run_violation(r, SP_VIOL_CPU, true, 0, "CPU time %s of %s",
			  SP_MS(u->cpu_ms), SP_MS(r->limits.cpu_ms));
		sp_run_stop(r, SP_STATUS_CPU_LIMIT);
	} else if (!sp_cgroup_has_memory(r->cg) &&
		   u->memory_bytes > r->limits.memory_bytes) {
		sp_run_violation(r, SP_VIOL_MEMORY, true, 0, "memory %s of %s",
			  SP_BYTES(u->memory_bytes), SP_BYTES(r->limits.memory_bytes));
		sp_run_stop(r, SP_STATUS_MEMORY_LIMIT);
	}
}

/*
 * Limits that do not stop a run, recorded from the kernel's own evidence
 * (by a live sample, and once more at the end): the work dir full, of
 * bytes or of inodes; the pids cgroup's refusals (pids.events); the
 * memory cgroup reaching its limit (failcnt, memory.events "max"), which
 * a program that catches its MemoryError would otherwise hide.
 */
void sp_accounting_limit_records(struct sp_run *r)
{
	struct sp_usage *u = &r->res->usage;

	if (!r->acct.disk_reported && r->limits.disk_bytes > 65536 &&
	    u->disk_bytes + 65536 >= r->limits.disk_bytes) {
		r->acct.disk_reported = true;
		sp_run_violation(r, SP_VIOL_DISK, true, 0, "work dir full: %s of %s",
			  SP_BYTES(u->disk_bytes), SP_BYTES(r->limits.disk_bytes));
	}
	if (!r->acct.disk_reported && sp_workdir_files_left(r->L.work_fd) == 0) {
		r->acct.disk_reported = true;
		sp_run_violation(r, SP_VIOL_DISK, true, 0,
			      "work dir full: no room for another file (%u files and "
			      "directories at most)", SP_WORKDIR_INODES);
	}
	if (!r->acct.procs_reported && sp_cgroup_pids_hit(r->cg)) {
		r->acct.procs_reported = true;
		sp_run_violation(r, SP_VIOL_PROCESS, true, 0,
			      "a new process or thread over the limit of %u was refused",
			      r->limits.procs);
	}
	/* an OOM kill has its own record, made at the end */
	if (!r->acct.memory_reported && sp_cgroup_memory_hits(r->cg) > 0 &&
	    !sp_cgroup_oom_killed(r->cg)) {
		r->acct.memory_reported = true;
		sp_run_violation(r, SP_VIOL_MEMORY, true, 0,
			      "memory reached the limit of %s",
			      SP_BYTES(r->limits.memory_bytes));
	}
}

/* The next sample comes sooner when the CPU limit is near, so a CPU-bound
 * run stops within a few ms of it (the tree can burn ncpu ms per ms). */
void sp_accounting_arm(struct sp_run *r)
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
	timerfd_settime(r->src.sample_fd, 0, &its, NULL);
}

/* The wall limit is reached: stop the run (from the deadline timer, or
 * from a wait on a forward target that nobody reads). A preparation's
 * deadline is its own (prepare.c). */
void sp_accounting_deadline_reached(struct sp_run *r)
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
