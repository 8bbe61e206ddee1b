/* SPDX-License-Identifier: MIT */
/*
 * theme.c - theme files (inih) and their mapping onto the terminal.
 *
 * A theme file is INI: [section] headers and "key = value" lines. Each
 * screen role has one key, "section.key" (see role_keys below). A value is
 * a list of words: a foreground colour, "on" and a background colour, and
 * attributes. [mono] holds, for the same keys, the attributes used when
 * there is no colour at all.
 *
 * inih calls us once per key; to name the line of an error we feed it the
 * text through our own line reader, which counts lines as it goes.
 */
#include "screen/theme.h"

#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/ini_lines.h"
#include "buf.h"
#include "screen/colormap.h"
#include "banned.h"

#ifndef SP_DATADIR
#define SP_DATADIR "/usr/local/share/sandpit"
#endif

/* The default theme: themes/default.theme itself, carried in the binary
 * (tools/embed.sh, at build time) so the playground works with no themes
 * directory at all, and parsed by the same parser as any theme file. */
extern const char theme_default_text[];
extern const unsigned long theme_default_text_len;

const char *theme_builtin_text(size_t *len)
{
	*len = theme_default_text_len;
	return theme_default_text;
}

static const char *const role_keys[TR_COUNT] = {
	[TR_NORMAL] = "editor.text",
	[TR_BORDER] = "pane.border",
	[TR_BORDER_FOCUSED] = "pane.border_focused",
	[TR_TITLE] = "pane.title",
	[TR_TITLE_FOCUSED] = "pane.title_focused",
	[TR_LINENO] = "editor.line_number",
	[TR_CURLINE] = "editor.current_line",
	[TR_SELECTION] = "editor.selection",
	[TR_MATCH_BRACKET] = "editor.matching_bracket",
	[TR_FIND_MATCH] = "editor.find_match",
	[TR_INVALID] = "editor.invalid",
	[TR_KEYWORD] = "syntax.keyword",
	[TR_BUILTIN] = "syntax.builtin",
	[TR_STRING] = "syntax.string",
	[TR_COMMENT] = "syntax.comment",
	[TR_NUMBER] = "syntax.number",
	[TR_DECORATOR] = "syntax.decorator",
	[TR_STDOUT] = "output.stdout",
	[TR_STDERR] = "output.stderr",
	[TR_HEADER] = "pane.header",
	[TR_GAUGE_OK] = "gauge.ok",
	[TR_GAUGE_NEAR] = "gauge.near",
	[TR_GAUGE_FULL] = "gauge.full",
	[TR_VIOLATION] = "output.violation",
	[TR_STATUS] = "status.text",
	[TR_STATUS_KEY] = "status.key",
	[TR_DIALOG] = "dialog.text",
	[TR_ERROR] = "dialog.error",
	[TR_CHANGED] = "status.changed",
};

/* Returns the key of role. */
const char *theme_role_key(enum theme_role role)
{
	return role >= 0 && role < TR_COUNT ? role_keys[role] : "?";
}

static const char *const color_names[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow",
	"bright-blue", "bright-magenta", "bright-cyan", "bright-white",
};

static const struct { const char *name; unsigned bit; } attr_names[] = {
	{ "bold", TA_BOLD }, { "dim", TA_DIM }, { "underline", TA_UNDERLINE },
	{ "reverse", TA_REVERSE }, { "italic", TA_ITALIC }, { "blink", TA_BLINK },
	{ "normal", 0 },
};

/* Parses one colour word into *c. 0, or -1 if it is not a colour. */
static int parse_color(const char *w, int32_t *c)
{
	if (!strcasecmp(w, "default") || !strcasecmp(w, "none")) {
		*c = THEME_COLOR_DEFAULT;
		return 0;
	}
	if (!strcasecmp(w, "gray") || !strcasecmp(w, "grey")) {
		*c = 8;
		return 0;
	}
	for (int i = 0; i < 16; i++)
		if (!strcasecmp(w, color_names[i]) ||
		    (i >= 8 && !strncasecmp(w, "bright", 6) && !strcasecmp(w + 6, color_names[i] + 7))) {
			*c = i;
			return 0;
		}
	char *end;
	if (w[0] == '#') {
		if (strlen(w) != 7 || strspn(w + 1, "0123456789abcdefABCDEF") != 6)
			return -1;
		*c = THEME_RGB | (int32_t)strtol(w + 1, NULL, 16);
		return 0;
	}
	if (w[0] >= '0' && w[0] <= '9') {
		errno = 0;
		long v = strtol(w, &end, 10);
		if (*end || errno || v > 255)
			return -1;
		*c = (int32_t)v;
		return 0;
	}
	return -1;
}

/* Parses a style value. With mono set only attributes are allowed.
 * 0, or -1 with msg filled. */
