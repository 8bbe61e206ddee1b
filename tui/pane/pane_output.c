/* SPDX-License-Identifier: MIT */
/*
 * pane_output.c - the Output pane's history and its drawing.
 *
 * Lines live in one array in order; dropping the oldest is a memmove of
 * pointers done in batches, so a flood costs amortized O(1) a line. Each
 * line remembers its kind (stdout, stderr, header, ...) for its colour;
 * stdout and stderr are also told apart without colour: stderr lines are
 * drawn with a "!" gutter mark. Program output goes through tui/text/vt_output.c
 * first: '\r' and '\b' move the line's cursor back, so what follows
 * overwrites (a progress bar ends as one line), and SGR colours become
 * each byte's look, kept beside the text as kilo keeps its highlight.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utf8proc.h>

#include "pane/gauges.h"
#include "image/graphics.h"
#include "image/image.h"
#include "pane/image_screen.h"
#include "pane/pane_output.h"
#include "pane/picture.h"
#include "text/sanitize.h"
#include "screen/theme.h"
#include "text/vt_output.h"
#include "buf.h"
#include "text/fileio.h"
#include "banned.h"

struct line {
	char *text;
	size_t len, cap;
	int cells;           /* display width so far, for tab stops */
	unsigned char kind;
	unsigned char open;  /* more of this stream may join the line */
	unsigned char *look; /* a VT_* look a byte of text, or NULL: all plain */
	int col;             /* the cell the next text writes, -1: the end */
	size_t col_byte;     /* the byte where cell col starts (col >= 0) */
	unsigned char notice; /* "N older lines fell off" */
	struct picture *pic; /* OUT_IMAGE: the picture, drawn in its rows */
};

struct output_pane {
	struct line *lines;
	size_t n, cap;
	unsigned long long dropped;  /* lines dropped so far (absolute index base) */
	unsigned long long header;   /* absolute index of the open run's header */
	int runs;                    /* header lines held */
	int open_run;                /* run number in progress, 0 = none */
	char run_name[256];
	char run_clock[16];
	struct vt_stream vt[2];      /* stdout, stderr */
	int scroll;                  /* rows up from the newest */
	int last_width;
	unsigned long long lost;     /* lines that fell off the history cap */
	long long found;             /* absolute index of the find match, -1 */
	int last_h;                  /* rows of the last draw */
	unsigned long long row_line[256]; /* absolute line index of each drawn row */
	int pictures;                /* pictures holding pixels */
	int pic_rows;                /* rows a picture may take now */
	struct picture *shown;       /* the newest picture drawn last frame */
	struct {                     /* where pictures were drawn last frame */
		int y0, y1;          /* rows of the pane, y1 excluded */
		struct picture *pic;
	} drawn[8];
	int n_drawn;
	/* pictures in pixels (graphics.h): placed this frame, and as the
	 * terminal has them now */
	int gfx, cell_w, cell_h;
	struct pixel_place {
		struct picture *pic;
		int y, x, cols, rows;
	} place[8], placed[8];
	int n_place, n_placed;
};

struct output_pane *output_new(void)
{
	struct output_pane *op = calloc(1, sizeof(struct output_pane));

	if (op)
		op->found = -1;
	return op;
}

void output_free(struct output_pane *op)
{
	if (!op)
		return;
	for (size_t i = 0; i < op->n; i++) {
		free(op->lines[i].text);
		free(op->lines[i].look);
		picture_free(op->lines[i].pic);
	}
	free(op->lines);
	free(op);
}

static void line_put_end(struct line *l, const char *s, size_t n, unsigned char look);

/* After a drop, a first line says how many lines fell off the cap. The
 * lines keep their absolute indexes (the header's among them): the
 * notice takes the index of the last line dropped. */
static void output_note_lost(struct output_pane *op)
{
	char text[160];
	struct line *l;
	int n;

	if (op->n == op->cap || !op->dropped)
		return;
	memmove(op->lines + 1, op->lines, op->n * sizeof *op->lines);
	op->n++;
	op->dropped--;
	l = &op->lines[0];
	memset(l, 0, sizeof *l);
	l->kind = OUT_INFO;
	l->notice = 1;
	l->col = -1;
	n = snprintf(text, sizeof text, "[%llu older lines fell off the history "
		     "(it keeps %d lines of %d runs)]", op->lost, OUTPUT_MAX_LINES,
		     OUTPUT_MAX_RUNS);
	if (n > 0)
		line_put_end(l, text, (size_t)n, 0);
}

