/* SPDX-License-Identifier: MIT */
/*
 * editor_comment.c - Ctrl-/ comments lines out and back in, as IDLE,
 * Thonny and every code editor do.
 *
 * Commenting puts "# " at the smallest indent of the lines, so a block
 * stays a block when it is uncommented again; blank lines are left alone.
 * Uncommenting (every non-blank line starts with '#' after its indent)
 * takes off "#" and one space after it, if there is one.
 */
#include "editor/editor_impl.h"

#include "text/textbuf.h"

#include "banned.h"

/* The indent (bytes of leading spaces and tabs) of line; *blank set when
 * nothing else is on it. */
static size_t indent_of(struct editor *ed, size_t line, bool *blank)
{
	size_t ls = tb_line_start(ed->tb, line), le = tb_line_end(ed->tb, line), p = ls;
	while (p < le && (tb_byte(ed->tb, p) == ' ' || tb_byte(ed->tb, p) == '\t'))
		p++;
	*blank = p == le;
	return p - ls;
}

/* Moves an offset that sat after pos by delta bytes (an insert or delete
 * of |delta| bytes at pos); one inside a deleted range goes to pos. */
static size_t shift(size_t off, size_t pos, long delta)
{
	if (off < pos)
		return off;
	if (delta < 0 && off < pos + (size_t)-delta)
		return pos;
	return (size_t)((long)off + delta);
}

void ed_toggle_comment(struct editor *ed)
{
	size_t l0, l1;
	ed_sel_lines(ed, &l0, &l1);

	size_t min_ind = (size_t)-1;
	bool all_commented = true, any = false;
	for (size_t l = l0; l <= l1; l++) {
		bool blank;
		size_t ind = indent_of(ed, l, &blank);
		if (blank)
			continue;
		any = true;
		if (ind < min_ind)
			min_ind = ind;
		if (tb_byte(ed->tb, tb_line_start(ed->tb, l) + ind) != '#')
			all_commented = false;
	}
	if (!any) {                        /* only blank lines: comment the line */
		if (l0 != l1)
			return;
		min_ind = indent_of(ed, l0, &(bool){ false });
		all_commented = false;
	}

	tb_break_group(ed->tb);
	tb_group_begin(ed->tb);
	for (size_t l = l0; l <= l1; l++) {
		bool blank;
		size_t ind = indent_of(ed, l, &blank);
		size_t ls = tb_line_start(ed->tb, l);
		if (blank && any)
			continue;
		if (all_commented) {
			size_t at = ls + ind, n = 1;
			if (at + 1 < tb_line_end(ed->tb, l) && tb_byte(ed->tb, at + 1) == ' ')
				n = 2;
			tb_delete(ed->tb, at, n);
			ed->cur = shift(ed->cur, at, -(long)n);
			ed->anchor = shift(ed->anchor, at, -(long)n);
		} else {
			size_t at = ls + min_ind;
			tb_insert(ed->tb, at, "# ", 2);
			/* a cursor right at the insert point stays before the "# "
			 * only when it is at the line start (keeps column 0 selections) */
			if (ed->cur > at || (ed->cur == at && at != ls))
				ed->cur += 2;
			if (ed->sel && (ed->anchor > at || (ed->anchor == at && at != ls)))
				ed->anchor += 2;
		}
	}
	tb_group_end(ed->tb);
	tb_break_group(ed->tb);
	ed->want_col = -1;
	ed->follow = true;
}