static int parse_style(const char *value, bool mono, struct theme_style *st,
		       char *msg, size_t msglen)
{
	char buf[256];
	snprintf(buf, sizeof buf, "%s", value);
	struct theme_style s = { THEME_COLOR_DEFAULT, THEME_COLOR_DEFAULT, 0, st->mono };
	unsigned attrs = 0;
	bool have_fg = false, have_bg = false, want_bg = false, any = false;
	char *save = NULL;
	for (char *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		any = true;
		size_t i;
		for (i = 0; i < SP_ARRAY_SIZE(attr_names); i++)
			if (!strcasecmp(w, attr_names[i].name))
				break;
		if (want_bg) {
			if (parse_color(w, &s.bg) < 0) {
				snprintf(msg, msglen, "'%s' is not a colour (a name, 0-255 or #rrggbb)", w);
				return -1;
			}
			want_bg = false;
			have_bg = true;
		} else if (i < SP_ARRAY_SIZE(attr_names)) {
			attrs |= attr_names[i].bit;
		} else if (mono) {
			snprintf(msg, msglen, "'%s' is not an attribute (bold dim underline reverse italic blink normal)", w);
			return -1;
		} else if (!strcasecmp(w, "on")) {
			if (have_bg) {
				snprintf(msg, msglen, "two backgrounds");
				return -1;
			}
			want_bg = true;
		} else if (have_fg) {
			snprintf(msg, msglen, "'%s': a second foreground colour (use 'on COLOUR' for the background)", w);
			return -1;
		} else if (parse_color(w, &s.fg) < 0) {
			snprintf(msg, msglen, "'%s' is not a colour or attribute", w);
			return -1;
		} else {
			have_fg = true;
		}
	}
	if (want_bg) {
		snprintf(msg, msglen, "'on' without a background colour");
		return -1;
	}
	if (!any) {
		snprintf(msg, msglen, "empty value");
		return -1;
	}
	if (mono) {
		st->mono = attrs;
	} else {
		s.attrs = attrs;
		*st = s;
	}
	return 0;
}

/* Finds the role whose key is section.name; -1 if none. */
static int role_of(const char *section, const char *name)
{
	size_t sl = strlen(section);
	for (int r = 0; r < TR_COUNT; r++) {
		const char *k = role_keys[r];
		if (!strncmp(k, section, sl) && k[sl] == '.' && !strcmp(k + sl + 1, name))
			return r;
	}
	return -1;
}

/* What the inih callbacks share. */
struct parse_ctx {
	struct theme *th;
	struct ini_lines in;  /* the reader, and every bad line */
};

/* Records an error for the line being parsed; 0 so inih notes it too. */
static int fail(struct parse_ctx *c, const char *msg)
{
	return ini_lines_error(&c->in, msg);
}

/* inih handler: one key = value. */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;
	char msg[160];
	if (!strcasecmp(section, "theme")) {
		if (!strcasecmp(name, "name"))
			snprintf(c->th->name, sizeof c->th->name, "%s", value);
		else if (strcasecmp(name, "description")) {
			snprintf(msg, sizeof msg, "unknown key '%s' in [theme] (name, description)", name);
			return fail(c, msg);
		}
		return 1;
	}
	/* [mono] and [basic] name a role by its full key, section.key */
	bool mono = !strcasecmp(section, "mono");
	bool basic = !strcasecmp(section, "basic");
	int role;
	if (mono || basic) {
		const char *dot = strchr(name, '.');
		char sec[32];
		if (!dot || (size_t)(dot - name) >= sizeof sec) {
			snprintf(msg, sizeof msg, "unknown key '%s' in [%s] (want section.key)",
				 name, section);
			return fail(c, msg);
		}
		snprintf(sec, sizeof sec, "%.*s", (int)(dot - name), name);
		role = role_of(sec, dot + 1);
	} else {
		role = role_of(section, name);
	}
	if (role < 0) {
		if (!*section)
			snprintf(msg, sizeof msg, "key '%s' outside any [section]", name);
		else
			snprintf(msg, sizeof msg, "unknown key '%s' in [%s]", name, section);
		return fail(c, msg);
	}
	struct theme_style *st = basic ? &c->th->basic[role] : &c->th->style[role];
	if (parse_style(value, mono, st, msg, sizeof msg) < 0) {
		char full[200];
		snprintf(full, sizeof full, "%s: %s", mono || basic ? name : role_keys[role], msg);
		return fail(c, full);
	}
	if (basic)
		c->th->basic_set |= UINT64_C(1) << role;
	return 1;
}

/* Parses text over the styles already in th. 0, or -1 with err filled:
 * every bad line, "FILE:LINE: what", one a line. */
