/* SPDX-License-Identifier: MIT */
/*
 * sockmem.c - the memory the kernel holds in the sandbox's unix sockets.
 *
 * Data written to a socketpair that nobody reads sits in kernel buffers:
 * no process maps it, so neither RLIMIT_DATA nor the RSS samples see it,
 * and without a memory cgroup a program could hold gigabytes that way.
 * init opens a NETLINK_SOCK_DIAG socket inside the sandbox's network
 * namespace and hands it to the supervisor, which asks it for every unix
 * socket's queues and counts them as memory, each byte once:
 *
 *   send queue     (udiag_wqueue) the bytes, overhead included, that the
 *                  socket has written and no one has read yet, wherever
 *                  they wait: the sum of these over the dump.
 *   receive queue  (udiag_rqueue) what waits to be read here. While the
 *                  writer is alive its send queue holds the same bytes;
 *                  once it is closed it leaves the dump, and its bytes
 *                  stay queued at the reader (one process held 800 MiB
 *                  that way under --memory 64M). So a receive queue
 *                  counts when its peer is not a live socket of the
 *                  dump: a stream's in full; a datagram socket's as the
 *                  most a writer could have left in it (the kernel tells
 *                  only the first datagram's size), twice wmem_max.
 *
 * The program cannot reach this socket: init closes its copy before the
 * program starts, and the seccomp filter refuses netlink sockets anyway.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "observe.h"
#include "buf.h"
#include "banned.h"

#define LISTEN_STATE 10 /* TCP_LISTEN: the queue is a count of connections */

int sp_sockmem_open(void)
{
	return socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
}

/* One socket of the dump, as far as the count needs it. */
struct sock_q {
	uint32_t ino, peer;       /* peer: 0 when none or gone */
	uint32_t rqueue, wqueue;
	bool dgram;
};

struct sock_list {
	struct sock_q *v;
	size_t n, cap;
};

/* Adds one reply's sockets to l; 1 at the end of the dump. */
static int add_reply(const char *buf, size_t len, struct sock_list *l)
{
	for (const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
	     NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		const struct unix_diag_msg *m = NLMSG_DATA(h);
		const struct rtattr *a;
		struct sock_q q = { 0, 0, 0, 0, false };
		size_t alen;

		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return -1;
		if (h->nlmsg_len < NLMSG_LENGTH(sizeof *m) || m->udiag_state == LISTEN_STATE)
			continue;
		q.ino = m->udiag_ino;
		q.dgram = m->udiag_type == SOCK_DGRAM;
		a = (const struct rtattr *)(m + 1);
		alen = h->nlmsg_len - NLMSG_LENGTH(sizeof *m);
		for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
			if (a->rta_type == UNIX_DIAG_RQLEN &&
			    RTA_PAYLOAD(a) >= sizeof(struct unix_diag_rqlen)) {
				const struct unix_diag_rqlen *rq = RTA_DATA(a);
				q.rqueue = rq->udiag_rqueue;
				q.wqueue = rq->udiag_wqueue;
			} else if (a->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(a) >= sizeof(uint32_t)) {
				memcpy(&q.peer, RTA_DATA(a), sizeof q.peer);
			}
		}
		if (!q.rqueue && !q.wqueue)
			continue; /* holds nothing: need not be looked at again */
		if (l->n == l->cap) {
			struct sock_q *more = sp_grow(l->v, &l->cap, l->n + 1, sizeof *more);
			if (!more)
				return -1;
			l->v = more;
		}
		l->v[l->n++] = q;
	}
	return 0;
}

static int by_ino(const void *a, const void *b)
{
	uint32_t x = ((const struct sock_q *)a)->ino, y = ((const struct sock_q *)b)->ino;

	return x < y ? -1 : x > y;
}

/* The most a closed datagram writer can have left queued: its send
 * buffer's ceiling (SO_SNDBUF doubles what it is given, up to wmem_max). */
static uint64_t dgram_bound(void)
{
	static uint64_t bound;
	char text[32] = "";
	int fd;

	if (bound)
		return bound;
	fd = open("/proc/sys/net/core/wmem_max", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, text, sizeof text - 1);
		text[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	bound = 2 * (strtoull(text, NULL, 10) ? strtoull(text, NULL, 10) : 212992);
	return bound;
}

/* Each queued byte once: every send queue, and the receive queues whose
 * writer has left the dump (this file's opening comment). */
static uint64_t queued_bytes(struct sock_list *l)
{
	uint64_t sum = 0;

	/* every socket that holds anything is here; a live writer that holds
	 * nothing more has written nothing that waits */
	qsort(l->v, l->n, sizeof *l->v, by_ino);
	for (size_t i = 0; i < l->n; i++) {
		const struct sock_q *q = &l->v[i];
		struct sock_q key = { q->peer, 0, 0, 0, false };
		sum += q->wqueue;
		if (!q->rqueue)
			continue;
		if (q->peer && bsearch(&key, l->v, l->n, sizeof *l->v, by_ino))
			continue; /* its writer's send queue holds these bytes */
		sum += q->dgram ? dgram_bound() : q->rqueue;
	}
	return sum;
}

int sp_sockmem_bytes(int fd, uint64_t *bytes)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} ask;
	/* aligned for the headers the kernel writes into it */
	union {
		struct nlmsghdr h;
		char buf[32768];
	} reply;
	struct sock_list l = { NULL, 0, 0 };
	int rc = -1;

	memset(&ask, 0, sizeof ask);
	ask.nlh.nlmsg_len = sizeof ask;
	ask.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	ask.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	ask.req.sdiag_family = AF_UNIX;
	ask.req.udiag_states = ~0u;
	ask.req.udiag_show = UDIAG_SHOW_RQLEN | UDIAG_SHOW_PEER;
	if (send(fd, &ask, sizeof ask, 0) != (ssize_t)sizeof ask)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, reply.buf, sizeof reply.buf, 0);
		int got;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto out;
		got = add_reply(reply.buf, (size_t)n, &l);
		if (got < 0)
			goto out;
		if (got > 0)
			break;
	}
	*bytes = queued_bytes(&l);
	rc = 0;
out:
	free(l.v);
	return rc;
}
