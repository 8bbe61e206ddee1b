/* SPDX-License-Identifier: MIT */
/*
 * image_screen.c - image cells onto ncurses, and the pictures' colour pairs.
 *
 * The cache is an open-addressing table from (fg, bg) to a pair number,
 * pairs handed out in order from just above the theme's. It is seeded
 * with the theme's own pairs (read back with extended_pair_content), so a
 * terminal with few pairs, like TERM=screen's 64 of which the theme holds
 * 58, can still show the 8 fg-only colours through the theme's pairs
 * that already have them. A colour that gets no pair is drawn in the
 * terminal's default colours: the symbol still shows the shape.
 */
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "image/graphics.h"
#include "pane/image_screen.h"
#include "screen/theme.h"
#include "banned.h"

/* More pairs than any screen has cells is never needed. */
#define PAIRS_CAP 32768
#define TABLE_SIZE (2 * PAIRS_CAP)

struct slot {
	int32_t fg, bg;
	int pair;         /* 0 = empty slot */
	bool theme;       /* one of the theme's: kept across a start-over */
};

static struct {
	bool ready;
	int base, end;    /* ours are base..end-1 */
	int next;         /* the next unused pair of ours */
	int used;
	bool have_default;
	struct slot *table;
} pc;

/* The table slot (fg, bg) starts probing at. */
static unsigned hash(int32_t fg, int32_t bg)
{
	uint32_t h = (uint32_t)fg * 2654435761u ^ ((uint32_t)bg + 0x9e3779b9u) * 40503u;
	return (h ^ h >> 15) & (TABLE_SIZE - 1);
}

/* The slot holding (fg, bg), or the empty one where it would go (the
 * table is never full: it has twice the slots of the pairs). */
static struct slot *find(int32_t fg, int32_t bg)
{
	unsigned i = hash(fg, bg);
	for (;;) {
		struct slot *s = &pc.table[i];
		if (!s->pair || (s->fg == fg && s->bg == bg))
			return s;
		i = (i + 1) & (TABLE_SIZE - 1);
	}
}

/* Empty the table, keeping the theme's pairs, which are re-read. */
static void start_over(void)
{
	memset(pc.table, 0, TABLE_SIZE * sizeof *pc.table);
	pc.next = pc.base;
	pc.used = 0;
	for (int p = 1; p < pc.base && p < COLOR_PAIRS; p++) {
		int fg, bg;
		if (extended_pair_content(p, &fg, &bg) != OK)
			continue;
		struct slot *s = find(fg, bg);
		if (!s->pair) {
			s->fg = fg;
			s->bg = bg;
			s->pair = p;
			s->theme = true;
		}
	}
}

/* Set up once colours are known: our pairs start above the theme's. */
static bool setup(const struct theme *th)
{
	if (pc.ready)
		return pc.table != NULL;
	pc.ready = true;
	int top = 0;
	for (int r = 0; r < TR_COUNT; r++) {
		if (th->pair[r] > top) top = th->pair[r];
		if (th->curline_pair[r] > top) top = th->curline_pair[r];
	}
	pc.base = top + 1;
	pc.end = COLOR_PAIRS;
	if (pc.end - pc.base > PAIRS_CAP)
		pc.end = pc.base + PAIRS_CAP;
	if (pc.end < pc.base)
		pc.end = pc.base;
	/* as theme_apply asked: -1 is the terminal's own colour if it can */
	pc.have_default = use_default_colors() == OK;
	pc.table = calloc(TABLE_SIZE, sizeof *pc.table);
	if (!pc.table)
		return false;
	start_over();
	return true;
}

/* Pairs pictures may have. */
static int budget(void)
{
	return pc.end - pc.base;
}

void image_screen_frame(const struct theme *th)
{
	if (th->mono || !has_colors() || !setup(th))
		return;
	/* only where a screenful fits: with fewer pairs the mode's every
	 * combination fits (or, fg-only on 8 colours, what does not get a
	 * pair is drawn in default colours), and starting over gains nothing */
	if (budget() >= LINES * COLS && pc.used > budget() - LINES * COLS)
		start_over();
}

