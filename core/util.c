/* SPDX-License-Identifier: MIT */
/*
 * util.c - small helpers every core file leans on: error text, whole
 * reads and writes, clocks, and passing fds over a unix socket.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base.h"
#include "buf.h"
#include "banned.h"

int sp_fail(struct sp_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int sp_fail_errno(struct sp_error *err, const char *fmt, ...)
{
	int saved = errno; /* before anything can clobber it */
	va_list ap;
	size_t used;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	used = strlen(err->msg);
	snprintf(err->msg + used, sizeof err->msg - used, ": %s",
		 strerror(saved));
	errno = saved;
	return -1;
}

int sp_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int sp_write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = sp_write_all(fd, text, strlen(text));
	if (close(fd) < 0)
		rc = -1;
	return rc;
}

char *sp_read_file_at(int dirfd, const char *path, size_t max, size_t *len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	struct sp_buf b = SP_BUF_INIT;

	if (fd < 0)
		return NULL;
	/* at most max bytes: what lies beyond is not read */
	while (b.len < max) {
		size_t room = max - b.len < 4096 ? max - b.len : 4096;
		ssize_t n;

		if (sp_buf_reserve(&b, room) < 0)
			break;
		n = read(fd, b.data + b.len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			sp_buf_free(&b);
			close(fd);
			return NULL;
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
		b.data[b.len] = '\0';
	}
	close(fd);
	return sp_buf_detach(&b, len);
}

char *sp_read_file(const char *path, size_t max, size_t *len)
{
	return sp_read_file_at(AT_FDCWD, path, max, len);
}

uint64_t sp_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int sp_fd_move_above(int fd, int min)
{
	int moved;

	if (fd >= min)
		return fd;
	moved = fcntl(fd, F_DUPFD_CLOEXEC, min);
	/* fd is closed either way: the caller replaces it with the result */
	sp_close_keep_errno(fd);
	return moved;
}

DIR *sp_opendir_at(int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	d = fdopendir(fd);
	if (!d)
		sp_close_keep_errno(fd);
	return d;
}

void sp_close_keep_errno(int fd)
{
	int saved = errno;

	if (fd >= 0)
		close(fd);
	errno = saved;
}

int sp_send_fds(int sock, const void *msg, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nfds > 4)
		return -1;
	if (nfds > 0) {
		struct cmsghdr *c;
		memset(&u, 0, sizeof u);
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
	}
	for (;;) {
		ssize_t n = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 ? -1 : 0;
	}
}

ssize_t sp_recv_fds(int sock, void *msg, size_t len, int *fds, int *nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = msg, .iov_len = len };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof u.buf,
	};
	struct cmsghdr *c;
	int want = nfds ? *nfds : 0, got = 0;
	ssize_t n;

	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		int tmp[4];
		if (count > 4)
			count = 4;
		memcpy(tmp, CMSG_DATA(c), sizeof(int) * (size_t)count);
		for (int i = 0; i < count; i++) {
			if (got < want)
				fds[got++] = tmp[i];
			else
				close(tmp[i]); /* never leak what we did not ask for */
		}
	}
	if (nfds)
		*nfds = got;
	return n;
}
