/* SPDX-License-Identifier: MIT */
/*
 * ini_lines.h - INI text for inih, with every bad line reported.
 *
 * inih parses on after a bad line but returns only the first one's number,
 * and its handler is not told which line it is on. This reader feeds inih
 * a string line by line, counts the lines, notes those inih cannot parse
 * (not `key = value`, `[section]`, a comment or a continuation), and keeps
 * the handler's errors beside their line numbers, in order.
 */
#ifndef SP_INI_LINES_H
#define SP_INI_LINES_H

#include <stddef.h>

#define INI_LINES_MAX_ERRORS 16

struct ini_lines {
	const char *text;   /* the whole input, NUL-terminated */
	size_t pos;
	int line;           /* lines handed to inih so far */
	int after_key;      /* a key line came last in this section */
	int n_err;          /* errors kept (at most INI_LINES_MAX_ERRORS) */
	int more;           /* errors past those */
	struct { int line; char msg[200]; } err[INI_LINES_MAX_ERRORS];
};

/* Read a host file for parsing: a regular file only (a FIFO is refused,
 * never waited on), at most max bytes, no NUL. malloc'd text, or NULL with
 * err = "FILE: what is wrong" (errno ENOENT kept when it does not exist). */
char *ini_lines_read_file(const char *path, size_t max, char *err, size_t errlen);

void ini_lines_init(struct ini_lines *in, const char *text);
/* The reader for ini_parse_stream (stream: the struct ini_lines). */
char *ini_lines_reader(char *str, int num, void *stream);
/* Record msg for the line inih is on; returns 0 (inih's "error"). */
int ini_lines_error(struct ini_lines *in, const char *msg);
/* After ini_parse_stream returned rc: its first bad line is kept too. */
void ini_lines_finish(struct ini_lines *in, int rc);
/* "FILE:LINE: msg" for each error, one a line, into out. The count. */
int ini_lines_format(const struct ini_lines *in, const char *file, char *out, size_t len);

#endif
