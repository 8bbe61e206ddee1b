/* SPDX-License-Identifier: MIT */
/*
 * app_gauges.c - the Resources pane (panes.h): the run's gauges against
 * its limits (pane/gauges.c), the files that go into every run on its top
 * border, and on its bottom border what the next F5 gets (app_prewarm.c).
 * It takes no keys; F6 still stops on it, so it can be zoomed.
 */
#include <stdio.h>

#include "app/app.h"
#include "app/panes.h"
#include "banned.h"

/* What goes into every run is always in sight. */
static void gauges_pane_info(const struct app *a, char *buf, size_t len)
{
	char names[256];

	attach_names(&a->files.attached, names, sizeof names);
	snprintf(buf, len, a->files.attached.n ? "files in: %s" : "F7 attaches files", names);
}

static void gauges_pane_draw(struct app *a, struct rect r, bool focused)
{
	(void)focused;
	gauges_draw(&a->pane.gauges, stdscr, rect_inner(r), &a->theme);
	app_prewarm_draw(a, r);
}

const struct pane_class app_gauges_pane = {
	.title = "Resources",
	.info = gauges_pane_info,
	.draw = gauges_pane_draw,
	.focusable = true,
};
