/* SPDX-License-Identifier: MIT */
/*
 * call_queue.h - what `sandpit mcp` holds for calls not yet answered,
 * bounded: how many wait for a sandbox beyond the ones running, and the
 * bytes their requests hold (code, stdin, carry, files: all in memory,
 * request.h). A call over either bound is refused before it is queued,
 * with a message that says which bound and what to do, so a client that
 * sends faster than the runs end costs the server a bounded amount of
 * memory, not one request's worth for every call sent.
 *
 * Invariant: every call admitted leaves exactly once, with the bytes it
 * was admitted with.
 */
#ifndef CALL_QUEUE_H
#define CALL_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define CALL_QUEUE_WAITING 16             /* --max-queue's default */
#define CALL_QUEUE_BYTES (256ull << 20)   /* --max-pending's default */

struct call_queue {
	pthread_mutex_t lock;
	unsigned running;         /* sandboxes: calls that need not wait */
	unsigned max_waiting;     /* calls that may wait beyond those */
	uint64_t max_bytes;       /* the requests of all calls held */
	unsigned n;               /* held now: running and waiting */
	uint64_t bytes;
};

void call_queue_init(struct call_queue *q, unsigned running, unsigned max_waiting,
		     uint64_t max_bytes);
void call_queue_destroy(struct call_queue *q);
/* Take a call of bytes: 0, or -1 with why (for the client: the bound,
 * and what to do) when it would pass a bound. */
int call_queue_admit(struct call_queue *q, uint64_t bytes, char *why, size_t len);
/* A call admitted with bytes is answered (or dropped). */
void call_queue_leave(struct call_queue *q, uint64_t bytes);

#endif