/* Drop the oldest lines: a tenth at a time, or a whole run when too many. */
static void drop_oldest(struct output_pane *op)
{
	size_t k = op->n / 10 + 1;

	if (op->runs > OUTPUT_MAX_RUNS) {
		/* up to (not including) the second header; a notice or
		 * message before the first goes with it */
		size_t h = 0;
		while (h < op->n && op->lines[h].kind != OUT_HEADER)
			h++;
		for (k = h + 1; k < op->n && op->lines[k].kind != OUT_HEADER; k++)
			;
	}
	if (k > op->n)
		k = op->n;
	for (size_t i = 0; i < k; i++) {
		if (op->lines[i].kind == OUT_HEADER)
			op->runs--;
		if (op->lines[i].notice)
			op->lost--; /* the last notice: not a line of output */
		if (op->lines[i].pic) {
			if (op->shown == op->lines[i].pic)
				op->shown = NULL;
			op->n_drawn = 0;
			op->pictures -= picture_held(op->lines[i].pic);
			picture_free(op->lines[i].pic);
		}
		free(op->lines[i].text);
		free(op->lines[i].look);
	}
	memmove(op->lines, op->lines + k, (op->n - k) * sizeof *op->lines);
	op->n -= k;
	op->dropped += k;
	op->lost += k;
	output_note_lost(op);
}

/* Start a new empty line of kind; returns it, or NULL out of memory. */
static struct line *new_line(struct output_pane *op, enum out_kind kind)
{
	struct line *l;

	if (op->n >= OUTPUT_MAX_LINES || op->runs > OUTPUT_MAX_RUNS)
		drop_oldest(op);
	if (op->n == op->cap) {
		struct line *nl = sp_grow(op->lines, &op->cap, op->n + 1, sizeof *nl);
		if (!nl)
			return NULL;
		op->lines = nl;
	}
	l = &op->lines[op->n++];
	memset(l, 0, sizeof *l);
	l->col = -1;
	l->kind = (unsigned char)kind;
	if (kind == OUT_HEADER)
		op->runs++;
	if (op->scroll > 0)
		op->scroll++; /* keep the reader's place while output arrives */
	return l;
}

/* Bytes of the UTF-8 character at s (the text is the sanitizer's, so
 * valid; 1 for anything else, so a walk always moves). */
static size_t utf8_next_len(const char *s, size_t n)
{
	utf8proc_int32_t cp;
	utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s,
					      (utf8proc_ssize_t)n, &cp);
	return k > 0 ? (size_t)k : 1;
}

/* Room for n more bytes (and the looks, when the line has them). */
static bool line_room(struct line *l, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		/* text and looks side by side: each grows from the same cap to
		 * the same new one */
		size_t cap = l->cap, look_cap = l->cap;
		char *t = sp_grow(l->text, &cap, l->len + n + 1, 1);
		if (!t)
			return false;
		l->text = t;
		if (l->look) {
			unsigned char *lk = sp_grow(l->look, &look_cap, l->len + n + 1, 1);
			if (!lk)
				return false;
			l->look = lk;
		}
		l->cap = cap;
	}
	return true;
}

/* Give the line looks (all plain so far) once a styled byte comes. */
static bool line_looks(struct line *l, unsigned char look)
{
	if (l->look || !look)
		return true;
	l->look = calloc(l->cap ? l->cap : 64, 1);
	if (l->look && !l->cap) {
		/* an empty line: text gets its buffer in line_room */
		free(l->look);
		l->look = NULL;
		if (!line_room(l, 1))
			return false;
		l->look = calloc(l->cap, 1);
	}
	return l->look != NULL;
}

/* Append bytes with a look, growing the line. */
static void line_put_end(struct line *l, const char *s, size_t n, unsigned char look)
{
	if (!line_looks(l, look) || !line_room(l, n))
		return;
	memcpy(l->text + l->len, s, n);
	if (l->look)
		memset(l->look + l->len, look, n);
	l->len += n;
	l->text[l->len] = '\0';
	l->cells += text_width(s, n);
}

/* Write s over the line from its cursor cell (after '\r' or '\b'),
 * appending what goes past the end. The place of the cursor is found
 * once a call; then each character replaces the ones under it in place
 * (a memmove only when their byte lengths differ), so a program that
 * redraws a long line with '\r' costs in proportion to what it writes. */
