/* SPDX-License-Identifier: MIT */
/*
 * test_theme.c - theme files: the shipped ones, the built-in copy, every
 * kind of error with its line, the search path, and the colour mapping.
 * Run from the repository root (themes/ is read from there).
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "screen/theme.h"

#include "banned.h"

static const char *const shipped[] = { "default", "light", "high-contrast", "monochrome" };

/* Reads a file into a malloc'd string. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 65536);
	assert_non_null(buf);
	size_t n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* True when text has key "name =" inside [section] (and in [mono] as
 * "section.name ="), i.e. the theme styles the role itself. */
static int styles_role(const char *text, const char *key)
{
	char sec[64], name[64], head[80], line[160];
	const char *dot = strchr(key, '.');
	snprintf(sec, sizeof sec, "%.*s", (int)(dot - key), key);
	snprintf(name, sizeof name, "%s", dot + 1);
	snprintf(head, sizeof head, "[%s]", sec);
	const char *s = strstr(text, head);
	if (!s)
		return 0;
	const char *end = strstr(s + 1, "\n[");
	for (const char *p = s; p && (!end || p < end); p = strchr(p + 1, '\n')) {
		if (sscanf(p + 1, "%63s", line) == 1 && !strcmp(line, name))
			return 1;
	}
	return 0;
}

static void test_shipped_themes_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; i++) {
		char path[128], err[256] = "";
		snprintf(path, sizeof path, "themes/%s.theme", shipped[i]);
		struct theme th;
		if (theme_load(path, &th, err, sizeof err) != 0)
			fail_msg("%s", err);
		assert_string_equal(th.name, shipped[i]);
		char *text = slurp(path);
		char *mono = strstr(text, "\n[mono]");
		assert_non_null(mono);
		for (int r = 0; r < TR_COUNT; r++) {
			const char *key = theme_role_key((enum theme_role)r);
			if (!styles_role(text, key))
				fail_msg("%s does not style %s", path, key);
			char mk[96];
			snprintf(mk, sizeof mk, "\n%s ", key);
			if (!strstr(mono, mk))
				fail_msg("%s has no [mono] %s", path, key);
		}
		free(text);
	}
}

static void test_builtin_matches_file(void **state)
{
	(void)state;
	struct theme a, b;
	char err[256];
	size_t len, file_len = 0;
	const char *text = theme_builtin_text(&len);
	FILE *f = fopen("themes/default.theme", "rb");
	char *file = malloc(1u << 16);

	/* the binary carries the file's own bytes, not a copy of them */
	assert_non_null(f);
	assert_non_null(file);
	file_len = fread(file, 1, 1u << 16, f);
	fclose(f);
	assert_int_equal(len, file_len);
	assert_memory_equal(text, file, len);
	free(file);
	/* and parses to the same styles as the file loaded by name */
	theme_default(&a);
	assert_int_equal(theme_load("themes/default.theme", &b, err, sizeof err), 0);
	assert_memory_equal(a.style, b.style, sizeof a.style);
	assert_string_equal(a.name, "default");
}

static void test_values(void **state)
{
	(void)state;
	struct theme th;
	char err[256];
	const char *t =
		"[syntax]\n"
		"keyword = #C678dd on 236 bold underline\n"
		"string = bright-green\n"
		"comment = grey on default italic\n"
		"number = 208\n"
		"[mono]\n"
		"syntax.keyword = reverse\n";
	assert_int_equal(theme_parse_string(t, "t.theme", &th, err, sizeof err), 0);
	struct theme_style k = th.style[TR_KEYWORD];
	assert_int_equal(k.fg, THEME_RGB | 0xc678dd);
	assert_int_equal(k.bg, 236);
	assert_int_equal(k.attrs, TA_BOLD | TA_UNDERLINE);
	assert_int_equal(k.mono, TA_REVERSE);
	assert_int_equal(th.style[TR_STRING].fg, 10);
	assert_int_equal(th.style[TR_COMMENT].fg, 8);
	assert_int_equal(th.style[TR_COMMENT].bg, THEME_COLOR_DEFAULT);
	assert_int_equal(th.style[TR_NUMBER].fg, 208);
	/* Keys it leaves out keep the default's style. */
	struct theme d;
	theme_default(&d);
	assert_memory_equal(&th.style[TR_STDERR], &d.style[TR_STDERR], sizeof d.style[0]);
}