int image_screen_pairs_used(void)
{
	return pc.used;
}

void image_screen_reset(void)
{
	free(pc.table);
	memset(&pc, 0, sizeof pc);
}

/* The pair for (fg, bg), made on demand; 0 when none is left. */
static int pair_for(int32_t fg, int32_t bg)
{
	struct slot *s = find(fg, bg);

	if (s->pair)
		return s->pair;
	if (pc.next >= pc.end)
		return 0;
	int f = fg, b = bg;
	if (!pc.have_default) {
		if (f < 0) f = COLOR_WHITE;
		if (b < 0) b = COLOR_BLACK;
	}
	if (init_extended_pair(pc.next, f, b) != OK)
		return 0;
	s->fg = fg;
	s->bg = bg;
	s->pair = pc.next++;
	pc.used++;
	return s->pair;
}

enum image_mode image_screen_mode(const struct theme *th)
{
	if (th->mono || !has_colors() || COLORS < 8 || !setup(th))
		return IMAGE_MODE_MONO;
	int b = budget(), cells = LINES * COLS;
	if (COLORS >= 0x1000000 && b >= cells)
		return IMAGE_MODE_DIRECT;
	if (COLORS >= 256 && b >= cells)
		return IMAGE_MODE_256;
	if (COLORS >= 16 && b >= 256)
		return IMAGE_MODE_16;
	if (b >= 64)
		return IMAGE_MODE_8;
	return IMAGE_MODE_8_FG;
}

enum image_symbols image_screen_symbols(void)
{
	const char *cs = nl_langinfo(CODESET);

	return MB_CUR_MAX > 1 && cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"))
		? IMAGE_SYM_BLOCK : IMAGE_SYM_ASCII;
}

void image_screen_draw(WINDOW *win, int y, int x, int maxw, const struct image_cells *c,
		       int first, int n, const struct theme *th)
{
	bool colour = c->mode != IMAGE_MODE_MONO && !th->mono && pc.table;
	attr_t mono_attr = theme_attrs_only(th, TR_NORMAL);
	int mono_pair = theme_pair(th, TR_NORMAL);
	int cols = c->cols < maxw ? c->cols : maxw;

	for (int r = first > 0 ? first : 0; r < first + n && r < c->rows; r++) {
		for (int i = 0; i < cols; i++) {
			const struct image_cell *e = &c->cell[(size_t)r * c->cols + i];
			wchar_t wc[2] = { (wchar_t)e->ch, 0 };
			cchar_t cc;
			int32_t fg = e->fg, bg = e->bg;
			/* direct colour numbers 0..7 are the ANSI colours, not RGB:
			 * the darkest blues move up to 0x000008 */
			if (c->mode == IMAGE_MODE_DIRECT) {
				if (fg >= 0 && fg < 8) fg = 8;
				if (bg >= 0 && bg < 8) bg = 8;
			}
			int pair = colour ? pair_for(fg, bg) : mono_pair;
			attr_t a = (colour ? A_NORMAL : mono_attr) | (e->reverse ? A_REVERSE : 0);
			if (setcchar(&cc, wc, a, 0, &pair) == OK)
				mvwadd_wch(win, y + r - first, x + i, &cc);
		}
	}
}

void image_screen_pixels_put(int y, int x, const char *seq, size_t len)
{
	/* at the picture's cell, the cursor kept (DECSC / DECRC) */
	printf("\0337\033[%d;%dH", y + 1, x + 1);
	fwrite(seq, 1, len, stdout);
	fputs("\0338", stdout);
	fflush(stdout);
}

void image_screen_pixels_take_away(int gfx_mode, unsigned kitty_id)
{
	if (gfx_mode == GFX_KITTY && kitty_id)
		printf("\033_Ga=d,d=I,i=%u,q=2\033\\", kitty_id);
	else if (gfx_mode == GFX_KITTY)
		fputs("\033_Ga=d,d=a\033\\", stdout);
	else if (gfx_mode == GFX_SIXEL)
		wrefresh(curscr);
	fflush(stdout);
}