static void line_put(struct line *l, const char *s, size_t n, unsigned char look)
{
	size_t i = 0, b;
	int start;

	if (l->col < 0 || l->col >= l->cells) {
		l->col = -1;
		line_put_end(l, s, n, look);
		return;
	}
	if (!line_looks(l, look))
		return;
	b = l->col_byte;
	start = l->col;
	while (i < n && b < l->len) {
		size_t cn = utf8_next_len(s + i, n - i), e = b;
		int w = text_width(s + i, cn), covered = 0;

		while (e < l->len && covered < (w ? w : 1)) {
			size_t k = utf8_next_len(l->text + e, l->len - e);
			covered += text_width(l->text + e, k);
			e += k;
		}
		if (cn > e - b && !line_room(l, cn - (e - b)))
			return;
		if (cn != e - b) {
			memmove(l->text + b + cn, l->text + e, l->len - e + 1);
			if (l->look)
				memmove(l->look + b + cn, l->look + e, l->len - e);
			l->len = l->len - (e - b) + cn;
		}
		memcpy(l->text + b, s + i, cn);
		if (l->look)
			memset(l->look + b, look, cn);
		l->cells += w - covered;
		start += w;
		b += cn;
		i += cn;
	}
	l->col = start;
	l->col_byte = b;
	if (i < n) {
		l->col = -1;
		line_put_end(l, s + i, n - i, look);
	}
}

static void line_add(struct line *l, const char *s, size_t n)
{
	line_put(l, s, n, 0);
}

/* The line that text of kind joins: the open last line of that kind. */
static struct line *current_line(struct output_pane *op, enum out_kind kind)
{
	if (op->n) {
		struct line *l = &op->lines[op->n - 1];
		if (l->open && l->kind == kind && l->len < OUTPUT_MAX_LINE)
			return l;
		l->open = 0;
	}
	struct line *l = new_line(op, kind);
	if (l)
		l->open = 1;
	return l;
}

/* Append sanitized text: split at '\n', expand tabs to 8-cell stops. */
static void append_look(struct output_pane *op, enum out_kind kind,
			const char *s, size_t len, unsigned char look)
{
	size_t i = 0;

	while (i < len) {
		struct line *l = current_line(op, kind);
		if (!l)
			return;
		size_t j = i;
		while (j < len && s[j] != '\n' && s[j] != '\t' &&
		       l->len + (j - i) < OUTPUT_MAX_LINE)
			j++;
		/* do not cut a UTF-8 sequence when splitting a long line */
		while (j > i && j < len && ((unsigned char)s[j] & 0xC0) == 0x80)
			j--;
		line_put(l, s + i, j - i, look);
		if (j < len && s[j] == '\t') {
			int spaces = 8 - (l->col >= 0 ? l->col : l->cells) % 8;
			line_put(l, "        ", (size_t)spaces, look);
			j++;
		} else if (j < len && s[j] == '\n') {
			l->open = 0;
			j++;
		} else if (j < len) {
			l->open = 0; /* too long: continue on a new line */
		}
		i = j;
	}
}

static void append_text(struct output_pane *op, enum out_kind kind,
			const char *s, size_t len)
{
	append_look(op, kind, s, len, 0);
}

void output_message(struct output_pane *op, enum out_kind kind,
		    const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof buf)
		n = sizeof buf - 1;
	if (op->n)
		op->lines[op->n - 1].open = 0;
	/* our own text may hold program-derived names: sanitize it too */
	struct sanitizer s;
	char clean[sizeof buf * 8 + 64];
	sanitize_init(&s);
	size_t m = sanitize_feed(&s, buf, (size_t)n, clean, sizeof clean);
	m += sanitize_finish(&s, clean + m, sizeof clean - m);
	append_text(op, kind, clean, m);
	append_text(op, kind, "\n", 1);
}

/* Write the header of the open run with the given state text. */
static void set_header(struct output_pane *op, const char *state)
{
	char buf[512];
	int n;

	if (op->header < op->dropped || op->header - op->dropped >= op->n)
		return;
	struct line *l = &op->lines[op->header - op->dropped];
	n = snprintf(buf, sizeof buf, "── run %d · %s · %s · %s ──", op->open_run,
		     op->run_name, state, op->run_clock);
	if (n < 0)
		return;
	l->len = 0;
	l->cells = 0;
	line_add(l, buf, strlen(buf));
}

void output_begin_run(struct output_pane *op, int run_no, const char *name)
{
	time_t now = time(NULL);
	struct tm tm;
	struct sanitizer s;
	char clean[sizeof op->run_name * 8 + 16];

	if (op->n)
		op->lines[op->n - 1].open = 0;
	sanitize_init(&s);
	size_t m = sanitize_feed(&s, name, strlen(name), clean, sizeof clean);
	snprintf(op->run_name, sizeof op->run_name, "%.*s", (int)m, clean);
	localtime_r(&now, &tm);
	strftime(op->run_clock, sizeof op->run_clock, "%H:%M:%S", &tm);
	op->open_run = run_no;
	vt_init(&op->vt[0]);
	vt_init(&op->vt[1]);
	struct line *l = new_line(op, OUT_HEADER);
	if (!l)
		return;
	op->header = op->dropped + op->n - 1;
	set_header(op, "running");
	op->scroll = 0;
}

