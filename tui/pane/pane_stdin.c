/* SPDX-License-Identifier: MIT */
/*
 * pane_stdin.c - the stdin buffer. The program reads exactly the text
 * shown, byte for byte: input() takes one line of it, sys.stdin.read()
 * all of it, and at its end input() raises EOFError as it would with
 * input from a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "editor/editor.h"
#include "pane/pane_stdin.h"
#include "screen/theme.h"
#include "banned.h"

int stdin_init(struct stdin_pane *sp)
{
	sp->ed = editor_new();
	if (!sp->ed)
		return -1;
	editor_set_text(sp->ed, "", 0, "stdin.txt");
	return 0;
}

void stdin_free(struct stdin_pane *sp)
{
	if (sp->ed)
		editor_free(sp->ed);
	sp->ed = NULL;
}



char *stdin_text(struct stdin_pane *sp, size_t *len)
{
	char *t = editor_text(sp->ed, len);

	if (t && *len == 0) {
		free(t);
		t = NULL;
	}
	if (!t)
		*len = 0;
	return t;
}

void stdin_draw(struct stdin_pane *sp, WINDOW *win, struct rect in,
		const struct theme *th, bool focused)
{
	struct rect body = in;
	char line[128];
	size_t len = 0;
	char *t;

	layout_clear(win, in, theme_attr(th, TR_NORMAL));
	if (in.h < 1 || in.w < 2)
		return;
	body.h = in.h > 1 ? in.h - 1 : 1;
	editor_draw(sp->ed, win, body.y, body.x, body.h, body.w, th, focused);
	if (in.h < 2)
		return;
	t = stdin_text(sp, &len);
	free(t);
	if (!len)
		snprintf(line, sizeof line, "empty: the next run's stdin is empty");
	else if (len > STDIN_MAX)
		snprintf(line, sizeof line, "over %u MiB: Run is refused", STDIN_MAX >> 20);
	else
		snprintf(line, sizeof line, "%zu bytes: the next run reads them on stdin", len);
	layout_clear(win, (struct rect){ in.y + in.h - 1, in.x, 1, in.w },
		     theme_attr(th, len > STDIN_MAX ? TR_ERROR : TR_STATUS));
	text_draw(win, in.y + in.h - 1, in.x, in.w, line, strlen(line),
		  theme_attr(th, len > STDIN_MAX ? TR_ERROR : TR_STATUS));
}
