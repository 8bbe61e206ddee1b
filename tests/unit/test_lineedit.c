/* SPDX-License-Identifier: MIT */
/*
 * test_lineedit.c - the prompts' text field: a suggestion typing replaces,
 * the editing keys, history, and Tab completion of paths.
 */
#include "testlib.h"

#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#include "editor/lineedit.h"
#include "text/pathcomplete.h"

#include "banned.h"

static void type(struct lineedit *le, const char *s)
{
	for (; *s; s++)
		le_key(le, false, (wint_t)(unsigned char)*s, NULL, false);
}

/* Save-as once made "state_and_carry.pymine.py": the suggestion is
 * selected, so the first character typed replaces it whole. */
static void test_suggestion_is_replaced(void **state)
{
	(void)state;
	struct lineedit le;
	le_set(&le, "state_and_carry.py", true);
	type(&le, "mine.py");
	assert_string_equal(le_text(&le), "mine.py");
	/* an edit key keeps it, to be edited */
	le_set(&le, "state_and_carry.py", true);
	le_key(&le, true, KEY_END, NULL, false);
	le_key(&le, true, KEY_BACKSPACE, NULL, false);
	le_key(&le, true, KEY_BACKSPACE, NULL, false);
	le_key(&le, true, KEY_BACKSPACE, NULL, false);
	type(&le, "_2.py");
	assert_string_equal(le_text(&le), "state_and_carry_2.py");
	/* Backspace on the selected suggestion takes it whole */
	le_set(&le, "carry.json", true);
	le_key(&le, false, 127, NULL, false);
	assert_string_equal(le_text(&le), "");
}

/* Left, Right, Home, End, Delete, Ctrl-A/E/U/K, by whole characters. */
static void test_editing_keys(void **state)
{
	(void)state;
	struct lineedit le;
	le_set(&le, NULL, false);
	type(&le, "ac");
	le_key(&le, true, KEY_LEFT, NULL, false);
	type(&le, "b");
	assert_string_equal(le_text(&le), "abc");
	le_key(&le, true, KEY_HOME, NULL, false);
	le_key(&le, true, KEY_DC, NULL, false);
	assert_string_equal(le_text(&le), "bc");
	le_key(&le, false, 5, NULL, false);          /* Ctrl-E */
	le_insert(&le, "\xc3\xa9\n", 3);              /* a paste: newline dropped */
	assert_string_equal(le_text(&le), "bc\xc3\xa9");
	le_key(&le, true, KEY_LEFT, NULL, false);     /* over the whole é */
	assert_int_equal(le.cur, 2);
	le_key(&le, true, KEY_RIGHT, NULL, false);
	le_key(&le, true, KEY_RIGHT, NULL, false);    /* at the end: stays */
	assert_int_equal(le.cur, 4);
	le_key(&le, false, 127, NULL, false);
	assert_string_equal(le_text(&le), "bc");
	le_key(&le, false, 1, NULL, false);           /* Ctrl-A */
	le_key(&le, true, KEY_RIGHT, NULL, false);
	le_key(&le, false, 11, NULL, false);          /* Ctrl-K */
	assert_string_equal(le_text(&le), "b");
	le_key(&le, false, 21, NULL, false);          /* Ctrl-U */
	assert_string_equal(le_text(&le), "");
	assert_int_equal(le_key(&le, false, '\r', NULL, false), LE_UNUSED);
	assert_int_equal(le_key(&le, true, KEY_F(5), NULL, false), LE_UNUSED);
}

/* Up and Down walk the entries given before, then back to what was typed. */
static void test_history(void **state)
{
	(void)state;
	static struct le_history h;
	struct lineedit le;
	le_history_add(&h, "one.py");
	le_history_add(&h, "two.py");
	le_history_add(&h, "two.py");                 /* no repeats in a row */
	le_history_add(&h, "");
	assert_int_equal(h.n, 2);
	le_set(&le, NULL, false);
	type(&le, "th");
	le_key(&le, true, KEY_UP, &h, false);
	assert_string_equal(le_text(&le), "two.py");
	le_key(&le, true, KEY_UP, &h, false);
	assert_string_equal(le_text(&le), "one.py");
	le_key(&le, true, KEY_UP, &h, false);         /* the oldest: stays */
	assert_string_equal(le_text(&le), "one.py");
	le_key(&le, true, KEY_DOWN, &h, false);
	le_key(&le, true, KEY_DOWN, &h, false);
	assert_string_equal(le_text(&le), "th");
	for (int i = 0; i < LE_HISTORY + 5; i++) {
		char b[16];
		snprintf(b, sizeof b, "f%d", i);
		le_history_add(&h, b);
	}
	assert_int_equal(h.n, LE_HISTORY);
	assert_string_equal(h.item[LE_HISTORY - 1], "f24");
}

/* Tab completes a unique name (a '/' after a directory), the common part
 * of several (listing them), and says when nothing fits. */
static void test_path_completion(void **state)
{
	(void)state;
	char dir[200], p[256];
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/sandpit-le-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	const char *names[] = { "analysis.py", "analysis_v2.py", "data.csv", ".hidden" };
	for (int i = 0; i < 4; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		int fd = open(p, O_CREAT | O_WRONLY, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	snprintf(p, sizeof p, "%s/sub", dir);
	assert_int_equal(mkdir(p, 0700), 0);

	struct lineedit le;
	snprintf(p, sizeof p, "%s/d", dir);
	le_set(&le, p, false);
	assert_int_equal(le_key(&le, false, '\t', NULL, true), LE_CHANGED);
	snprintf(p, sizeof p, "%s/data.csv", dir);
	assert_string_equal(le_text(&le), p);

	snprintf(p, sizeof p, "%s/an", dir);
	le_set(&le, p, false);
	le_key(&le, false, '\t', NULL, true);
	snprintf(p, sizeof p, "%s/analysis", dir);
	assert_string_equal(le_text(&le), p);
	assert_non_null(strstr(le.note, "2 matches"));

	snprintf(p, sizeof p, "%s/su", dir);
	le_set(&le, p, false);
	le_key(&le, false, '\t', NULL, true);
	snprintf(p, sizeof p, "%s/sub/", dir);
	assert_string_equal(le_text(&le), p);

	snprintf(p, sizeof p, "%s/zz", dir);
	le_set(&le, p, false);
	assert_int_equal(le_key(&le, false, '\t', NULL, true), LE_MOVED);
	assert_string_equal(le.note, "no match");
	/* no paths: Tab is the caller's */
	assert_int_equal(le_key(&le, false, '\t', NULL, false), LE_UNUSED);

	/* "~/" is the home directory, in completion and in the answer */
	setenv("HOME", dir, 1);
	le_set(&le, "~/da", false);
	le_key(&le, false, '\t', NULL, true);
	assert_string_equal(le_text(&le), "~/data.csv");
	char full[300];
	path_expand_home("~/data.csv", 10, full, sizeof full);
	snprintf(p, sizeof p, "%s/data.csv", dir);
	assert_string_equal(full, p);
	path_expand_home("~user/x", 7, full, sizeof full);   /* not ours to expand */
	assert_string_equal(full, "~user/x");

	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suggestion_is_replaced),
		cmocka_unit_test(test_editing_keys),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_path_completion),
	};
	return cmocka_run_group_tests_name("lineedit", tests, NULL, NULL);
}