/* The sink of a stream's vt_feed: text, '\r' and '\b' on its open line. */
struct stream_ctx {
	struct output_pane *op;
	enum out_kind kind;
};

static void sink_text(void *ctx, const char *s, size_t n, unsigned char look)
{
	struct stream_ctx *c = ctx;
	append_look(c->op, c->kind, s, n, look);
}

/* The stream's open line, or NULL (never a new one: '\r' on a fresh line
 * has nothing to go back over). */
static struct line *open_line(struct output_pane *op, enum out_kind kind)
{
	struct line *l = op->n ? &op->lines[op->n - 1] : NULL;
	return l && l->open && l->kind == kind ? l : NULL;
}

static void sink_cr(void *ctx)
{
	struct stream_ctx *c = ctx;
	struct line *l = open_line(c->op, c->kind);
	if (l) {
		l->col = 0;
		l->col_byte = 0;
	}
}

/* Back one character: from the cursor, or from the end (found by
 * stepping back over UTF-8 continuation bytes, never by a walk). */
static void sink_bs(void *ctx)
{
	struct stream_ctx *c = ctx;
	struct line *l = open_line(c->op, c->kind);
	size_t b, e;
	int at;

	if (!l)
		return;
	at = l->col >= 0 ? l->col : l->cells;
	e = l->col >= 0 ? l->col_byte : l->len;
	if (at <= 0 || e == 0)
		return;
	b = e - 1;
	while (b > 0 && ((unsigned char)l->text[b] & 0xC0) == 0x80)
		b--;
	at -= text_width(l->text + b, e - b);
	l->col = at > 0 ? at : 0;
	l->col_byte = at > 0 ? b : 0;
}

static void stream_sink(struct output_pane *op, int i, struct stream_ctx *c,
			struct vt_sink *sink)
{
	c->op = op;
	c->kind = i ? OUT_STDERR : OUT_STDOUT;
	sink->ctx = c;
	sink->text = sink_text;
	sink->cr = sink_cr;
	sink->bs = sink_bs;
}

void output_program(struct output_pane *op, enum out_kind stream,
		    const char *bytes, size_t len)
{
	int i = stream == OUT_STDERR;
	struct stream_ctx c;
	struct vt_sink sink;

	stream_sink(op, i, &c, &sink);
	vt_feed(&op->vt[i], bytes, len, &sink);
}

/* Flush what a stream kept back (a split UTF-8 sequence or escape). */
static void flush_stream(struct output_pane *op, int i)
{
	struct stream_ctx c;
	struct vt_sink sink;

	stream_sink(op, i, &c, &sink);
	vt_finish(&op->vt[i], &sink);
}

/* The files the program left: kept (sandpit's copy, under runs/) or not
 * and why; the work dir itself is gone either way. One entry a file,
 * whatever its name holds. */
static void list_files(struct output_pane *op, const struct sp_result *r)
{
	const char *dir_of = NULL;
	size_t dir_len = 0, kept = 0;
	char size[32];

	for (size_t i = 0; i < r->n_files; i++) {
		const struct sp_file *f = &r->files[i];
		size_t kl = f->kept ? strlen(f->kept) : 0, pl = strlen(f->path);
		kept += f->kept != NULL;
		if (!dir_of && kl > pl + 1) {
			dir_of = f->kept;
			dir_len = kl - pl - 1;
		}
	}
	if (!kept) {
		output_message(op, OUT_INFO, "files left in the work dir "
			       "(deleted with it - runs share nothing):");
	} else {
		char *dir = strndup(dir_of ? dir_of : "", dir_len);
		char *clean = dir ? sanitize_dup(dir, true) : NULL;
		output_message(op, OUT_INFO, "files left: the work dir was deleted, "
			       "this is sandpit's copy (F8):");
		output_message(op, OUT_INFO, "  %s", clean ? clean : "");
		free(clean);
		free(dir);
	}
	for (size_t i = 0; i < r->n_files; i++) {
		char *name = sanitize_dup(r->files[i].path, true);
		format_bytes(r->files[i].bytes, size, sizeof size);
		if (r->files[i].kept)
			output_message(op, OUT_FILE, "  %s  %s  kept", name ? name : "?", size);
		else if (r->files[i].skipped)
			output_message(op, OUT_FILE, "  %s  %s  not kept: %s", name ? name : "?",
				       size, r->files[i].skipped);
		else
			output_message(op, OUT_FILE, "  %s  %s  now gone", name ? name : "?", size);
		free(name);
	}
}

