/* SPDX-License-Identifier: MIT */
/*
 * launch.h - starting a sandbox (launch.c); used by the run loop only.
 * On success the caller owns every fd in struct sp_launched and must reap
 * pid (the sandbox's init).
 */
#ifndef SP_LAUNCH_H
#define SP_LAUNCH_H

#include "sandbox.h"
#include "cgroup_join.h"

struct sp_launch_spec {
	const char *python;
	const char *filename;
	struct sp_limits limits;
	struct sp_mount_plan mounts;
	int stdin_fd;            /* or -1 for /dev/null */
	int out_w, err_w, chan_w; /* the program's ends of the pipes */
	/* A prepared run (prepare.c): the program's end of the release
	 * socket, its fd SP_REL_FD until the prelude closes it, and the
	 * modules to import ahead, "numpy,pandas"; else -1 and NULL. */
	int rel_fd;
	const char *preload;
	/* The terminal's size for COLUMNS and LINES, 0 for none (a prepared
	 * run is told at its release instead). */
	unsigned columns, lines;
	/* v2: the run's cgroup, which init is cloned straight into
	 * (sp_cgroup_fd), or -1: sp_launch_ready then moves init, unless
	 * it joins the files sp_launch_go sends (v1, cgroup_join.h) */
	int cgroup_fd;
	/* the host ids the sandbox user maps to (sp_host_ids_take) */
	uid_t host_uid;
	gid_t host_gid;
};

struct sp_launched {
	pid_t pid;
	int pidfd;
	int ctl;
	int work_fd;
	int proc_fd;
	int sockmem_fd;          /* sock_diag in the sandbox's netns, or -1 */
	bool in_cgroup;          /* init was cloned into spec->cgroup_fd, or
				  * joins the `tasks` files go sends */
};

/* In sp_launch_go's go: besides the filter variant (SP_FILTER_*), the
 * run has a pids cgroup (its limit refuses before RLIMIT_NPROC does). */
#define SP_GO_PIDS_CGROUP 0x80u

/* Three steps, so the caller can make the run's cgroups while init
 * builds the root, and fill the work dir before the program starts:
 * start clones init (into the run's v2 cgroup where it can) and maps its
 * user; ready places init in cg (may be NULL) if it is not there yet and
 * will not join it itself (cg's v1 `tasks` files, sp_cgroup_join_fds),
 * and waits until the root is built (work_fd is then the work dir,
 * which nothing of the sandbox's runs in yet); go sends those files and
 * lets init join them and start the program, with the filter variant and
 * SP_GO_* flags. Each one cleans up after itself when it fails. */
int sp_launch_start(const struct sp_launch_spec *spec, struct sp_launched *out,
		    struct sp_error *err);
int sp_launch_ready(struct sp_launched *L, struct sp_cgroup *cg,
		    struct sp_error *err);
int sp_launch_go(struct sp_launched *L, const struct sp_cgroup *cg, unsigned go,
		 struct sp_error *err);
/* Kill and reap init, close every fd of L. */
void sp_launch_abort(struct sp_launched *L);
/* Close every fd of L (each left -1). */
void sp_launched_close(struct sp_launched *L);

#endif
