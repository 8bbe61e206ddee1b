/*
 * launch.h - starting a sandbox (launch.c); used by the run loop only.
 * On success the caller owns every fd in struct sp_launched and must reap
 * pid (the sandbox's init).
 */
#ifndef SP_LAUNCH_H
#define SP_LAUNCH_H

#include "internal.h"

struct sp_launch_spec {
	const char *python;
	const char *filename;
	struct sp_limits limits;
	struct sp_mount_plan mounts;
	int stdin_fd;            /* or -1 for /dev/null */
	int out_w, err_w, chan_w; /* the program's ends of the pipes */
};

struct sp_launched {
	pid_t pid;
	int pidfd;
	int ctl;
	int work_fd;
	int proc_fd;
};

int sp_launch(const struct sp_launch_spec *spec, struct sp_cgroup *cg,
	      struct sp_launched *out, struct sp_error *err);

#endif