/* Pictures among a run's kept files, drawn under it: at most
 * OUTPUT_RUN_PICTURES a run (of at most twice as many tried: each try
 * costs a bounded decode), OUTPUT_RUN_PIXELS decoded in all (so a run
 * of many huge pictures stalls the screen no longer than one does), at
 * most OUTPUT_MAX_PICTURES holding pixels in
 * the pane (the oldest give theirs up). A refused one says why. */
static void output_pictures(struct output_pane *op, const struct sp_result *r)
{
	size_t shown = 0, tried = 0, more = 0;
	uint64_t budget = OUTPUT_RUN_PIXELS;
	struct image_limits lim;

	for (size_t i = 0; i < r->n_files; i++) {
		const struct sp_file *f = &r->files[i];
		char why[256];
		if (!f->kept || !image_name_is_image(f->path))
			continue;
		if (shown == OUTPUT_RUN_PICTURES || tried == 2 * OUTPUT_RUN_PICTURES) {
			more++;
			continue;
		}
		tried++;
		image_limits_default(&lim);
		if (budget < lim.max_pixels)
			lim.max_pixels = budget;
		struct picture *pic = picture_new(f->kept, f->path, &lim, why, sizeof why);
		unsigned long pw, ph;
		if (!pic && budget < IMAGE_MAX_PIXELS &&
		    sscanf(why, "image too large: %lux%lu", &pw, &ph) == 2 &&
		    pw <= IMAGE_MAX_SIDE && ph <= IMAGE_MAX_SIDE && pw * ph <= IMAGE_MAX_PIXELS)
			snprintf(why, sizeof why, "%lux%lu pixels, more than this run's other "
				 "pictures left to draw at once (F8 opens it)", pw, ph);
		if (!pic) {
			char *name = sanitize_dup(f->path, true);
			output_message(op, OUT_ERROR, "  %s: picture not shown: %s", name ? name : "?", why);
			free(name);
			continue;
		}
		output_message(op, OUT_INFO, "  %s (Enter in Output: view it large)", picture_name(pic));
		struct line *l = new_line(op, OUT_IMAGE);
		if (!l) {
			picture_free(pic);
			return;
		}
		l->pic = pic;
		shown++;
		budget -= picture_pixels(pic) < budget ? picture_pixels(pic) : budget;
		if (++op->pictures > OUTPUT_MAX_PICTURES) {
			for (size_t k = 0; k < op->n; k++) {
				if (op->lines[k].pic && picture_held(op->lines[k].pic)) {
					picture_release(op->lines[k].pic);
					op->pictures--;
					break;
				}
			}
		}
	}
	if (more)
		output_message(op, OUT_INFO, "  and %zu more picture%s (not drawn here)", more,
			       more == 1 ? "" : "s");
}

struct picture *output_picture_at(const struct output_pane *op, int row)
{
	for (int i = 0; i < op->n_drawn; i++)
		if (row >= op->drawn[i].y0 && row < op->drawn[i].y1)
			return op->drawn[i].pic;
	return NULL;
}

struct picture *output_picture_step(const struct output_pane *op, const struct picture *from,
				    int dir, int *nth, int *count)
{
	int at = -1, n = 0, want;
	struct picture *found = NULL;

	for (size_t i = 0; i < op->n; i++)
		if (op->lines[i].pic) {
			if (op->lines[i].pic == from)
				at = n;
			n++;
		}
	*count = n;
	if (at < 0 || !n)
		return NULL;
	want = (at + dir % n + n) % n; /* round: after the newest, the oldest */
	n = 0;
	for (size_t i = 0; i < op->n && !found; i++)
		if (op->lines[i].pic && n++ == want)
			found = op->lines[i].pic;
	*nth = want + 1;
	return found;
}

struct picture *output_picture_shown(const struct output_pane *op)
{
	if (op->shown)
		return op->shown;
	for (size_t i = op->n; i > 0; i--)
		if (op->lines[i - 1].pic)
			return op->lines[i - 1].pic;
	return NULL;
}

/* The value of the program's last expression, as a notebook's Out: a
 * short one on the "Out:" line, a table or anything of several lines
 * under it, as the program's own text (program bytes: sanitized, cut at
 * the edge, not wrapped at words, since its columns matter). */
