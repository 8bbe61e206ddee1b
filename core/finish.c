/* SPDX-License-Identifier: MIT */
/*
 * finish.c - the end of a run, once init has exited and so every process
 * of the sandbox is gone and the pump has drained its pipes: take the last
 * figures (and init's rusage, which covers every process it reaped), list
 * the files left in the work dir, decide the status from those facts
 * (status.c), and record the layers used.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_impl.h"
#include "interpreter.h"
#include "status.h"
#include "banned.h"

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
 * gives one record. The prelude's report of an uncaught error lends the
 * record its line; alone, without the kernel's evidence, it makes only a
 * runtime record, since the program can send any report it likes.
 */
static void limit_records_at_end(struct sp_run *r)
{
	struct sp_result *res = r->res;
	struct sp_violation *v;
	bool exc_disk = strcmp(r->chan.exc_kind, "disk") == 0;
	bool exc_proc = strcmp(r->chan.exc_kind, "process") == 0;
	int line = r->chan.exc_line > 0 ? r->chan.exc_line : 0;
	/* the work dir's tmpfs is as big as one file may be, so a file that
	 * really reached the size limit filled the work dir too: a file that
	 * only looks that big (sparse, made by truncate) used no room */
	bool dir_full = r->limits.disk_bytes > 65536 &&
			res->usage.disk_bytes + 65536 >= r->limits.disk_bytes;

	for (size_t i = 0; i < res->n_files && dir_full && !r->acct.disk_reported; i++)
		if (res->files[i].bytes >= r->limits.disk_bytes) {
			r->acct.disk_reported = true;
			sp_run_violation(r, SP_VIOL_DISK, true, exc_disk ? line : 0,
				  "file %s reached the size limit of %s",
				  res->files[i].path, SP_BYTES(r->limits.disk_bytes));
		}
	/* the work dir full (bytes or inodes), pids.events, the memory cgroup */
	sp_accounting_limit_records(r);
	if (!r->acct.disk_reported && exc_disk) {
		r->acct.disk_reported = true;
		sp_run_violation(r, SP_VIOL_DISK, false, line,
			  "a write failed for lack of room (ENOSPC, EFBIG or EDQUOT); "
			  "the disk limit is %s", SP_BYTES(r->limits.disk_bytes));
	} else if (exc_disk && (v = find_kind(r, SP_VIOL_DISK)) && !v->line) {
		v->line = line;
	}
	if (!r->acct.procs_reported && exc_proc) {
		r->acct.procs_reported = true;
		sp_run_violation(r, SP_VIOL_PROCESS, false, line,
			  "a new process or thread was refused; the limit is %u", r->limits.procs);
	} else if (exc_proc && (v = find_kind(r, SP_VIOL_PROCESS)) && !v->line) {
		v->line = line;
	}
}

/* The last figures: a last sample, init's rusage (it covers every
 * process init reaped) once init is reaped, and the files left. */
static void last_figures(struct sp_run *r, uint64_t wall_ms)
{
	struct sp_result *res = r->res;
	struct rusage ru;
	int st = 0;

	sp_accounting_sample(r);
	sp_timeline_point(r);
	memset(&ru, 0, sizeof ru);
	if (wait4(r->L.pid, &st, 0, &ru) == r->L.pid) {
		uint64_t cpu = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000u +
			       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000u;
		cpu = cpu > r->prep.cpu_base_ms ? cpu - r->prep.cpu_base_ms : 0;
		if (!sp_cgroup_has_cpu(r->cg) && cpu > res->usage.cpu_ms)
			res->usage.cpu_ms = cpu;
		if (!sp_cgroup_has_memory(r->cg) &&
		    (uint64_t)ru.ru_maxrss * 1024u > res->usage.peak_memory_bytes)
			res->usage.peak_memory_bytes = (uint64_t)ru.ru_maxrss * 1024u;
	}
	res->usage.wall_ms = wall_ms;
	if (sp_cgroup_has_memory(r->cg)) {
		uint64_t peak = sp_cgroup_memory_peak(r->cg);
		if (peak > res->usage.peak_memory_bytes)
			res->usage.peak_memory_bytes = peak;
		res->peak_memory_source = "cgroup";
	} else {
		res->peak_memory_source = "rss_samples";
	}
	res->usage.disk_bytes = sp_workdir_bytes(r->L.work_fd);
	sp_workdir_list(r->L.work_fd, &res->files, &res->n_files, 1000,
			r->files.placed, r->files.n_placed, &r->files.keep);
}

