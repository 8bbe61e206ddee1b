/* SPDX-License-Identifier: MIT */
/*
 * linereader.c - bounded lines from an fd (linereader.h). One buffer,
 * grown up to the bound; the consumed prefix is moved out before each
 * read.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/linereader.h"
#include "banned.h"

#define CHUNK (64u << 10)

static volatile sig_atomic_t stop_signalled;
/* The stop signal's handler writes a byte here too: a signal that comes
 * between the look at the flag and the read still wakes the wait. */
static int stop_pipe[2] = { -1, -1 };

/* Wait until fd can be read or a stop signal came: 1 to read, 0 to stop. */
static int wait_readable(const struct line_reader *lr)
{
	struct pollfd p[2] = { { lr->fd, POLLIN, 0 }, { stop_pipe[0], POLLIN, 0 } };

	for (;;) {
		if (lr->stop && *lr->stop)
			return 0;
		if (!lr->stop || stop_pipe[0] < 0)
			return 1;
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			return 1; /* the read says what is wrong */
		if (p[1].revents)
			return !*lr->stop;
		if (p[0].revents)
			return 1;
	}
}

void line_reader_init(struct line_reader *lr, int fd, size_t max)
{
	memset(lr, 0, sizeof *lr);
	lr->fd = fd;
	lr->max = max;
}

void line_reader_free(struct line_reader *lr)
{
	free(lr->buf);
	lr->buf = NULL;
	lr->len = lr->cap = lr->start = 0;
}

/* Read more onto the buffer: 1, or 0 at EOF or error. */
static int fill(struct line_reader *lr)
{
	ssize_t n;

	if (lr->start) {
		memmove(lr->buf, lr->buf + lr->start, lr->len - lr->start);
		lr->len -= lr->start;
		lr->start = 0;
	}
	if (lr->cap - lr->len < CHUNK) {
		size_t cap = lr->cap ? lr->cap * 2 : 2 * CHUNK;
		char *b = realloc(lr->buf, cap + 1);
		if (!b)
			return 0;
		lr->buf = b;
		lr->cap = cap;
	}
	for (;;) {
		if (!wait_readable(lr))
			return 0;
		n = read(lr->fd, lr->buf + lr->len, lr->cap - lr->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		lr->len += (size_t)n;
		return 1;
	}
}

static void dropped(struct line_reader *lr, const char *bytes, size_t n)
{
	if (lr->drop && n)
		lr->drop(lr->drop_ctx, bytes, n);
}

int line_read(struct line_reader *lr, char **line, size_t *len)
{
	size_t scanned = 0;

	for (;;) {
		char *s = lr->buf ? lr->buf + lr->start : NULL;
		size_t have = lr->len - lr->start;
		char *nl = s ? memchr(s + scanned, '\n', have - scanned) : NULL;

		if (nl) {
			size_t n = (size_t)(nl - s);
			lr->start += n + 1;
			if (lr->skipping || n > lr->max) {
				dropped(lr, s, n);
				lr->skipping = false;
				return LINE_TOO_LONG;
			}
			*nl = '\0';
			if (n > 0 && s[n - 1] == '\r')
				s[--n] = '\0';
			*line = s;
			*len = n;
			return LINE_OK;
		}
		scanned = have;
		if (lr->skipping || have > lr->max) {
			/* over the bound: drop what is held, read on to the newline */
			dropped(lr, s, have);
			lr->skipping = true;
			lr->start = lr->len = 0;
			scanned = 0;
		}
		if (lr->eof || !fill(lr)) {
			lr->eof = true;
			have = lr->len - lr->start;
			if (lr->skipping) {
				dropped(lr, lr->buf + lr->start, have);
				lr->skipping = false;
				lr->start = lr->len = 0;
				return LINE_TOO_LONG;
			}
			if (have == 0)
				return LINE_EOF;
			s = lr->buf + lr->start;
			s[have] = '\0';
			lr->start = lr->len;
			*line = s;
			*len = have;
			return LINE_OK;
		}
		/* fill() moved the data to the buffer's start */
	}
}

void line_read_each(int fd, size_t max, volatile sig_atomic_t *stop, line_fn *each,
		    void *ctx)
{
	line_read_each_dropping(fd, max, stop, each, NULL, ctx);
}

void line_read_each_dropping(int fd, size_t max, volatile sig_atomic_t *stop, line_fn *each,
			     line_drop_fn *drop, void *ctx)
{
	struct line_reader lr;
	size_t line_no = 0;
	char *line;
	size_t len;
	int got;

	line_reader_init(&lr, fd, max);
	lr.stop = stop;
	lr.drop = drop;
	lr.drop_ctx = ctx;
	while ((got = line_read(&lr, &line, &len)) != LINE_EOF) {
		line_no++;
		if (got == LINE_TOO_LONG)
			each(ctx, line_no, NULL, 0);
		else if (strspn(line, " \t") != len)
			each(ctx, line_no, line, len);
	}
	line_reader_free(&lr);
}

static void on_stop_signal(int sig)
{
	int saved = errno;

	stop_signalled = sig;
	if (stop_pipe[1] >= 0 && write(stop_pipe[1], "", 1) < 0)
		(void)0; /* full: a byte is there already */
	errno = saved;
}

volatile sig_atomic_t *line_stop_on_signals(const int *signals)
{
	struct sigaction sa;

	if (stop_pipe[0] < 0 && pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		stop_pipe[0] = stop_pipe[1] = -1; /* the flag alone, as before */
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: the read ends */
	for (; *signals; signals++)
		sigaction(*signals, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return &stop_signalled;
}