static void show_last_value(struct output_pane *op, const char *repr)
{
	size_t len = strlen(repr);

	if (len <= 200 && !memchr(repr, '\n', len)) {
		output_message(op, OUT_INFO, "Out: %s", repr);
		return;
	}
	output_message(op, OUT_INFO, "Out:");
	output_program(op, OUT_STDOUT, repr, len);
	output_program(op, OUT_STDOUT, "\n", 1);
	flush_stream(op, 0);
	if (op->n)
		op->lines[op->n - 1].open = 0;
}

void output_end_run(struct output_pane *op, const struct sp_result *r,
		    const char *status_text, double seconds)
{
	char state[160], size[32];

	if (!op->open_run)
		return;
	flush_stream(op, 0);
	flush_stream(op, 1);
	if (op->n)
		op->lines[op->n - 1].open = 0;
	if (r && r->exit_code >= 0 && r->status == SP_STATUS_ERROR)
		snprintf(state, sizeof state, "%s (exit %d) · %.2f s", status_text,
			 r->exit_code, seconds);
	else if (r && r->signal > 0 && r->status != SP_STATUS_OK)
		snprintf(state, sizeof state, "%s (signal %d) · %.2f s", status_text,
			 r->signal, seconds);
	else
		snprintf(state, sizeof state, "%s · %.2f s", status_text, seconds);
	if (r && r->prepared) /* F5 took a sandbox made ahead (app_prewarm.c) */
		snprintf(state + strlen(state), sizeof state - strlen(state), " · prepared");
	set_header(op, state);
	if (r && r->truncated) {
		format_bytes(r->limits.output_bytes, size, sizeof size);
		output_message(op, OUT_INFO, "[output cut at the %s output limit]",
			       size);
	}
	if (r && r->status == SP_STATUS_SANDBOX_ERROR && r->error[0])
		output_message(op, OUT_ERROR, "sandbox error: %s", r->error);
	if (r && r->last_value_repr)
		show_last_value(op, r->last_value_repr);
	if (r && r->n_files)
		list_files(op, r);
	if (r)
		output_pictures(op, r);
	op->open_run = 0;
}

void output_scroll(struct output_pane *op, int rows)
{
	if (rows == INT_MAX) {
		op->scroll = INT_MAX / 2;
		return;
	}
	long s = (long)op->scroll + rows;
	if (s < 0) s = 0;
	if (s > INT_MAX / 2) s = INT_MAX / 2;
	op->scroll = (int)s;
}

void output_scroll_end(struct output_pane *op)
{
	op->scroll = 0;
}

/* sandpit's own lines wrap at words, a word wider than the row in
 * pieces. The program's wrap at spaces too, never inside a number (a
 * table's "166.05" stays whole), and a row with no space to break at
 * ends the line: the rest is cut off and the row marked (see draw). */
static bool by_words(unsigned char kind)
{
	return kind != OUT_STDOUT && kind != OUT_STDERR;
}

/* The next row of s (len bytes) at w cells, for a line of kind; *cut
 * when it is a program's row that could not break at a space. */
static size_t out_row(unsigned char kind, const char *s, size_t len, int w, bool *cut)
{
	size_t n = text_wrap_row(s, len, w, true);

	*cut = !by_words(kind) && n < len && !memchr(s, ' ', n);
	return *cut && w > 1 ? text_wrap_row(s, len, w - 1, false) : n;
}

static int out_rows(unsigned char kind, const char *s, size_t len, int w)
{
	int rows = 0;
	size_t off = 0;
	bool cut = false;

	if (w <= 0)
		return 1;
	do {
		off += out_row(kind, s + off, len - off, w, &cut);
		rows++;
	} while (off < len && !cut);
	return rows;
}

const char *output_row_text(const struct output_pane *op, int row, size_t *len)
{
	unsigned long long abs;

	if (row < 0 || row >= op->last_h)
		return NULL;
	abs = op->row_line[row];
	if (abs < op->dropped || abs - op->dropped >= op->n)
		return NULL;
	*len = op->lines[abs - op->dropped].len;
	return op->lines[abs - op->dropped].text ? op->lines[abs - op->dropped].text : "";
}

/* Rows line l takes at width w. */
static int line_rows(struct output_pane *op, struct line *l, int w)
{
	if (l->pic)
		return picture_rows(l->pic, w - 1, op->pic_rows);
	return out_rows(l->kind, l->text ? l->text : "", l->len, w);
}

static attr_t kind_attr(const struct theme *th, unsigned char kind)
{
	switch (kind) {
	case OUT_STDERR: return theme_attr(th, TR_STDERR);
	case OUT_HEADER: return theme_attr(th, TR_HEADER);
	case OUT_ERROR:  return theme_attr(th, TR_ERROR);
	case OUT_FILE:   return theme_attr(th, TR_CHANGED);
	case OUT_HINT:   return theme_attr(th, TR_HEADER);
	case OUT_INFO:   return theme_attr(th, TR_NORMAL);
	default:         return theme_attr(th, TR_STDOUT);
	}
}