static int parse_into(const char *text, const char *file, struct theme *th,
		      char *err, size_t errlen)
{
	struct parse_ctx c = { .th = th };
	int rc;

	ini_lines_init(&c.in, text);
	rc = ini_parse_stream(ini_lines_reader, &c.in, on_key, &c);
	if (rc < 0) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -1;
	}
	ini_lines_finish(&c.in, rc);
	return ini_lines_format(&c.in, file, err, errlen) ? -1 : 0;
}

/* The built-in default. */
void theme_default(struct theme *out)
{
	char err[256];
	memset(out, 0, sizeof *out);
	for (int r = 0; r < TR_COUNT; r++)
		out->style[r].fg = out->style[r].bg = THEME_COLOR_DEFAULT;
	parse_into(theme_default_text, "(built-in)", out, err, sizeof err);
	snprintf(out->name, sizeof out->name, "default");
}

/* Parses text on top of the default; on error out is the default. */
int theme_parse_string(const char *text, const char *file, struct theme *out,
		       char *err, size_t errlen)
{
	theme_default(out);
	out->name[0] = '\0';
	if (parse_into(text, file, out, err, errlen) < 0) {
		theme_default(out);
		return -1;
	}
	if (!out->name[0]) {
		const char *base = strrchr(file, '/');
		snprintf(out->name, sizeof out->name, "%s", base ? base + 1 : file);
	}
	return 0;
}

/* Reads a whole theme file (a regular file, at most 1 MiB). NULL with
 * err filled on failure. */
static char *slurp(const char *path, char *err, size_t errlen)
{
	return ini_lines_read_file(path, 1u << 20, err, errlen);
}

/* Writes dir/name.theme into out when that file exists. */
static bool try_dir(const char *dir, const char *name, char *out, size_t outlen)
{
	struct stat st;
	if (!dir || !*dir)
		return false;
	int n = snprintf(out, outlen, "%s/%s.theme", dir, name);
	return n > 0 && (size_t)n < outlen && stat(out, &st) == 0 && S_ISREG(st.st_mode);
}

/* Finds the file for a theme name in the search path. */
static bool find_theme(const char *name, char *path, size_t pathlen)
{
	if (try_dir(getenv("SANDPIT_THEMES"), name, path, pathlen))
		return true;
	/* Running from the build tree: <repo>/build/sandpit -> <repo>/themes. */
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			char dir[PATH_MAX + 16];
			*slash = '\0';
			snprintf(dir, sizeof dir, "%s/../themes", exe);
			if (try_dir(dir, name, path, pathlen))
				return true;
		}
	}
	return try_dir(SP_DATADIR "/themes", name, path, pathlen);
}

/* Loads by name or path; see theme.h. */
int theme_load(const char *name_or_path, struct theme *out, char *err, size_t errlen)
{
	char path[PATH_MAX + 64];
	size_t len = strlen(name_or_path);
	bool is_path = strchr(name_or_path, '/') ||
		       (len > 6 && !strcmp(name_or_path + len - 6, ".theme"));
	if (is_path) {
		snprintf(path, sizeof path, "%s", name_or_path);
	} else if (!find_theme(name_or_path, path, sizeof path)) {
		if (!strcmp(name_or_path, "default")) {
			theme_default(out);
			return 0;
		}
		snprintf(err, errlen, "%s: no such theme (looked in $SANDPIT_THEMES, "
			 "../themes next to the program, " SP_DATADIR "/themes)", name_or_path);
		theme_default(out);
		return -1;
	}
	char *text = slurp(path, err, errlen);
	if (!text) {
		theme_default(out);
		return -1;
	}
	int rc = theme_parse_string(text, path, out, err, errlen);
	free(text);
	return rc;
}

/* --- Mapping onto the terminal ------------------------------------- */

/* The style role is drawn with at depth: its [basic] one, where the theme
 * declares how it degrades to 8 and 16 colours, else its own. */
static const struct theme_style *style_at(const struct theme *th, int role, int depth)
{
	if (depth < 256 && (th->basic_set >> role & 1))
		return &th->basic[role];
	return &th->style[role];
}

/* The contrast role's text needs: frames are not text. */
static double wanted_contrast(int role)
{
	return role == TR_BORDER || role == TR_BORDER_FOCUSED ? CM_FRAME_CONTRAST
							      : CM_TEXT_CONTRAST;
}

void theme_colors_at(const struct theme *th, enum theme_role role, int depth,
		     bool on_curline, int *fg, int *bg)
{
	const struct theme_style *s = style_at(th, role, depth);
	*bg = cm_map(s->bg, depth);
	if (on_curline) {
		const struct theme_style *cl = style_at(th, TR_CURLINE, depth);
		*bg = cm_map(cl->bg, depth);
		if (*bg < 0)
			*bg = cm_map(style_at(th, TR_NORMAL, depth)->bg, depth);
	}
	*fg = cm_readable(cm_map(s->fg, depth), *bg, depth, wanted_contrast(role),
			  cm_written_rgb(s->fg));
}

