/* SPDX-License-Identifier: MIT */
/*
 * run_term.c - a run's output cleaned for a terminal (see run_term.h):
 * tui/text/vt_output.c splits it into text, carriage returns, backspaces and
 * colour changes; this writes each back, the colour as a fresh SGR of
 * its own making, so no byte of the program's escape reaches the screen.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "cmd/run_term.h"
#include "banned.h"

static void put(struct run_term *t, const char *s, size_t n)
{
	while (n && !t->failed) {
		ssize_t w = write(t->fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			t->failed = true; /* a terminal gone: the rest is dropped */
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* SGR for a look: reset, then bold, underline, a colour of the 16. */
static void put_look(struct run_term *t, unsigned char look)
{
	char sgr[32];
	unsigned fg = look & VT_FG_MASK;
	int n;

	if (!t->color || look == t->look)
		return;
	n = snprintf(sgr, sizeof sgr, "\033[0%s%s", look & VT_BOLD ? ";1" : "",
		     look & VT_UNDERLINE ? ";4" : "");
	if (fg >= 1 && fg <= 8)
		n += snprintf(sgr + n, sizeof sgr - (size_t)n, ";%u", 30 + fg - 1);
	else if (fg >= 9 && fg <= 16)
		n += snprintf(sgr + n, sizeof sgr - (size_t)n, ";%u", 90 + fg - 9);
	n += snprintf(sgr + n, sizeof sgr - (size_t)n, "m");
	put(t, sgr, (size_t)n);
	t->look = look;
}

static void sink_text(void *ctx, const char *s, size_t n, unsigned char look)
{
	struct run_term *t = ctx;

	put_look(t, look);
	put(t, s, n);
}

static void sink_cr(void *ctx)
{
	put(ctx, "\r", 1);
}

static void sink_bs(void *ctx)
{
	put(ctx, "\b", 1);
}

static const struct vt_sink *sink_of(struct run_term *t)
{
	static _Thread_local struct vt_sink s;

	s.ctx = t;
	s.text = sink_text;
	s.cr = sink_cr;
	s.bs = sink_bs;
	return &s;
}

void run_term_init(struct run_term *t, int fd, bool color)
{
	vt_init(&t->vs);
	t->fd = fd;
	t->look = 0;
	t->color = color;
	t->failed = false;
}

void run_term_feed(struct run_term *t, const char *data, size_t len)
{
	vt_feed(&t->vs, data, len, sink_of(t));
}

void run_term_finish(struct run_term *t)
{
	vt_finish(&t->vs, sink_of(t));
	put_look(t, 0);
}