/* One screen row of line l: bytes off..off+n, in runs of one look. */
static void draw_row(WINDOW *win, int y, int x, int w, const struct line *l,
		     size_t off, size_t n, attr_t base, const struct theme *th)
{
	size_t i = off, end = off + n;

	if (!l->look) {
		text_draw(win, y, x, w, l->text + off, n, base);
		return;
	}
	while (i < end && w > 0) {
		size_t j = i;
		int used;
		while (j < end && l->look[j] == l->look[i])
			j++;
		used = text_draw(win, y, x, w, l->text + i, j - i,
				 theme_look_attr(th, l->look[i], base));
		x += used;
		w -= used;
		i = j;
	}
}

/* Place p in pixels at (y, x), at most width cells wide, when the
 * terminal has pixels and the picture can be: its cells stay blank for
 * output_pixels to fill after the frame. */
static bool place_pixels(struct output_pane *op, struct picture *p, int y, int x, int width)
{
	int cols, rows;
	size_t len;

	if (op->gfx == GFX_SYMBOLS || op->n_place >= (int)SP_ARRAY_SIZE(op->place) ||
	    !picture_pixels_seq(p, op->gfx, width, op->pic_rows, op->cell_w, op->cell_h,
				&cols, &rows, &len))
		return false;
	op->place[op->n_place++] = (struct pixel_place){ p, y, x, cols, rows };
	return true;
}

void output_set_graphics(struct output_pane *op, int mode, int cell_w, int cell_h)
{
	op->gfx = mode;
	op->cell_w = cell_w > 0 ? cell_w : 10;
	op->cell_h = cell_h > 0 ? cell_h : 20;
}

void output_pixels_lost(struct output_pane *op)
{
	op->n_placed = -1;
}

void output_pixels(struct output_pane *op, WINDOW *win, bool covered)
{
	int n = covered ? 0 : op->n_place;

	if (op->gfx == GFX_SYMBOLS)
		return;
	if (n == op->n_placed && !memcmp(op->place, op->placed, (size_t)n * sizeof op->place[0]))
		return; /* the terminal has these already */
	if (op->n_placed < 0 && op->gfx == GFX_SIXEL)
		op->n_placed = 0; /* cleared with the screen: nothing to take away */
	/* the old ones go (image_screen.h), then the new ones are put */
	(void)win;
	if (op->gfx == GFX_KITTY || op->n_placed > 0)
		image_screen_pixels_take_away(op->gfx, 0);
	for (int i = 0; i < n; i++) {
		struct pixel_place *pl = &op->place[i];
		int cols, rows;
		size_t len;
		const char *seq = picture_pixels_seq(pl->pic, op->gfx, pl->cols, op->pic_rows,
						     op->cell_w, op->cell_h, &cols, &rows, &len);
		if (seq)
			image_screen_pixels_put(pl->y, pl->x, seq, len);
	}
	memcpy(op->placed, op->place, (size_t)n * sizeof op->place[0]);
	op->n_placed = n;
}

