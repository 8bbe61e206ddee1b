/*
 * sockmem.c - the memory the kernel holds in the sandbox's unix sockets.
 *
 * Data written to a socketpair that nobody reads sits in kernel buffers:
 * no process maps it, so neither RLIMIT_DATA nor the RSS samples see it,
 * and without a memory cgroup a program could hold gigabytes that way.
 * init opens a NETLINK_SOCK_DIAG socket inside the sandbox's network
 * namespace and hands it to the supervisor, which asks it for every unix
 * socket's send queue (the bytes, overhead included, that the socket has
 * written and no one has read yet) and counts their sum as memory.
 *
 * The program cannot reach this socket: init closes its copy before the
 * program starts, and the seccomp filter refuses netlink sockets anyway.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "internal.h"
#include "banned.h"

#define LISTEN_STATE 10 /* TCP_LISTEN: the queue is a count of connections */

int sp_sockmem_open(void)
{
	return socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
}

/* Adds one reply's send queues to *sum; 1 at the end of the dump. */
static int add_reply(const char *buf, size_t len, uint64_t *sum)
{
	for (const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
	     NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
		const struct unix_diag_msg *m = NLMSG_DATA(h);
		const struct rtattr *a;
		size_t alen;

		if (h->nlmsg_type == NLMSG_DONE)
			return 1;
		if (h->nlmsg_type == NLMSG_ERROR)
			return -1;
		if (h->nlmsg_len < NLMSG_LENGTH(sizeof *m) || m->udiag_state == LISTEN_STATE)
			continue;
		a = (const struct rtattr *)(m + 1);
		alen = h->nlmsg_len - NLMSG_LENGTH(sizeof *m);
		for (; RTA_OK(a, alen); a = RTA_NEXT(a, alen)) {
			const struct unix_diag_rqlen *q = RTA_DATA(a);
			if (a->rta_type == UNIX_DIAG_RQLEN && RTA_PAYLOAD(a) >= sizeof *q)
				*sum += q->udiag_wqueue;
		}
	}
	return 0;
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
	uint64_t sum = 0;

	memset(&ask, 0, sizeof ask);
	ask.nlh.nlmsg_len = sizeof ask;
	ask.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	ask.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	ask.req.sdiag_family = AF_UNIX;
	ask.req.udiag_states = ~0u;
	ask.req.udiag_show = UDIAG_SHOW_RQLEN;
	if (send(fd, &ask, sizeof ask, 0) != (ssize_t)sizeof ask)
		return -1;
	for (;;) {
		ssize_t n = recv(fd, reply.buf, sizeof reply.buf, 0);
		int rc;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		rc = add_reply(reply.buf, (size_t)n, &sum);
		if (rc < 0)
			return -1;
		if (rc > 0)
			break;
	}
	*bytes = sum;
	return 0;
}
