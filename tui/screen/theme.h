/* SPDX-License-Identifier: MIT */
/*
 * theme.h - colours and attributes for every screen element.
 *
 * Invariants:
 *  - struct theme is a plain value: callers may hold one by value, copy it
 *    and never free it. theme_default() or theme_load() fills it; every
 *    role always has a style (a theme file that omits a key inherits the
 *    built-in default's style for it).
 *  - Colours are stored as the file gave them (name, palette index or
 *    #rrggbb) and mapped to what the terminal can show only in
 *    theme_apply(): true colour if the terminal has it (COLORS >= 2^24,
 *    e.g. TERM=xterm-direct), else the nearest of 256, of 16, of 8, else
 *    no colour at all and each role's monochrome attributes
 *    (bold/reverse/underline/dim). NO_COLOR (any non-empty value) forces
 *    monochrome.
 *  - theme_attr() before theme_apply() gives the monochrome attributes,
 *    so it is always safe to call.
 * The file format is in docs/editor.md; parsing uses inih.
 */
#ifndef SP_THEME_H
#define SP_THEME_H

#include <stddef.h>
#include <stdint.h>

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <ncurses.h>
#include <stdbool.h>

#include "screen/colormap.h"

enum theme_role {
	TR_NORMAL, TR_BORDER, TR_BORDER_FOCUSED, TR_TITLE, TR_TITLE_FOCUSED,
	TR_LINENO, TR_CURLINE, TR_SELECTION, TR_MATCH_BRACKET, TR_FIND_MATCH,
	TR_INVALID, TR_KEYWORD, TR_BUILTIN, TR_STRING, TR_COMMENT, TR_NUMBER,
	TR_DECORATOR, TR_STDOUT, TR_STDERR, TR_HEADER, TR_GAUGE_OK,
	TR_GAUGE_NEAR, TR_GAUGE_FULL, TR_VIOLATION, TR_STATUS, TR_STATUS_KEY,
	TR_DIALOG, TR_ERROR, TR_CHANGED, TR_COUNT
};

/* A colour as written: THEME_COLOR_DEFAULT (the terminal's own), a
 * palette index 0..255, or THEME_RGB | 0xRRGGBB. */
#define THEME_COLOR_DEFAULT CM_DEFAULT
#define THEME_RGB CM_RGB

/* Attribute bits (our own, mapped to A_* in theme_attr). */
enum {
	TA_BOLD = 1, TA_DIM = 2, TA_UNDERLINE = 4, TA_REVERSE = 8,
	TA_ITALIC = 16, TA_BLINK = 32
};

struct theme_style {
	int32_t fg, bg;       /* colours as written */
	unsigned attrs;       /* TA_* when colours are shown */
	unsigned mono;        /* TA_* when they are not */
};

struct theme {
	char name[64];
	struct theme_style style[TR_COUNT];
	/* [basic]: how the theme degrades on a terminal of 8 or 16 colours,
	 * for the roles whose bit is set in basic_set (the others are mapped
	 * from style, kept readable by cm_readable). */
	struct theme_style basic[TR_COUNT];
	uint64_t basic_set;
	/* Filled by theme_apply(): */
	int applied;          /* 0 before, 1 after */
	int depth;            /* the colour depth mapped to (colormap.h) */
	int mono;             /* 1: no colour (NO_COLOR, or the terminal) */
	short pair[TR_COUNT]; /* colour pair per role, 0 = none */
	short curline_pair[TR_COUNT]; /* role's fg on the current line's bg */
	short ansi_pair[16];  /* program output's ANSI colours on its own bg */
};

/* The curses attribute of a byte of program output with look (VT_* of
 * tui/text/vt_output.h) over base, its line's own attribute: the ANSI colour
 * on the theme's stdout background, bold, underline; under monochrome
 * (NO_COLOR) only bold and underline. */
attr_t theme_look_attr(const struct theme *th, unsigned char look, attr_t base);

/* Fills out with the built-in default (dark) theme. */
void theme_default(struct theme *out);

/* The built-in default's text: the bytes of themes/default.theme, embedded
 * at build time (len set to their count). */
const char *theme_builtin_text(size_t *len);

/* Loads a theme by name (searched in $SANDPIT_THEMES, ../themes next to
 * the binary, SP_DATADIR/themes) or by path (contains '/' or ends in
 * ".theme"). 0 on success; -1 with err = "FILE:LINE: what is wrong" (or
 * "NAME: not found ...") and out = the built-in default. "default" with
 * no file found anywhere gives the built-in default. */
int theme_load(const char *name_or_path, struct theme *out, char *err, size_t errlen);

/* Parses theme text (for tests and the built-in); file names the source in
 * messages. Same contract as theme_load. */
int theme_parse_string(const char *text, const char *file, struct theme *out,
		       char *err, size_t errlen);

/* The terminal colours role is drawn in at depth (8, 16, 256 or
 * CM_DIRECT): its fg (kept readable on its bg, see cm_readable) on its
 * own bg, or with on_curline on the current line's bg. -1: the
 * terminal's default. What theme_apply() makes its pairs of. */
void theme_colors_at(const struct theme *th, enum theme_role role, int depth,
		     bool on_curline, int *fg, int *bg);

/* After initscr()/start_color(): picks the colour depth, sets up one colour
 * pair per role (and per syntax role on the current line). */
void theme_apply(struct theme *th);

/* Attributes incl. COLOR_PAIR for role, for wattr_set/wattron. */
attr_t theme_attr(const struct theme *th, enum theme_role role);

/* The colour pair for role (0 when monochrome), for wattr_set's pair
 * argument (pairs above 255 do not fit in attr_t). */
short theme_pair(const struct theme *th, enum theme_role role);

/* The pair for a syntax role drawn on the current line's background. */
short theme_curline_pair(const struct theme *th, enum theme_role role);

/* Attributes without the colour pair (for wattr_set with theme_pair). */
attr_t theme_attrs_only(const struct theme *th, enum theme_role role);

/* The key (e.g. "syntax.keyword") of role, for messages and docs. */
const char *theme_role_key(enum theme_role role);

#endif
