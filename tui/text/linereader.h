/* SPDX-License-Identifier: MIT */
/*
 * linereader.h - newline-ended lines from a file descriptor, each at most
 * a bound: the framing of `sandpit run --batch` (JSON lines) and of
 * `sandpit mcp` (newline-delimited JSON-RPC). A line over the bound is
 * read through to its newline and dropped, never held whole, so a
 * 100 MiB line costs no 100 MiB.
 */
#ifndef LINEREADER_H
#define LINEREADER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

/* The bytes of a line over the bound, in order, as they are dropped. */
typedef void line_drop_fn(void *ctx, const char *bytes, size_t n);

struct line_reader {
	int fd;
	size_t max;
	char *buf;
	size_t len, cap, start;
	bool eof, skipping;
	volatile sig_atomic_t *stop; /* set by a signal handler: end as at EOF */
	line_drop_fn *drop;          /* optional: shown what is dropped */
	void *drop_ctx;
};

enum { LINE_EOF = 0, LINE_OK = 1, LINE_TOO_LONG = 2 };

void line_reader_init(struct line_reader *lr, int fd, size_t max);
/* Block for the next line: LINE_OK with *line (NUL-ended, no newline,
 * valid until the next call) and *len; LINE_TOO_LONG for a line over
 * max (dropped); LINE_EOF at the end of input or a read error (a last
 * line without its newline still comes first). */
int line_read(struct line_reader *lr, char **line, size_t *len);
void line_reader_free(struct line_reader *lr);

/*
 * The read loop of a line service: every line of fd to its end (or to
 * *stop, when stop is not NULL), numbered from 1. A blank line (spaces
 * and tabs only) asks nothing: it is counted and skipped. each() gets the
 * others with their number, and a line over max as line NULL, len 0.
 */
typedef void line_fn(void *ctx, size_t line_no, const char *line, size_t len);
void line_read_each(int fd, size_t max, volatile sig_atomic_t *stop, line_fn *each,
		    void *ctx);
/* The same, with drop (when not NULL) shown each byte of a line over max
 * before each() hears of that line (`sandpit mcp` reads its id there). */
void line_read_each_dropping(int fd, size_t max, volatile sig_atomic_t *stop, line_fn *each,
			     line_drop_fn *drop, void *ctx);

/* The service's way to end on a signal: each of signals (a list ended
 * by 0) gets a handler, without SA_RESTART so a blocked read returns,
 * that sets the flag returned (put it in a reader's stop: it ends as at
 * EOF); SIGPIPE is ignored (a client gone is a write error, not a
 * death). One flag for the process, set from then on: the number of the
 * signal that came (the last, when several did). */
volatile sig_atomic_t *line_stop_on_signals(const int *signals);

#endif
