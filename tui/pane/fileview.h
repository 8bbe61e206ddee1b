/* SPDX-License-Identifier: MIT */
/*
 * fileview.h - F8 / Ctrl-N: the last run's files, as sandpit kept them
 * (struct run_files, runfiles.h). A list first; Enter views one (text as
 * it is, CSV in aligned columns, a picture named with its size; binary
 * bytes never drawn), s saves a copy where the user says. A CSV is shown
 * in the table view the Variables tab uses (table_view.h).
 *
 * The files came out of an untrusted program: at most FILEVIEW_MAX_BYTES
 * are read, opened with O_NOFOLLOW | O_NONBLOCK and checked regular, and
 * every line is sanitized before it is drawn.
 *
 * Invariants: lines[0..n_lines) are sanitized, tab-free, NUL-ended; the
 * view never outlives the run_files it was opened on (the app closes it
 * when a new run's files replace them).
 */
#ifndef FILEVIEW_H
#define FILEVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <curses.h>

#include "config/runfiles.h"
#include "pane/table_view.h"

struct theme;

#define FILEVIEW_MAX_BYTES (4u << 20)
#define FILEVIEW_MAX_LINES 50000

struct file_view {
	bool active;
	bool viewing;        /* one file shown; else the list */
	size_t sel;          /* the file chosen in the list */
	int top;             /* first line shown */
	char **lines;
	size_t n_lines, lines_cap;
	char note[256];      /* what the file is, or why it is not shown */
	bool is_image;       /* the file viewed is a PNG or JPEG: the caller
			      * shows it large (tui/pane/image_view.h) */
	bool is_table;       /* a CSV or TSV, in table (the Variables tab's view) */
	struct table table;
};

enum fileview_action { FV_NONE, FV_SAVE };

void fileview_open(struct file_view *v, const struct run_files *rf);
void fileview_close(struct file_view *v);
/* A key while the view is up; FV_SAVE: ask where to save rf->files[v->sel]. */
enum fileview_action fileview_key(struct file_view *v, const struct run_files *rf,
				  int key, int rows);
void fileview_draw(struct file_view *v, const struct run_files *rf, WINDOW *win,
		   int rows, int cols, const struct theme *th);

/* What len bytes of a file named name (size bytes in all) are, as the
 * view shows them: lines (text, CSV in columns) or a note (a picture,
 * binary). The F8 view's own path after reading; also the fuzz target's. */
void fileview_load_bytes(struct file_view *v, const char *name, const char *buf,
			 size_t len, uint64_t size);

/* Copy src (a kept file) to dst, a new file (never over an existing one,
 * never through a link at dst). 0, or -1 with err. */
int fileview_save_copy(const char *src, const char *dst, char *err, size_t errlen);

#endif