/* Our TA_* bits as curses attributes. */
static attr_t to_attr(unsigned a)
{
	attr_t r = A_NORMAL;
	if (a & TA_BOLD) r |= A_BOLD;
	if (a & TA_DIM) r |= A_DIM;
	if (a & TA_UNDERLINE) r |= A_UNDERLINE;
	if (a & TA_REVERSE) r |= A_REVERSE;
	if (a & TA_ITALIC) r |= A_ITALIC;
	if (a & TA_BLINK) r |= A_BLINK;
	return r;
}

/* Sets up pair number n; false when the terminal refuses. */
static bool make_pair(int n, int fg, int bg, bool have_default)
{
	if (!have_default) {
		if (fg < 0) fg = COLOR_WHITE;
		if (bg < 0) bg = COLOR_BLACK;
	}
	if (n >= COLOR_PAIRS)
		return false;
	return init_extended_pair(n, fg, bg) == OK;
}

/* Chooses the colour depth and creates the pairs. */
void theme_apply(struct theme *th)
{
	const char *nc = getenv("NO_COLOR");
	th->applied = 1;
	memset(th->pair, 0, sizeof th->pair);
	memset(th->curline_pair, 0, sizeof th->curline_pair);
	th->mono = (nc && *nc) || !has_colors();
	if (th->mono)
		return;
	if (start_color() == ERR || COLORS < 8) {
		th->mono = 1;
		return;
	}
	bool have_default = use_default_colors() == OK;
	int depth = COLORS >= 0x1000000 ? CM_DIRECT : COLORS >= 256 ? 256 : COLORS >= 16 ? 16 : 8;
	int next = 1, fg, bg;
	th->depth = depth;
	for (int r = 0; r < TR_COUNT; r++) {
		theme_colors_at(th, (enum theme_role)r, depth, false, &fg, &bg);
		if (make_pair(next, fg, bg, have_default))
			th->pair[r] = (short)next;
		next++;
	}
	/* Program output's ANSI colours 0..15, on stdout's background: the
	 * terminal's own palette entries, as the program meant them */
	memset(th->ansi_pair, 0, sizeof th->ansi_pair);
	int out_bg = cm_map(style_at(th, TR_STDOUT, depth)->bg, depth);
	for (int c = 0; c < 16 && c < COLORS; c++) {
		if (make_pair(next, c, out_bg, have_default))
			th->ansi_pair[c] = (short)next;
		next++;
	}
	/* Every role on the cursor's line: its fg, the current line's bg. */
	for (int r = 0; r < TR_COUNT; r++) {
		theme_colors_at(th, (enum theme_role)r, depth, true, &fg, &bg);
		if (make_pair(next, fg, bg, have_default))
			th->curline_pair[r] = (short)next;
		next++;
	}
}

/* Attributes for role without its colour. */
attr_t theme_attrs_only(const struct theme *th, enum theme_role role)
{
	if (role < 0 || role >= TR_COUNT)
		role = TR_NORMAL;
	if (!th->applied || th->mono)
		return to_attr(th->style[role].mono);
	return to_attr(style_at(th, role, th->depth)->attrs);
}

/* Pair for role, 0 when monochrome. */
short theme_pair(const struct theme *th, enum theme_role role)
{
	if (role < 0 || role >= TR_COUNT || !th->applied || th->mono)
		return 0;
	return th->pair[role];
}

/* Pair for role's fg on the current line's bg. */
short theme_curline_pair(const struct theme *th, enum theme_role role)
{
	if (role < 0 || role >= TR_COUNT || !th->applied || th->mono)
		return 0;
	return th->curline_pair[role] ? th->curline_pair[role] : th->pair[role];
}

/* Attributes incl. the colour pair. */
attr_t theme_look_attr(const struct theme *th, unsigned char look, attr_t base)
{
	attr_t a = base;
	int fg = (look & 0x1f) - 1;   /* VT_FG_MASK: 0 the default, else 1 + colour */

	if (look & 0x20)              /* VT_BOLD */
		a |= A_BOLD;
	if (look & 0x40)              /* VT_UNDERLINE */
		a |= A_UNDERLINE;
	if (fg >= 0 && fg < 16 && th->applied && !th->mono && th->ansi_pair[fg])
		a = (a & ~A_COLOR) | COLOR_PAIR(th->ansi_pair[fg]);
	return a;
}

attr_t theme_attr(const struct theme *th, enum theme_role role)
{
	return theme_attrs_only(th, role) | COLOR_PAIR(theme_pair(th, role));
}
