/* SPDX-License-Identifier: MIT */
/*
 * wrap.c - wrapping with a hanging indent (see wrap.h).
 *
 * The continuation indent is found from the line itself: after the
 * leading blanks and a first field, a run of two or more spaces starts
 * the text column ("  Ctrl-S           save"); without one, the text
 * continues under its first word. An indent that leaves under ten cells
 * is dropped, so a narrow screen still shows words, not slivers.
 */
#include <string.h>

#include "screen/layout.h"
#include "screen/wrap.h"
#include "banned.h"

/* Cells before the text column of s (ASCII lead-ins, as help lines are). */
static int hanging(const char *s)
{
	size_t i = 0, lead;

	while (s[i] == ' ')
		i++;
	lead = i;
	for (; s[i]; i++)
		if (s[i] == ' ' && s[i + 1] == ' ') {
			while (s[i] == ' ')
				i++;
			return s[i] ? text_width(s, i) : (int)lead;
		}
	return (int)lead;
}

int wrap_hanging(const char *s, int w, struct wrap_row *rows, int max)
{
	size_t len = strlen(s), off = 0;
	int n = 0, ind = hanging(s), lead = 0;

	while (s[lead] == ' ')
		lead++;
	if (w - ind < 10)
		ind = w > 10 + lead ? lead : 0;
	if (max < 1)
		return 0;
	if (len == 0 || w < 1) {
		rows[0] = (struct wrap_row){ s, len, 0 };
		return 1;
	}
	while (off < len && n < max) {
		int in = n ? ind : 0, room = w - in;
		size_t k = text_wrap_row(s + off, len - off, room > 0 ? room : 1, true);
		rows[n++] = (struct wrap_row){ s + off, k, in };
		off += k;
		while (off < len && s[off] == ' ')
			off++; /* the blanks at a break are not drawn */
	}
	return n;
}
