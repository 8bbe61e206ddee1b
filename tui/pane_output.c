/*
 * pane_output.c - the Output pane's history and its drawing.
 *
 * Lines live in one array in order; dropping the oldest is a memmove of
 * pointers done in batches, so a flood costs amortized O(1) a line. Each
 * line remembers its kind (stdout, stderr, header, ...) for its colour;
 * stdout and stderr are also told apart without colour: stderr lines are
 * drawn with a "!" gutter mark.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <utf8proc.h>

#include "gauges.h"
#include "image.h"
#include "image_screen.h"
#include "pane_output.h"
#include "picture.h"
#include "sanitize.h"
#include "theme.h"
#include "banned.h"

struct line {
	char *text;
	size_t len, cap;
	int cells;           /* display width so far, for tab stops */
	unsigned char kind;
	unsigned char open;  /* more of this stream may join the line */
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
	struct sanitizer san[2];     /* stdout, stderr */
	int scroll;                  /* rows up from the newest */
	int last_width;
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
};

struct output_pane *output_new(void)
{
	return calloc(1, sizeof(struct output_pane));
}

void output_free(struct output_pane *op)
{
	if (!op)
		return;
	for (size_t i = 0; i < op->n; i++) {
		free(op->lines[i].text);
		picture_free(op->lines[i].pic);
	}
	free(op->lines);
	free(op);
}

size_t output_line_count(const struct output_pane *op)
{
	return op->n;
}

/* Drop the oldest lines: a tenth at a time, or a whole run when too many. */
static void drop_oldest(struct output_pane *op)
{
	size_t k = op->n / 10 + 1;

	if (op->runs > OUTPUT_MAX_RUNS) {
		/* up to (not including) the second header */
		for (k = 1; k < op->n && op->lines[k].kind != OUT_HEADER; k++)
			;
	}
	if (k > op->n)
		k = op->n;
	for (size_t i = 0; i < k; i++) {
		if (op->lines[i].kind == OUT_HEADER)
			op->runs--;
		if (op->lines[i].pic) {
			if (op->shown == op->lines[i].pic)
				op->shown = NULL;
			op->n_drawn = 0;
			op->pictures -= picture_held(op->lines[i].pic);
			picture_free(op->lines[i].pic);
		}
		free(op->lines[i].text);
	}
	memmove(op->lines, op->lines + k, (op->n - k) * sizeof *op->lines);
	op->n -= k;
	op->dropped += k;
}

/* Start a new empty line of kind; returns it, or NULL out of memory. */
static struct line *new_line(struct output_pane *op, enum out_kind kind)
{
	struct line *l;

	if (op->n >= OUTPUT_MAX_LINES || op->runs > OUTPUT_MAX_RUNS)
		drop_oldest(op);
	if (op->n == op->cap) {
		size_t cap = op->cap ? op->cap * 2 : 256;
		struct line *nl = realloc(op->lines, cap * sizeof *nl);
		if (!nl)
			return NULL;
		op->lines = nl;
		op->cap = cap;
	}
	l = &op->lines[op->n++];
	memset(l, 0, sizeof *l);
	l->kind = (unsigned char)kind;
	if (kind == OUT_HEADER)
		op->runs++;
	if (op->scroll > 0)
		op->scroll++; /* keep the reader's place while output arrives */
	return l;
}

/* Append bytes to a line, growing it. */
static void line_add(struct line *l, const char *s, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		size_t cap = l->cap ? l->cap : 64;
		while (cap < l->len + n + 1)
			cap *= 2;
		char *t = realloc(l->text, cap);
		if (!t)
			return;
		l->text = t;
		l->cap = cap;
	}
	memcpy(l->text + l->len, s, n);
	l->len += n;
	l->text[l->len] = '\0';
	l->cells += text_width(s, n);
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
static void append_text(struct output_pane *op, enum out_kind kind,
			const char *s, size_t len)
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
		line_add(l, s + i, j - i);
		if (j < len && s[j] == '\t') {
			int spaces = 8 - l->cells % 8;
			line_add(l, "        ", (size_t)spaces);
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
	sanitize_init(&op->san[0]);
	sanitize_init(&op->san[1]);
	struct line *l = new_line(op, OUT_HEADER);
	if (!l)
		return;
	op->header = op->dropped + op->n - 1;
	set_header(op, "running");
	op->scroll = 0;
}

void output_program(struct output_pane *op, enum out_kind stream,
		    const char *bytes, size_t len)
{
	struct sanitizer *s = &op->san[stream == OUT_STDERR];
	size_t cap = sanitize_max_out(len);
	char stackbuf[8192];
	char *buf = cap <= sizeof stackbuf ? stackbuf : malloc(cap);

	if (!buf)
		return;
	size_t m = sanitize_feed(s, bytes, len, buf, cap);
	append_text(op, stream == OUT_STDERR ? OUT_STDERR : OUT_STDOUT, buf, m);
	if (buf != stackbuf)
		free(buf);
}

/* Flush what a stream kept back (a split UTF-8 sequence at the end). */
static void flush_stream(struct output_pane *op, int i)
{
	char buf[64];
	size_t m = sanitize_finish(&op->san[i], buf, sizeof buf);
	append_text(op, i ? OUT_STDERR : OUT_STDOUT, buf, m);
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

struct picture *output_picture_shown(const struct output_pane *op)
{
	if (op->shown)
		return op->shown;
	for (size_t i = op->n; i > 0; i--)
		if (op->lines[i - 1].pic)
			return op->lines[i - 1].pic;
	return NULL;
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
	set_header(op, state);
	if (r && r->truncated) {
		format_bytes(r->limits.output_bytes, size, sizeof size);
		output_message(op, OUT_INFO, "[output cut at the %s output limit]",
			       size);
	}
	if (r && r->status == SP_STATUS_SANDBOX_ERROR && r->error[0])
		output_message(op, OUT_ERROR, "sandbox error: %s", r->error);
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

/* sandpit's own lines wrap at words; the program's output is shown as
 * it came, cut at the edge, since its spacing may matter */
static bool by_words(unsigned char kind)
{
	return kind != OUT_STDOUT && kind != OUT_STDERR;
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
	return text_wrap_rows(l->text ? l->text : "", l->len, w, by_words(l->kind));
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
	op->pic_rows = in.h / 2 < PICTURE_ROWS ? (in.h / 2 > 3 ? in.h / 2 : 3) : PICTURE_ROWS;
	op->shown = NULL;
	op->n_drawn = 0;
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
		attr_t a = kind_attr(th, l->kind);
		if (l->pic) { /* its rows below the ones scrolled off the top */
			int rows = line_rows(op, l, w);
			int from = skip > 0 ? (int)(skip < rows ? skip : rows) : 0;
			int n = rows - from < in.h - y ? rows - from : in.h - y;
			skip -= from;
			if (n > 0) {
				picture_draw(l->pic, win, in.y + y, in.x + 2, w - 1, op->pic_rows,
					     from, n, th);
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
			size_t n = text_wrap_row(s + off, len - off, w, by_words(l->kind));
			if (skip > 0) {
				skip--;
			} else if (y < in.h) {
				if (y < (int)(sizeof op->row_line / sizeof op->row_line[0])) {
					op->row_line[y] = op->dropped + i;
					op->last_h = y + 1;
				}
				if (l->kind == OUT_STDERR)
					text_draw(win, in.y + y, in.x, 1, "!", 1, a | A_BOLD);
				text_draw(win, in.y + y, in.x + 1, w, s + off, n, a);
				y++;
			}
			off += n;
		} while (off < len);
	}
}