/* Decide the status from the facts alone (status.c), then add what the
 * deciding rule calls for. */
static void decide_status(struct sp_run *r, bool exc_memory)
{
	struct sp_result *res = r->res;
	struct sp_end_facts facts = {
		.setup_error = r->end.setup_error[0] != '\0',
		.have_status = r->end.have_status,
		.wstatus = r->end.wstatus,
		.stopping = r->end.stopping,
		.stop = r->end.stop,
		.prelude_started = r->chan.prelude_started,
		.oom_killed = sp_cgroup_oom_killed(r->cg),
		.cpu_ms = res->usage.cpu_ms,
		.cpu_limit_ms = r->limits.cpu_ms,
		.exc_memory = exc_memory,
	};
	struct sp_end_verdict end = sp_status_decide(&facts);

	res->status = end.status;
	res->exit_code = end.exit_code;
	res->signal = end.signal;
	if (end.cause == SP_END_NO_PRELUDE)
		snprintf(r->end.setup_error, sizeof r->end.setup_error,
			 "%s ended (%s %d) before sandpit's prelude could start, so the "
			 "program never ran; sandpit needs Python %d.%d or newer (its "
			 "stderr says why)", r->python, res->signal ? "signal" : "exit",
			 res->signal ? res->signal : res->exit_code, SP_PYTHON_MIN_MAJOR,
			 SP_PYTHON_MIN_MINOR);
	switch (end.cause) {
	case SP_END_NO_PRELUDE:
	case SP_END_SETUP:
		snprintf(res->error, sizeof res->error, "%s", r->end.setup_error);
		break;
	case SP_END_OOM:
		sp_run_violation(r, SP_VIOL_MEMORY, true, 0, "out of memory: the limit is %s",
				 SP_BYTES(r->limits.memory_bytes));
		break;
	case SP_END_CPU:
		sp_run_violation(r, SP_VIOL_CPU, true, 0, "CPU time %s of %s",
				 SP_MS(res->usage.cpu_ms), SP_MS(r->limits.cpu_ms));
		break;
	case SP_END_NO_STATUS:
		snprintf(res->error, sizeof res->error,
			 "the sandbox's init ended without reporting the program's status");
		break;
	case SP_END_STOPPED:
	case SP_END_EXITED:
		break;
	}
}

/* The records the end itself gives: a MemoryError the program reported,
 * a kill for another ABI's calls, the limits reached since the last
 * sample. */
static void end_records(struct sp_run *r, bool exc_memory)
{
	/* a MemoryError under RLIMIT_DATA leaves the kernel no trace the
	 * supervisor can see, and the program can send this report itself:
	 * the record is the runtime's */
	struct sp_violation *mv = find_kind(r, SP_VIOL_MEMORY);

	if (exc_memory && !mv)
		sp_run_violation(r, SP_VIOL_MEMORY, false, r->chan.exc_line,
			      "allocation over the memory limit of %s (MemoryError)",
			      SP_BYTES(r->limits.memory_bytes));
	else if (exc_memory && !mv->line && r->chan.exc_line > 0)
		mv->line = r->chan.exc_line; /* the kernel's record, the program's line */
	if (r->res->signal == SIGSYS && r->layers.seccomp_mode == 1)
		/* without user notification the filter kills what it cannot
		 * judge: another architecture's calling convention (x32, int
		 * 0x80), which would dodge every rule. With it, such a call is
		 * refused and recorded where it is made (seccomp.c), and a
		 * SIGSYS is the program's own signal, no kernel's record */
		sp_run_violation(r, SP_VIOL_SYSCALL, true, 0,
			      "a system call through another architecture's ABI (x32 or int 0x80): killed");
	limit_records_at_end(r);
}

