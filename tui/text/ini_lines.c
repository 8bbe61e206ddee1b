/* SPDX-License-Identifier: MIT */
/*
 * ini_lines.c - INI text for inih, with every bad line reported (see
 * ini_lines.h). inih does the parsing; this only counts and remembers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/ini_lines.h"
#include "text/fileio.h"
#include "banned.h"

char *ini_lines_read_file(const char *path, size_t max, char *err, size_t errlen)
{
	struct fio_error e;
	size_t n;
	char *buf = fio_read(path, max, 0, &n, &e);

	if (!buf) {
		snprintf(err, errlen, "%s", e.msg);
		errno = e.err;
		return NULL;
	}
	if (memchr(buf, '\0', n)) {
		snprintf(err, errlen, "%s: not a text file", path);
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	return buf;
}

void ini_lines_init(struct ini_lines *in, const char *text)
{
	memset(in, 0, sizeof *in);
	in->text = text;
}

static void add(struct ini_lines *in, int line, const char *msg)
{
	int at;

	for (int i = 0; i < in->n_err; i++)
		if (in->err[i].line == line)
			return; /* one message a line: the first */
	if (in->n_err == INI_LINES_MAX_ERRORS) {
		in->more++;
		return;
	}
	/* kept in line order (inih's own first error may come last) */
	for (at = in->n_err; at > 0 && in->err[at - 1].line > line; at--)
		in->err[at] = in->err[at - 1];
	in->err[at].line = line;
	snprintf(in->err[at].msg, sizeof in->err[at].msg, "%s", msg);
	in->n_err++;
}

/* What inih will make of the line: 0 fine, else why not. */
static const char *bad_line(struct ini_lines *in, const char *p, size_t n)
{
	size_t i = 0;
	bool indented = n > 0 && (p[0] == ' ' || p[0] == '\t');

	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i == n || p[i] == ';' || p[i] == '#')
		return NULL;
	if (indented && in->after_key)
		return NULL; /* a continuation of the value above */
	if (p[i] == '[') {
		in->after_key = 0;
		return memchr(p + i, ']', n - i) ? NULL : "not 'key = value' or '[section]'";
	}
	if (!memchr(p + i, '=', n - i) && !memchr(p + i, ':', n - i))
		return "not 'key = value' or '[section]'";
	in->after_key = 1;
	return NULL;
}

char *ini_lines_reader(char *str, int num, void *stream)
{
	struct ini_lines *in = stream;
	const char *p, *nl, *why;
	size_t n;

	if (!in->text[in->pos])
		return NULL;
	p = in->text + in->pos;
	nl = strchr(p, '\n');
	n = nl ? (size_t)(nl - p) + 1 : strlen(p);
	in->pos += n;
	in->line++;
	if (n >= (size_t)num) {
		char msg[64];
		snprintf(msg, sizeof msg, "line longer than %d bytes", num - 2);
		add(in, in->line, msg);
		n = 1;
		p = "\n";
	} else if ((why = bad_line(in, p, n))) {
		add(in, in->line, why);
	}
	memcpy(str, p, n);
	str[n] = '\0';
	return str;
}

int ini_lines_error(struct ini_lines *in, const char *msg)
{
	add(in, in->line, msg);
	return 0;
}

void ini_lines_finish(struct ini_lines *in, int rc)
{
	if (rc > 0)
		add(in, rc, "not 'key = value' or '[section]'");
}

int ini_lines_format(const struct ini_lines *in, const char *file, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = '\0';
	for (int i = 0; i < in->n_err && used < len; i++) {
		int w = snprintf(out + used, len - used, "%s%s:%d: %s", i ? "\n" : "", file,
				 in->err[i].line, in->err[i].msg);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (in->more && used < len)
		snprintf(out + used, len - used, "\n%s: and %d more bad lines", file, in->more);
	return in->n_err + in->more;
}
