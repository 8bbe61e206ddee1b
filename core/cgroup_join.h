/* SPDX-License-Identifier: MIT */
/*
 * cgroup_join.h - init joining the run's cgroup v1 controllers itself.
 *
 * A v1 move of another process (its pid written to cgroup.procs) takes
 * the kernel's cgroup_threadgroup_rwsem for writing, which waits for an
 * RCU grace period: 8-15 ms on the bench machine, on every root run's
 * way to the program. A thread that moves itself (its `tasks` file,
 * "0") needs no such lock. So the supervisor opens each controller's
 * `tasks` for writing, as root, and init, one thread, writes "0" to
 * each: the kernel checks the rights of whoever opened the file.
 * The supervisor makes the cgroups while init builds the root (their
 * mkdirs and limits off the run's way) and sends the files with START;
 * init joins before it starts the program, so the program and all it
 * starts are in every controller from their first instruction. (What
 * init wrote while building, /etc's copies and the prelude, is
 * sandpit's, not the program's.)
 * v2 needs none of this: init is cloned into its cgroup (CLONE_INTO_CGROUP).
 */
#ifndef SP_CGROUP_JOIN_H
#define SP_CGROUP_JOIN_H

#define SP_CGROUP_JOIN_MAX 3

struct sp_cgroup;

/* The run's v1 `tasks` files, open for writing, into fds; their count
 * (0: nothing to join this way; cg may be NULL). cg keeps them open
 * until sp_cgroup_destroy. */
int sp_cgroup_join_fds(const struct sp_cgroup *cg, int fds[SP_CGROUP_JOIN_MAX]);

/* In the child (init, or doctor's): the calling thread joins each of the n
 * cgroups whose `tasks` fds are given ("0" to each). -1 with errno at the
 * first that refuses. Async-signal-safe. */
int sp_cgroup_join_self(const int *fds, int n);

#endif
