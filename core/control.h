/* SPDX-License-Identifier: MIT */
/*
 * control.h - the messages on the control socket between the supervisor,
 * the sandbox's init and the program's first moments (before its execve).
 *
 * The socket is SOCK_SEQPACKET: one message per datagram, its first byte
 * one of these, what follows it said below. In the order of a run:
 */
#ifndef SP_CONTROL_H
#define SP_CONTROL_H

enum sp_ctl_msg {
	/* supervisor -> init, once the user maps are written: build the root.
	 * Nothing follows. */
	SP_CTL_BUILD = 'g',
	/* init -> supervisor, the root is built. Nothing follows; fds: the
	 * work dir, /proc, and the sock_diag socket if there is one. */
	SP_CTL_READY = 'R',
	/* supervisor -> init, the files in are in the work dir: start the
	 * program. One byte follows: the filter's variant | SP_GO_*; fds:
	 * the run's v1 `tasks` files, which init joins first
	 * (cgroup_join.h), if any. */
	SP_CTL_START = 'c',
	/* program -> supervisor, every layer is on. Two bytes follow: the
	 * Landlock ABI, and 1 if an fd is passed; fd: the seccomp
	 * notification fd. */
	SP_CTL_LAYERS = 'N',
	/* any of them -> supervisor, setting up failed (the run fails
	 * closed). The text follows, not NUL-terminated. */
	SP_CTL_ERROR = 'E',
	/* init -> supervisor, the program ended (everything else is killed).
	 * Its wait status follows, an int in host byte order. */
	SP_CTL_EXIT = 'X',
};

#endif
