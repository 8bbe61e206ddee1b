/* SPDX-License-Identifier: MIT */
/*
 * linereader.c - bounded lines from an fd (linereader.h). One buffer,
 * grown up to the bound; the consumed prefix is moved out before each
 * read.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/linereader.h"
#include "banned.h"

#define CHUNK (64u << 10)

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
		if (lr->stop && *lr->stop)
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

static volatile sig_atomic_t stop_signalled;

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
	(void)sig;
	stop_signalled = 1;
}

volatile sig_atomic_t *line_stop_on_signals(const int *signals)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal; /* no SA_RESTART: the read ends */
	for (; *signals; signals++)
		sigaction(*signals, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return &stop_signalled;
}