/* The layers the run had, for the result's "layers". */
static void record_layers(struct sp_run *r)
{
	struct sp_result *res = r->res;
	char names[32];

	if (r->ids.own && r->ids.uid < SP_ROOT_HOST_ID_FIRST)
		sp_layer_set(res, SP_LAYER_USER_NS, true, "uid %d -> host %u (nobody: this "
			     "user namespace has none of sandpit's own ids, so runs share it)",
			     SP_SANDBOX_UID, (unsigned)r->ids.uid);
	else if (r->ids.own)
		sp_layer_set(res, SP_LAYER_USER_NS, true, "uid %d -> host %u, the run's own",
			     SP_SANDBOX_UID, (unsigned)r->ids.uid);
	else
		sp_layer_set(res, SP_LAYER_USER_NS, true, "uid %d -> host self", SP_SANDBOX_UID);
	sp_layer_set(res, SP_LAYER_PID_NS, true, "init is pid 1");
	sp_layer_set(res, SP_LAYER_MOUNT_NS, true, "pivot_root to a fresh read-only root");
	sp_layer_set(res, SP_LAYER_NET_NS, true, "empty: loopback only, down");
	sp_layer_set(res, SP_LAYER_IPC_NS, true, "private");
	sp_layer_set(res, SP_LAYER_UTS_NS, true, "hostname sandpit");
	sp_layer_set(res, SP_LAYER_SECCOMP, r->layers.seccomp_mode > 0, "%s",
		     r->layers.seccomp_mode == 2 ? "deny list, user notification" :
		     r->layers.seccomp_mode == 1 ? "deny list, errno only" : "not reached");
	if (r->layers.landlock_abi > 0)
		sp_layer_set(res, SP_LAYER_LANDLOCK, true, "ABI %d", r->layers.landlock_abi);
	else
		sp_layer_set(res, SP_LAYER_LANDLOCK, false, "the kernel has no Landlock");
	sp_layer_set(res, SP_LAYER_CAPS, true, "all dropped, bounding and ambient too");
	sp_layer_set(res, SP_LAYER_NO_NEW_PRIVS, true, "set");
	sp_layer_set(res, SP_LAYER_CGROUP, r->cg != NULL, "%s", r->cg_detail);
	sp_cgroup_bits_text(sp_cgroup_controllers(r->cg), names, sizeof names);
	sp_layer_set(res, SP_LAYER_CGROUP_CONTROLLERS, names[0] != '\0', "%s", names);
	sp_layer_set(res, SP_LAYER_RLIMITS, true, "every one set: cpu, data, stack, fsize, nproc, "
		     "nofile, no realtime priority or lower nice value");
	/* how the limits that a missing cgroup leaves to the filter were kept */
	if (sp_cgroup_has_cpu(r->cg))
		sp_layer_set(res, SP_LAYER_CPU_TREE, true, "the cgroup's CPU total");
	else
		sp_layer_set(res, SP_LAYER_CPU_TREE, r->layers.seccomp_mode > 0,
			     "/proc samples and init's rusage; SIGCHLD's action fixed, "
			     "so no child is reaped with its CPU time");
	if (sp_cgroup_has_pids_peak(r->cg))
		sp_layer_set(res, SP_LAYER_PROCESS_COUNT, true, "pids cgroup: pids.peak, pids.events");
	else if ((r->layers.filter & SP_FILTER_COUNT_PROCS) && r->layers.seccomp_mode == 2)
		sp_layer_set(res, SP_LAYER_PROCESS_COUNT, true,
			     "each clone, fork and vfork counted and refused at the limit by sandpit");
	else
		sp_layer_set(res, SP_LAYER_PROCESS_COUNT, false, "50 ms samples and RLIMIT_NPROC only");
	if ((r->layers.filter & SP_FILTER_OBSERVE_MEMORY) && r->layers.seccomp_mode == 2)
		sp_layer_set(res, SP_LAYER_MEMORY_REFUSALS, true,
			     "mappings over 1 MiB checked against RLIMIT_DATA");
	else
		sp_layer_set(res, SP_LAYER_MEMORY_REFUSALS, false,
			     "a refused allocation is seen only as the program's MemoryError");
	sp_layer_set(res, SP_LAYER_WORKDIR_TMPFS, true, "%s", SP_BYTES(r->limits.disk_bytes));
}

void sp_finish_run(struct sp_run *r, uint64_t wall_ms)
{
	struct sp_result *res = r->res;
	bool exc_memory = strcmp(r->chan.exc_kind, "memory") == 0;

	last_figures(r, wall_ms);
	if (r->prep.on && !r->prep.released)
		sp_prepare_on_finish(r); /* preparing ended: a setup error */
	decide_status(r, exc_memory);
	end_records(r, exc_memory);
	sp_timeline_end(r);
	sp_variables_take(r);
	sp_hints_from_tracebacks(res, r->out.errtail, r->out.errtail_len);
	if (r->chan.carry_out)
		res->carry_out = sp_json_dumps(r->chan.carry_out, JSON_COMPACT);
	record_layers(r);

	res->violations = r->viol.v;
	res->violation_contexts = r->viol.context;
	res->n_violations = r->viol.n;
	sp_cgroup_destroy(r->cg);
	r->cg = NULL;
	r->end.finished = true;
}