void output_draw(struct output_pane *op, WINDOW *win, struct rect in,
		 const struct theme *th)
{
	int w = in.w - 1; /* column 0 is the stderr gutter */
	long need, total = 0;
	size_t i = op->n;

	layout_clear(win, in, theme_attr(th, TR_NORMAL));
	op->last_h = 0;
	if (w < 1 || in.h < 1)
		return;
	op->last_width = w;
	need = (long)op->scroll + in.h;
	image_screen_frame(th);
	/* a picture takes at most half the pane: the run's text stays in view */
	op->pic_rows = in.h / 2 > 3 ? in.h / 2 : 3;
	op->shown = NULL;
	op->n_drawn = 0;
	op->n_place = 0;
	while (i > 0 && total < need) {
		i--;
		total += line_rows(op, &op->lines[i], w);
	}
	if (total < need) { /* scrolled past the top: pin to the oldest line */
		op->scroll = total > in.h ? (int)(total - in.h) : 0;
		need = (long)op->scroll + in.h;
	}
	long skip = total - need; /* rows of line i above the view */
	int y = 0;
	for (; i < op->n && y < in.h; i++) {
		struct line *l = &op->lines[i];
		const char *s = l->text ? l->text : "";
		size_t len = l->len, off = 0;
		attr_t a = (long long)(op->dropped + i) == op->found ?
			   theme_attr(th, TR_FIND_MATCH) : kind_attr(th, l->kind);
		if (l->pic) { /* its rows below the ones scrolled off the top */
			int rows = line_rows(op, l, w);
			int from = skip > 0 ? (int)(skip < rows ? skip : rows) : 0;
			int n = rows - from < in.h - y ? rows - from : in.h - y;
			skip -= from;
			if (n > 0 && !(from == 0 && n == rows &&
				       place_pixels(op, l->pic, in.y + y, in.x + 2, w - 1))) {
				/* in cells: the terminal has no pixels, or the picture is
				 * cut by the pane's edge (pixels never cross a border) */
				picture_draw(l->pic, win, in.y + y, in.x + 2, w - 1, op->pic_rows,
					     from, n, th);
			}
			if (n > 0) {
				op->shown = l->pic;
				if (op->n_drawn < (int)(sizeof op->drawn / sizeof *op->drawn)) {
					op->drawn[op->n_drawn].y0 = y;
					op->drawn[op->n_drawn].y1 = y + n;
					op->drawn[op->n_drawn++].pic = l->pic;
				}
			}
			/* rows of a picture hold no text to go to */
			for (int k = y; k < y + n && k < (int)(sizeof op->row_line / sizeof op->row_line[0]); k++)
				op->row_line[k] = ~0ull;
			y += n > 0 ? n : 0;
			op->last_h = y;
			continue;
		}
		do {
			bool cut;
			size_t n = out_row(l->kind, s + off, len - off, w, &cut);
			if (skip > 0) {
				skip--;
			} else if (y < in.h) {
				if (y < (int)(sizeof op->row_line / sizeof op->row_line[0])) {
					op->row_line[y] = op->dropped + i;
					op->last_h = y + 1;
				}
				if (l->kind == OUT_STDERR)
					text_draw(win, in.y + y, in.x, 1, "!", 1, a | A_BOLD);
				draw_row(win, in.y + y, in.x + 1, w, l, off, n, a, th);
				if (cut) /* the rest of a line with no space is not shown */
					text_draw(win, in.y + y, in.x + w, 1, th->mono ? ">" : "\u203a",
						  th->mono ? 1 : 3, theme_attr(th, TR_HEADER) | A_BOLD);
				y++;
			}
			off += n;
			if (cut)
				off = len;
		} while (off < len);
	}
}

/* Rows the lines after index i take at the last drawn width. */
static long rows_after(struct output_pane *op, size_t i)
{
	long rows = 0;
	int w = op->last_width > 0 ? op->last_width : 80;

	for (size_t k = i + 1; k < op->n; k++)
		rows += line_rows(op, &op->lines[k], w);
	return rows;
}

int output_find(struct output_pane *op, const char *needle, bool older)
{
	size_t n = strlen(needle);
	long long from;

	if (!n || !op->n)
		return 0;
	from = op->found >= (long long)op->dropped ? op->found - (long long)op->dropped
						   : (older ? (long long)op->n : -1);
	for (long long step = 1; step <= (long long)op->n; step++) {
		long long i = older ? from - step : from + step;
		struct line *l;
		if (i < 0 || i >= (long long)op->n)
			break;
		l = &op->lines[i];
		if (l->text && strcasestr(l->text, needle)) {
			op->found = (long long)op->dropped + i;
			op->scroll = (int)rows_after(op, (size_t)i);
			return 1;
		}
	}
	return 0;
}

int output_save(const struct output_pane *op, const char *path, char *err,
		size_t errlen)
{
	struct sp_buf b = SP_BUF_INIT;
	int rc;

	for (size_t i = 0; i < op->n; i++)
		if (sp_buf_add(&b, op->lines[i].text ? op->lines[i].text : "",
			       op->lines[i].len) < 0 || sp_buf_add(&b, "\n", 1) < 0) {
			sp_buf_free(&b);
			snprintf(err, errlen, "%s: out of memory", path);
			return -1;
		}
	/* atomically and durably (fileio.c) */
	rc = fio_replace(path, b.data ? b.data : "", b.len, 0644, err, errlen);
	sp_buf_free(&b);
	return rc;
}

void output_clear(struct output_pane *op)
{
	for (size_t i = 0; i < op->n; i++) {
		free(op->lines[i].text);
		free(op->lines[i].look);
		picture_free(op->lines[i].pic);
	}
	op->pictures = 0;
	op->shown = NULL;
	op->n_drawn = 0;
	op->dropped += op->n;
	op->n = 0;
	op->runs = 0;
	op->lost = 0;
	op->found = -1;
	op->scroll = 0;
}