/* Each error names the file and the line, and leaves the default. */
static void test_errors_with_lines(void **state)
{
	(void)state;
	static const struct { const char *text, *want; } cases[] = {
		{ "[pane]\nborder = red\nbordr = blue\n", "x.theme:3: unknown key 'bordr' in [pane]" },
		{ "# c\n[syntax]\n\nkeyword = purplish\n", "x.theme:4: syntax.keyword: 'purplish' is not a colour or attribute" },
		{ "[syntax]\nkeyword = 256\n", "x.theme:2: syntax.keyword: '256' is not a colour or attribute" },
		{ "[syntax]\nkeyword = #12345\n", "x.theme:2: syntax.keyword: '#12345' is not a colour or attribute" },
		{ "[syntax]\nkeyword = red on\n", "x.theme:2: syntax.keyword: 'on' without a background colour" },
		{ "[syntax]\nkeyword = red blue\n", "x.theme:2: syntax.keyword: 'blue': a second foreground colour (use 'on COLOUR' for the background)" },
		{ "[syntax]\nkeyword = red\njunk line\n", "x.theme:3: not 'key = value' or '[section]'" },
		{ "[nope]\nkeyword = red\n", "x.theme:2: unknown key 'keyword' in [nope]" },
		{ "keyword = red\n", "x.theme:1: key 'keyword' outside any [section]" },
		{ "[mono]\nsyntax.keyword = red\n", "x.theme:2: syntax.keyword: 'red' is not an attribute (bold dim underline reverse italic blink normal)" },
		{ "[mono]\nkeyword = bold\n", "x.theme:2: unknown key 'keyword' in [mono] (want section.key)" },
		{ "[theme]\nauthor = me\n", "x.theme:2: unknown key 'author' in [theme] (name, description)" },
		{ "[syntax]\n[broken\n", "x.theme:2: not 'key = value' or '[section]'" },
	};
	struct theme d;
	theme_default(&d);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct theme th;
		char err[256] = "";
		assert_int_equal(theme_parse_string(cases[i].text, "x.theme", &th, err, sizeof err), -1);
		assert_string_equal(err, cases[i].want);
		assert_memory_equal(th.style, d.style, sizeof d.style);
	}
	/* Every bad line is reported, in order, one a line: the handler's own
	 * errors and lines inih cannot parse alike. */
	struct theme th;
	char err[1024];
	assert_int_equal(theme_parse_string("[pane]\nx = 1\nborder = red\njunk\ny = 2\n"
					    "[syntax]\nkeyword = purplish\n[broken\n",
					    "x.theme", &th, err, sizeof err), -1);
	assert_string_equal(err, "x.theme:2: unknown key 'x' in [pane]\n"
				 "x.theme:4: not 'key = value' or '[section]'\n"
				 "x.theme:5: unknown key 'y' in [pane]\n"
				 "x.theme:7: syntax.keyword: 'purplish' is not a colour or attribute\n"
				 "x.theme:8: not 'key = value' or '[section]'");
	/* and a file of nothing but errors stays bounded */
	{
		char many[4096];
		size_t used = (size_t)snprintf(many, sizeof many, "[pane]\n");
		for (int i = 0; i < 40; i++)
			used += (size_t)snprintf(many + used, sizeof many - used, "nope = 1\n");
		assert_int_equal(theme_parse_string(many, "x.theme", &th, err, sizeof err), -1);
		assert_non_null(strstr(err, "x.theme:17: unknown key 'nope'"));
		assert_null(strstr(err, "x.theme:18:"));
		assert_non_null(strstr(err, "and 24 more bad lines"));
	}
	/* A line too long for inih is an error, not a silent split. */
	char longline[400];
	memset(longline, 'a', sizeof longline);
	memcpy(longline, "[pane]\nborder = ", 16);
	longline[sizeof longline - 2] = '\n';
	longline[sizeof longline - 1] = '\0';
	assert_int_equal(theme_parse_string(longline, "x.theme", &th, err, sizeof err), -1);
	assert_non_null(strstr(err, "x.theme:2: line longer than"));
}

