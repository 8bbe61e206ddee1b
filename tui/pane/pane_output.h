/* SPDX-License-Identifier: MIT */
/*
 * pane_output.h - the Output pane: a bounded history of runs.
 *
 * Each run opens with a header line (run number, file, status, time) and
 * ends with the files the program left in its work dir. Program bytes go
 * through a sanitizer per stream, so what is stored is inert, valid UTF-8.
 *
 * Invariants: at most OUTPUT_MAX_LINES lines and OUTPUT_MAX_RUNS runs are
 * kept (the oldest go first); a stored line holds no control bytes and no
 * tab (tabs are expanded on the way in); scroll 0 follows the newest line.
 */
#ifndef PANE_OUTPUT_H
#define PANE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

#include "screen/layout.h"
#include "sandpit.h"

#define OUTPUT_MAX_LINES 20000
#define OUTPUT_MAX_RUNS 50
#define OUTPUT_MAX_LINE 4096   /* longer lines are cut into pieces */

enum out_kind { OUT_STDOUT, OUT_STDERR, OUT_HEADER, OUT_INFO, OUT_ERROR, OUT_FILE,
		OUT_HINT, OUT_IMAGE };

/* Pictures (PNG, JPEG among a run's kept files) drawn under a run: at
 * most this many a run, and this many holding pixels in the pane. */
#define OUTPUT_RUN_PICTURES 4
#define OUTPUT_MAX_PICTURES 24
#define OUTPUT_RUN_PIXELS (16u << 20)

struct output_pane;
struct picture;

/* A new, empty pane; NULL only when out of memory. */
struct output_pane *output_new(void);
void output_free(struct output_pane *op);

/* Open run run_no of file name with a "running" header; resets streams. */
void output_begin_run(struct output_pane *op, int run_no, const char *name);

/* Program bytes from stdout (OUT_STDOUT) or stderr (OUT_STDERR). */
void output_program(struct output_pane *op, enum out_kind stream,
		    const char *bytes, size_t len);

/*
 * Close the open run: flush the streams, finish its header with the
 * status and seconds, note truncation, list left-over files. r may be
 * NULL when the run never started (then status_text says why).
 */
void output_end_run(struct output_pane *op, const struct sp_result *r,
		    const char *status_text, double seconds);

/* A line of our own (trusted text; still drawn safely). */
void output_message(struct output_pane *op, enum out_kind kind,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Pictures in pixels from now on, in mode (enum gfx_mode, graphics.h),
 * the terminal's cells being cell_w x cell_h pixels. */
void output_set_graphics(struct output_pane *op, int mode, int cell_w, int cell_h);
/* After the frame is on the terminal (doupdate): the pictures the last
 * output_draw placed in pixels go out, the ones no longer placed there
 * (or all, when something covers the pane) are taken away. Nothing is
 * written when they are as the terminal has them. */
void output_pixels(struct output_pane *op, WINDOW *win, bool covered);
/* The terminal lost what it showed (a resize clears it): the next
 * output_pixels writes every placement again. */
void output_pixels_lost(struct output_pane *op);

/* Draw the newest lines that fit in inner (scrolled by the user). */
void output_draw(struct output_pane *op, WINDOW *win, struct rect inner,
		 const struct theme *th);

/* Scroll by rows (positive = back in time); INT_MAX = top, 0 = newest. */
void output_scroll(struct output_pane *op, int rows);
void output_scroll_end(struct output_pane *op);

/* Find needle (any case) in the lines older (or newer) than the last
 * match, or than the newest; scrolls it into view and marks it. 1 found,
 * 0 not. */
int output_find(struct output_pane *op, const char *needle, bool older);
/* Write every line, as shown, to path (atomically). 0, or -1 with err. */
int output_save(const struct output_pane *op, const char *path, char *err,
		size_t errlen);
/* Forget every line. */
void output_clear(struct output_pane *op);
/* The text of the line drawn at row (0-based, inside the pane) by the
 * last output_draw(), or NULL; *len set. Valid until the pane changes. */
const char *output_row_text(const struct output_pane *op, int row, size_t *len);
/* The picture to open large: the newest one drawn in the last frame,
 * else the newest held; NULL when there is none. */
struct picture *output_picture_shown(const struct output_pane *op);
/* All the pictures Output holds, oldest first, as one list: the one dir
 * places from from (round), *nth its place (1-based) and *count them
 * all; NULL when from is not there. */
struct picture *output_picture_step(const struct output_pane *op, const struct picture *from,
				    int dir, int *nth, int *count);
/* The picture drawn at row of the pane's inside in the last frame, or NULL. */
struct picture *output_picture_at(const struct output_pane *op, int row);

#endif
