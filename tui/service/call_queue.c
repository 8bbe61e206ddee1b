/* SPDX-License-Identifier: MIT */
/*
 * call_queue.c - the bounds on calls held by `sandpit mcp` (call_queue.h).
 */
#include <stdio.h>

#include "sandpit.h"
#include "service/call_queue.h"
#include "banned.h"

void call_queue_init(struct call_queue *q, unsigned running, unsigned max_waiting,
		     uint64_t max_bytes)
{
	pthread_mutex_init(&q->lock, NULL);
	q->running = running;
	q->max_waiting = max_waiting;
	q->max_bytes = max_bytes;
	q->n = 0;
	q->bytes = 0;
}

void call_queue_destroy(struct call_queue *q)
{
	pthread_mutex_destroy(&q->lock);
}

int call_queue_admit(struct call_queue *q, uint64_t bytes, char *why, size_t len)
{
	char max[32], held[32], asked[32];
	int rc = 0;

	pthread_mutex_lock(&q->lock);
	if (q->n >= q->running + q->max_waiting) {
		snprintf(why, len, "the server is busy (running %u, waiting %u, the most it "
			 "queues: --max-queue %u); nothing ran: send this call again when one "
			 "of yours has its result", q->n < q->running ? q->n : q->running,
			 q->n > q->running ? q->n - q->running : 0, q->max_waiting);
		rc = -1;
	} else if (bytes > q->max_bytes - (q->bytes < q->max_bytes ? q->bytes : q->max_bytes)) {
		sp_format_bytes(q->max_bytes, max, sizeof max);
		sp_format_bytes(q->bytes, held, sizeof held);
		sp_format_bytes(bytes, asked, sizeof asked);
		snprintf(why, len, "the server is holding %s of requests not yet answered and this "
			 "one brings %s: over its bound of %s (--max-pending); nothing ran: send "
			 "it again when one of yours has its result%s", held, asked, max,
			 q->n ? "" : ", or send big inputs as files under an --allow-dir");
		rc = -1;
	} else {
		q->n++;
		q->bytes += bytes;
	}
	pthread_mutex_unlock(&q->lock);
	return rc;
}

void call_queue_leave(struct call_queue *q, uint64_t bytes)
{
	pthread_mutex_lock(&q->lock);
	q->n--;
	q->bytes -= bytes;
	pthread_mutex_unlock(&q->lock);
}
