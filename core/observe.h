/* SPDX-License-Identifier: MIT */
/*
 * observe.h - reading a live sandbox from outside, for the accounting
 * when no cgroup can say: CPU, memory and tasks through the sandbox's own
 * /proc, the bytes its unix sockets and its pipes hold. Layer: above
 * base.h.
 *
 * Invariants: they only read, through descriptors the supervisor holds
 * (the sandbox's /proc, a sock_diag socket in its network namespace),
 * never through a path inside the sandbox; a figure they cannot read is
 * "cannot say" (-1, 0 or left as it was), never a stop; the cost of one
 * call is bounded however many processes the program makes.
 */
#ifndef SP_OBSERVE_H
#define SP_OBSERVE_H

#include "base.h"

/* usage.c: accounting through the sandbox's own /proc. */
struct sp_proc_sample {
	uint64_t cpu_ms;
	uint64_t rss_bytes;
	uint32_t procs;   /* processes and threads */
};
int sp_proc_sample(int procfd, long clk_tck, struct sp_proc_sample *out);
/* The program's processes and threads now (init left out); 0 on error. */
uint32_t sp_proc_count_tasks(int procfd);

/* sockmem.c: a NETLINK_SOCK_DIAG socket (opened in the sandbox's network
 * namespace), and the bytes queued in its unix sockets' send buffers. */
int sp_sockmem_open(void);
int sp_sockmem_bytes(int fd, uint64_t *bytes);  /* *bytes set only on success */

/* pipemem.c: what the sandbox's pipes may hold (an upper bound), every
 * pipe of every process once, but those whose inode is in skip; 0 or -1. */
int sp_pipemem_bytes(int procfd, const uint64_t *skip, size_t nskip, uint64_t *bytes);

#endif