static void test_search_path(void **state)
{
	(void)state;
	char dir[] = "/tmp/sandpit-theme-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/mine.theme", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("[theme]\nname = mine\n[pane]\nborder = blue\n", f);
	fclose(f);
	setenv("SANDPIT_THEMES", dir, 1);
	struct theme th;
	char err[512];
	assert_int_equal(theme_load("mine", &th, err, sizeof err), 0);
	assert_string_equal(th.name, "mine");
	assert_int_equal(th.style[TR_BORDER].fg, 4);
	assert_int_equal(theme_load(path, &th, err, sizeof err), 0);     /* by path */
	assert_int_equal(theme_load("no-such", &th, err, sizeof err), -1);
	assert_non_null(strstr(err, "no-such: no such theme"));
	assert_string_equal(th.name, "default");
	assert_int_equal(theme_load("default", &th, err, sizeof err), 0); /* built-in */
	snprintf(path, sizeof path, "%s/missing.theme", dir);
	assert_int_equal(theme_load(path, &th, err, sizeof err), -1);
	assert_non_null(strstr(err, "missing.theme: cannot open"));
	unsetenv("SANDPIT_THEMES");
	snprintf(path, sizeof path, "%s/mine.theme", dir);
	unlink(path);
	rmdir(dir);
}

/* Sets up a screen on /dev/null for term; returns it. */
static SCREEN *screen_for(const char *term, FILE **out)
{
	*out = fopen("/dev/null", "w");
	FILE *in = fopen("/dev/null", "r");
	SCREEN *s = newterm(term, *out, in);
	assert_non_null(s);
	set_term(s);
	return s;
}

static void end_screen(SCREEN *s, FILE *out)
{
	endwin();
	delscreen(s);
	fclose(out);
}

static void test_apply_depths(void **state)
{
	(void)state;
	FILE *out;
	struct theme th;
	int fg, bg;
	unsetenv("NO_COLOR");

	SCREEN *s = screen_for("xterm-256color", &out);
	theme_default(&th);
	theme_apply(&th);
	assert_false(th.mono);
	short p = theme_pair(&th, TR_KEYWORD);
	assert_true(p > 0);
	extended_pair_content(p, &fg, &bg);
	assert_int_equal(fg, 176);            /* #c678dd -> nearest xterm-256 */
	assert_true(theme_attr(&th, TR_KEYWORD) & A_BOLD);
	end_screen(s, out);

	s = screen_for("xterm", &out);        /* 8 colours */
	theme_default(&th);
	theme_apply(&th);
	extended_pair_content(theme_pair(&th, TR_STDERR), &fg, &bg);
	/* #e06c75 is red by hue, but xterm's red reads 3.6:1 on black: the
	 * nearest colour that reads at 4.5:1 there is yellow */
	assert_int_equal(fg, COLOR_YELLOW);
	extended_pair_content(theme_pair(&th, TR_KEYWORD), &fg, &bg);
	assert_int_equal(fg, COLOR_YELLOW);   /* the theme's [basic] keyword */
	assert_int_equal(bg, COLOR_BLACK);
	extended_pair_content(theme_pair(&th, TR_SELECTION), &fg, &bg);
	assert_true(fg < 8 && bg < 8);
	end_screen(s, out);

	setenv("NO_COLOR", "1", 1);
	s = screen_for("xterm-256color", &out);
	theme_default(&th);
	theme_apply(&th);
	assert_true(th.mono);
	assert_int_equal(theme_pair(&th, TR_KEYWORD), 0);
	assert_int_equal(theme_attr(&th, TR_SELECTION), A_REVERSE);
	assert_int_equal(theme_attr(&th, TR_KEYWORD), A_BOLD);
	end_screen(s, out);
	unsetenv("NO_COLOR");

	s = screen_for("vt100", &out);        /* no colours at all */
	theme_default(&th);
	theme_apply(&th);
	assert_true(th.mono);
	assert_int_equal(theme_attr(&th, TR_STATUS), A_REVERSE);
	end_screen(s, out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_themes_complete),
		cmocka_unit_test(test_builtin_matches_file),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_errors_with_lines),
		cmocka_unit_test(test_search_path),
		cmocka_unit_test(test_apply_depths),
	};
	return cmocka_run_group_tests_name("theme", tests, NULL, NULL);
}
