/* SPDX-License-Identifier: MIT */
/*
 * test_editor.c - the editor component driven by keys, without a terminal
 * (except the drawing test, which uses an ncurses screen on /dev/null).
 */
#include "testlib.h"

#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include "editor/editor.h"
#include "screen/theme.h"

#include "banned.h"

/* A new editor holding text, cursor at the start. */
static struct editor *ed_with(const char *text)
{
	struct editor *ed = editor_new();
	assert_non_null(ed);
	editor_set_text(ed, text, strlen(text), "t.py");
	return ed;
}

/* Types UTF-8 text as single characters (no is_key). */
static void type(struct editor *ed, const char *s)
{
	mbstate_t ps;
	memset(&ps, 0, sizeof ps);
	size_t n = strlen(s);
	while (n) {
		wchar_t wc;
		size_t k = mbrtowc(&wc, s, n, &ps);
		assert_true(k > 0 && k <= n);
		editor_key(ed, false, (wint_t)wc);
		s += k;
		n -= k;
	}
}

static void key(struct editor *ed, int k, int times)
{
	while (times-- > 0)
		editor_key(ed, true, (wint_t)k);
}

static void assert_text(struct editor *ed, const char *want)
{
	size_t len;
	char *s = editor_text(ed, &len);
	assert_non_null(s);
	assert_string_equal(s, want);
	assert_int_equal(len, strlen(want));
	free(s);
}

static void assert_pos(struct editor *ed, long line, long col)
{
	long l, c;
	editor_cursor_pos(ed, &l, &c);
	assert_int_equal(l, line);
	assert_int_equal(c, col);
}

static void test_typing_and_undo_runs(void **state)
{
	(void)state;
	struct editor *ed = ed_with("");
	assert_false(editor_modified(ed));
	type(ed, "x = 1");
	assert_true(editor_modified(ed));
	key(ed, KEY_LEFT, 1);            /* a move ends the typing run */
	type(ed, "0");
	assert_text(ed, "x = 01");
	editor_key(ed, false, 26);       /* Ctrl-Z */
	assert_text(ed, "x = 1");
	editor_key(ed, false, 26);
	assert_text(ed, "");
	assert_false(editor_modified(ed));
	editor_key(ed, false, 25);       /* Ctrl-Y */
	assert_text(ed, "x = 1");
	assert_pos(ed, 1, 6);
	editor_free(ed);
}

static void test_auto_indent(void **state)
{
	(void)state;
	struct editor *ed = ed_with("");
	type(ed, "def f(x):\nif x:  # note\nreturn x\ny = 2\n");
	assert_text(ed, "def f(x):\n    if x:  # note\n        return x\n    y = 2\n    ");
	editor_free(ed);

	/* A ':' inside a string or a comment opens no block. */
	ed = ed_with("");
	type(ed, "    s = 'a:'\n# c:\n");
	assert_text(ed, "    s = 'a:'\n    # c:\n    ");
	editor_free(ed);
}

static void test_backspace_indent_step(void **state)
{
	(void)state;
	struct editor *ed = ed_with("          x");       /* 10 spaces */
	for (int i = 0; i < 10; i++)
		key(ed, KEY_RIGHT, 1);
	editor_key(ed, false, 127);
	assert_text(ed, "        x");                     /* back to the 8 stop */
	editor_key(ed, false, 127);
	assert_text(ed, "    x");
	key(ed, KEY_BACKSPACE, 1);
	assert_text(ed, "x");
	/* Elsewhere Backspace deletes one character. */
	key(ed, KEY_END, 1);
	type(ed, "  ab");
	key(ed, KEY_BACKSPACE, 1);
	assert_text(ed, "x  a");
	editor_free(ed);
}

static void test_tab(void **state)
{
	(void)state;
	struct editor *ed = ed_with("ab\ncd\n");
	key(ed, KEY_RIGHT, 1);
	editor_key(ed, false, '\t');
	assert_text(ed, "a   b\ncd\n");
	assert_pos(ed, 1, 5);
	/* With lines selected, Tab indents them all. */
	key(ed, KEY_HOME, 2);
	key(ed, KEY_SF, 1);
	key(ed, KEY_SRIGHT, 1);
	editor_key(ed, false, '\t');
	assert_text(ed, "    a   b\n    cd\n");
	editor_key(ed, false, 26);
	assert_text(ed, "a   b\ncd\n");
	editor_free(ed);
}

/* Shift-Tab dedents the cursor's line, or every selected line, by one
 * step, and the selection still covers the same lines afterwards. */
static void test_shift_tab_dedents(void **state)
{
	(void)state;
	struct editor *ed = ed_with("def f():\n        a = 1\n      b\nc\n");
	key(ed, KEY_DOWN, 1);
	key(ed, KEY_END, 1);
	key(ed, KEY_BTAB, 1);
	assert_text(ed, "def f():\n    a = 1\n      b\nc\n");
	assert_pos(ed, 2, 10);
	/* a block from column 0 down to column 0 of the line after it */
	key(ed, KEY_HOME, 2);
	key(ed, KEY_SF, 2);
	key(ed, KEY_BTAB, 1);
	assert_text(ed, "def f():\na = 1\n  b\nc\n");
	size_t len;
	char *sel = editor_selection(ed, &len);
	assert_non_null(sel);
	assert_string_equal(sel, "a = 1\n  b\n");
	free(sel);
	/* indenting it again puts it back; the cursor moves with its line */
	editor_key(ed, false, '\t');
	assert_text(ed, "def f():\n    a = 1\n      b\nc\n");
	sel = editor_selection(ed, &len);
	assert_string_equal(sel, "    a = 1\n      b\n");
	free(sel);
	editor_free(ed);
}

/* Ctrl-A / Ctrl-E go to the line's ends as Home / End do; Ctrl-K cuts
 * whole lines, and Ctrl-Ks in a row paste back as one block. */
static void test_line_keys(void **state)
{
	(void)state;
	struct editor *ed = ed_with("    one\ntwo\nthree\n");
	editor_key(ed, false, 5);                 /* Ctrl-E */
	assert_pos(ed, 1, 8);
	editor_key(ed, false, 1);                 /* Ctrl-A: first non-blank */
	assert_pos(ed, 1, 5);
	editor_key(ed, false, 1);                 /* again: column 1 */
	assert_pos(ed, 1, 1);
	editor_key(ed, false, 11);                /* Ctrl-K twice */
	editor_key(ed, false, 11);
	assert_text(ed, "three\n");
	size_t len;
	const char *clip = editor_clipboard(ed, &len, NULL);
	assert_int_equal(len, 12);
	assert_memory_equal(clip, "    one\ntwo\n", 12);
	key(ed, KEY_DOWN, 1);
	editor_key(ed, false, 22);                /* Ctrl-V */
	assert_text(ed, "three\n    one\ntwo\n");
	/* a key between two Ctrl-Ks starts a new clipboard */
	key(ed, KEY_UP, 3);
	editor_key(ed, false, 11);
	key(ed, KEY_HOME, 1);
	editor_key(ed, false, 11);
	clip = editor_clipboard(ed, &len, NULL);
	assert_int_equal(len, 8);
	assert_memory_equal(clip, "    one\n", 8);
	editor_key(ed, false, 26);                /* undo brings it back */
	assert_text(ed, "    one\ntwo\n");
	editor_free(ed);
}

/* Ctrl-/ (0x1f, which Ctrl-_ sends too) comments the line or the
 * selected block at its smallest indent, and takes it off again. */
static void test_toggle_comment(void **state)
{
	(void)state;
	struct editor *ed = ed_with("if x:\n    a = 1\n\n    b = 2\nc\n");
	editor_key(ed, false, 31);
	assert_text(ed, "# if x:\n    a = 1\n\n    b = 2\nc\n");
	editor_key(ed, false, 31);
	assert_text(ed, "if x:\n    a = 1\n\n    b = 2\nc\n");
	/* lines 2-4: the blank line is left alone, "# " at column 5 */
	key(ed, KEY_DOWN, 1);
	key(ed, KEY_SF, 3);
	editor_key(ed, false, 31);
	assert_text(ed, "if x:\n    # a = 1\n\n    # b = 2\nc\n");
	size_t len;
	char *sel = editor_selection(ed, &len);
	assert_non_null(sel);
	assert_string_equal(sel, "    # a = 1\n\n    # b = 2\n");
	free(sel);
	/* one undo step */
	editor_key(ed, false, 26);
	assert_text(ed, "if x:\n    a = 1\n\n    b = 2\nc\n");
	/* a mix of comments and code is commented (not toggled line by line) */
	editor_set_text(ed, "#a\nb\n", 5, "t.py");
	key(ed, KEY_SF, 2);
	editor_key(ed, false, 31);
	assert_text(ed, "# #a\n# b\n");
	editor_key(ed, false, 31);
	assert_text(ed, "#a\nb\n");
	editor_free(ed);
}

/* The find prompt: the last search is suggested and typing replaces it,
 * Up/Down bring back earlier searches, Tab ignores case; Ctrl-F goes on
 * to replace, asking at each match. */
static void test_find_replace(void **state)
{
	(void)state;
	struct editor *ed = ed_with("Foo foo\nfoo FOO\n");
	editor_begin_find(ed);
	type(ed, "foo");
	assert_pos(ed, 1, 5);
	editor_key(ed, false, 27);
	editor_begin_find(ed);
	type(ed, "FOO");                      /* replaces the suggested "foo" */
	assert_pos(ed, 2, 5);
	key(ed, KEY_UP, 1);                   /* the earlier search */
	editor_key(ed, false, 27);
	editor_key(ed, false, 1);             /* Ctrl-A, out of the prompt */
	key(ed, KEY_UP, 5);
	editor_begin_find(ed);
	key(ed, KEY_UP, 1);
	size_t len;
	/* exact by default: "foo" at 1,5 */
	assert_pos(ed, 1, 5);
	editor_key(ed, false, '\t');          /* ignore case: from the start */
	assert_pos(ed, 1, 1);
	/* Ctrl-F: replace "foo" (any case) with "bar" */
	editor_key(ed, false, 6);
	type(ed, "bar");
	editor_key(ed, false, '\r');
	char *sel = editor_selection(ed, &len);
	assert_non_null(sel);
	assert_string_equal(sel, "Foo");      /* asked about, selected */
	free(sel);
	editor_key(ed, false, 'y');
	editor_key(ed, false, 'n');
	editor_key(ed, false, 'y');
	assert_text(ed, "bar foo\nbar FOO\n");
	editor_key(ed, false, 'a');
	assert_text(ed, "bar bar\nbar bar\n");
	editor_key(ed, false, 26);            /* "a" is one undo step */
	assert_text(ed, "bar foo\nbar FOO\n");
	editor_key(ed, false, 27);
	assert_false(editor_prompt_active(ed));
	editor_free(ed);
}

/* Ignoring case goes by Unicode's lower-case mapping, so a match may have
 * another byte length than the search (here: "\xc4" Ä vs "a" ASCII is no
 * match, but Ä and ä are); bytes that are not UTF-8 match only themselves. */
static void test_find_ignoring_case_unicode(void **state)
{
	(void)state;
	struct editor *ed = ed_with("x = \"\xc3\x84rger\" + \"\xc3\xa4RGER\" + \"Arger\"\n\xff\xfe\n");
	editor_set_ignore_case(ed, true);
	editor_set_search(ed, "\xc3\xa4rger", 6);
	assert_true(editor_find_next(ed, false));
	assert_int_equal(editor_cursor_offset(ed), 5);
	assert_true(editor_find_next(ed, false));
	assert_int_equal(editor_cursor_offset(ed), 16);
	assert_true(editor_find_next(ed, false));
	assert_int_equal(editor_cursor_offset(ed), 5);      /* wraps; "Arger" is not one */
	editor_set_search(ed, "\xff", 1);
	assert_true(editor_find_next(ed, false));
	assert_int_equal(editor_cursor_offset(ed), 34);
	/* replace all of them, any case, as one step */
	editor_set_search(ed, "\xc3\x84RGER", 6);
	editor_begin_find(ed);
	editor_key(ed, false, 27);
	editor_begin_find(ed);
	editor_key(ed, false, 6);                            /* Ctrl-F: replace */
	type(ed, "zorn");
	editor_key(ed, false, '\r');
	editor_key(ed, false, 'a');
	assert_text(ed, "x = \"zorn\" + \"zorn\" + \"Arger\"\n\xff\xfe\n");
	editor_key(ed, false, 26);
	assert_text(ed, "x = \"\xc3\x84rger\" + \"\xc3\xa4RGER\" + \"Arger\"\n\xff\xfe\n");
	editor_free(ed);
}

/* Moves, deletes and undo go by grapheme cluster; columns by cells. */
static void test_clusters(void **state)
{
	(void)state;
	const char *t = "e\xcc\x81\xe4\xb8\xad\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7"
			"\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5x";
	struct editor *ed = ed_with(t);
	size_t offs[] = { 3, 6, 17, 25, 26 };
	long cols[] = { 2, 4, 8, 10, 11 };
	for (int i = 0; i < 5; i++) {
		key(ed, KEY_RIGHT, 1);
		assert_int_equal(editor_cursor_offset(ed), offs[i]);
		assert_pos(ed, 1, cols[i]);
	}
	key(ed, KEY_LEFT, 2);
	assert_int_equal(editor_cursor_offset(ed), 17);
	key(ed, KEY_BACKSPACE, 1);                  /* the whole ZWJ family */
	assert_int_equal(editor_cursor_offset(ed), 6);
	key(ed, KEY_DC, 1);                         /* the whole flag */
	assert_text(ed, "e\xcc\x81\xe4\xb8\xadx");
	editor_key(ed, false, 26);
	editor_key(ed, false, 26);
	assert_text(ed, t);
	/* Up/down keep the display column across wide characters. */
	editor_set_text(ed, "\xe4\xb8\xad\xe4\xb8\xad\nabcdef", 13, "t");
	key(ed, KEY_DOWN, 1);
	key(ed, KEY_RIGHT, 4);
	key(ed, KEY_UP, 1);
	assert_pos(ed, 1, 5);
	/* A typed combining mark joins the cluster before the cursor. */
	editor_set_text(ed, "ab", 2, "t");
	key(ed, KEY_RIGHT, 1);
	editor_key(ed, false, 0x301);
	assert_int_equal(editor_cursor_offset(ed), 3);
	key(ed, KEY_LEFT, 1);
	assert_int_equal(editor_cursor_offset(ed), 0);
	editor_free(ed);
}

static void test_selection_clipboard(void **state)
{
	(void)state;
	struct editor *ed = ed_with("alpha beta\ngamma\n");
	assert_false(editor_key(ed, false, 3));     /* Ctrl-C: no selection, the app's */
	assert_false(editor_key(ed, false, 27));    /* Esc likewise */
	key(ed, KEY_SRIGHT, 5);
	size_t len;
	char *sel = editor_selection(ed, &len);
	assert_string_equal(sel, "alpha");
	free(sel);
	assert_true(editor_key(ed, false, 3));      /* copy */
	key(ed, KEY_END, 1);
	editor_key(ed, false, 22);                  /* paste */
	assert_text(ed, "alpha betaalpha\ngamma\n");
	/* Shift+Down then cut, paste back elsewhere. */
	key(ed, KEY_HOME, 2);
	key(ed, KEY_SF, 1);
	editor_key(ed, false, 24);
	assert_text(ed, "gamma\n");
	key(ed, KEY_DOWN, 1);
	editor_key(ed, false, 22);
	assert_text(ed, "gamma\nalpha betaalpha\n");
	/* Typing replaces the selection, undone in one step. */
	key(ed, KEY_UP, 2);
	key(ed, KEY_SEND, 1);
	type(ed, "G");
	assert_text(ed, "G\nalpha betaalpha\n");
	editor_key(ed, false, 26);
	assert_text(ed, "gamma\nalpha betaalpha\n");
	/* Ctrl-X with no selection cuts the line. */
	key(ed, KEY_HOME, 1);
	editor_key(ed, false, 24);
	assert_text(ed, "alpha betaalpha\n");
	editor_free(ed);
}

static void test_find_and_goto(void **state)
{
	(void)state;
	struct editor *ed = ed_with("one\nfoo two\nthree foo\nfoo\n");
	editor_begin_find(ed);
	assert_true(editor_prompt_active(ed));
	type(ed, "foo");
	assert_pos(ed, 2, 1);                 /* found as typed */
	editor_key(ed, false, '\r');
	assert_pos(ed, 3, 7);                 /* Enter: next */
	editor_key(ed, false, 14);            /* Ctrl-N */
	assert_pos(ed, 4, 1);
	editor_key(ed, false, 14);
	assert_pos(ed, 2, 1);                 /* wraps */
	editor_key(ed, false, 16);            /* Ctrl-P */
	assert_pos(ed, 4, 1);                 /* previous, wrapping back */
	assert_false(editor_key(ed, true, KEY_F(5)));   /* app keys pass */
	editor_key(ed, false, 27);
	assert_false(editor_prompt_active(ed));
	assert_true(editor_find_next(ed, true));
	assert_pos(ed, 3, 7);
	editor_set_search(ed, "zzz", 3);
	assert_false(editor_find_next(ed, false));
	/* Go to line. */
	editor_begin_goto(ed);
	type(ed, "2x");                       /* non-digits ignored */
	editor_key(ed, false, '\r');
	assert_false(editor_prompt_active(ed));
	assert_pos(ed, 2, 1);
	editor_begin_goto(ed);
	type(ed, "99");
	editor_key(ed, true, KEY_ENTER);
	assert_pos(ed, 5, 1);                 /* clamped to the last line */
	editor_free(ed);
}

static void test_paste_no_staircase(void **state)
{
	(void)state;
	struct editor *ed = ed_with("");
	type(ed, "if x:\n");                  /* cursor is now indented */
	const char *p = "for i in y:\r    print(i)\r\nz = 1";
	editor_paste(ed, p, strlen(p));
	assert_text(ed, "if x:\n    for i in y:\n    print(i)\nz = 1");
	editor_key(ed, false, 26);            /* one undo step */
	assert_text(ed, "if x:\n    ");
	editor_free(ed);
}

static void test_bracket_match(void **state)
{
	(void)state;
	struct editor *ed = ed_with("f(a[1], ')', (b))\nx");
	long l, c;
	key(ed, KEY_RIGHT, 1);                /* on '(' */
	assert_true(editor_matching_bracket(ed, &l, &c));
	assert_int_equal(l, 1);
	assert_int_equal(c, 17);              /* the ')' in the string is skipped */
	key(ed, KEY_END, 1);                  /* just after the last ')' */
	assert_true(editor_matching_bracket(ed, &l, &c));
	assert_int_equal(c, 2);
	key(ed, KEY_DOWN, 1);
	assert_false(editor_matching_bracket(ed, &l, &c));
	editor_free(ed);
}

/* Writes bytes to a new file. */
static void put_file(const char *path, const char *data, size_t n, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	chmod(path, mode);
}

/* Reads a file; returns its size. */
static size_t get_file(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	ssize_t n = read(fd, buf, cap);
	close(fd);
	assert_true(n >= 0);
	return (size_t)n;
}

static char tmpdir[64];

static int make_dir(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof tmpdir, "/tmp/sandpit-ed-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_round_trip_bytes(void **state)
{
	(void)state;
	/* Combining marks, ZWJ, flags, CJK, invalid bytes, CRLF, a NUL. */
	static const char raw[] = "caf\x65\xcc\x81 \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7 "
				  "\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5 \xe4\xb8\xad\r\n"
				  "bad: \xff\xfe\xc0\xaf\xed\xa0\x80 \x00 end\n\xe2\x82";
	char path[128], err[256], back[512];
	snprintf(path, sizeof path, "%s/rt.py", tmpdir);
	put_file(path, raw, sizeof raw - 1, 0640);
	struct editor *ed = editor_new();
	assert_int_equal(editor_open(ed, path, err, sizeof err), 0);
	assert_string_equal(editor_name(ed), "rt.py");
	assert_false(editor_modified(ed));
	/* Edit next to the invalid bytes and take it back again. */
	key(ed, KEY_DOWN, 1);
	key(ed, KEY_RIGHT, 6);
	type(ed, "\xc3\xa9");
	assert_true(editor_modified(ed));
	key(ed, KEY_BACKSPACE, 1);
	assert_int_equal(editor_save(ed, NULL, err, sizeof err), 0);
	assert_false(editor_modified(ed));
	/* Byte for byte, but for the newline a text file ends with. */
	size_t n = get_file(path, back, sizeof back);
	assert_int_equal(n, sizeof raw);
	assert_memory_equal(back, raw, sizeof raw - 1);
	assert_int_equal(back[n - 1], '\n');
	assert_false(editor_modified(ed));
	assert_int_equal(editor_save(ed, NULL, err, sizeof err), 0);
	assert_int_equal(get_file(path, back, sizeof back), sizeof raw);
	/* The mode survived the atomic replace. */
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* Recovery files are private. */
	char rec[160];
	snprintf(rec, sizeof rec, "%s/rt.py.recovery", tmpdir);
	assert_int_equal(editor_recovery_write(ed, rec, err, sizeof err), 0);
	assert_int_equal(stat(rec, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(get_file(rec, back, sizeof back), sizeof raw);
	/* Save-as to a new file takes the umask's mode and becomes the path. */
	char other[160];
	snprintf(other, sizeof other, "%s/new.py", tmpdir);
	mode_t old = umask(022);
	assert_int_equal(editor_save(ed, other, err, sizeof err), 0);
	umask(old);
	assert_int_equal(stat(other, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_string_equal(editor_path(ed), other);
	editor_free(ed);
}

static void test_file_errors_keep_buffer(void **state)
{
	(void)state;
	char err[256] = "", path[160];
	struct editor *ed = ed_with("keep me\n");
	type(ed, "x");
	/* A directory cannot be opened as text. */
	assert_int_equal(editor_open(ed, tmpdir, err, sizeof err), -1);
	assert_non_null(strstr(err, "is a directory"));
	assert_text(ed, "xkeep me\n");
	assert_true(editor_modified(ed));
	/* Nor a FIFO (and opening it must not hang). */
	snprintf(path, sizeof path, "%s/fifo", tmpdir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(editor_open(ed, path, err, sizeof err), -1);
	assert_non_null(strstr(err, "not a regular file"));
	/* Unreadable (only meaningful when not root). */
	if (geteuid() != 0) {
		snprintf(path, sizeof path, "%s/secret", tmpdir);
		put_file(path, "s", 1, 0000);
		assert_int_equal(editor_open(ed, path, err, sizeof err), -1);
		assert_non_null(strstr(err, "cannot open"));
	}
	assert_text(ed, "xkeep me\n");
	/* Saving where there is no directory fails and changes nothing. */
	assert_int_equal(editor_save(ed, "/nonexistent-dir/x.py", err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent-dir/x.py"));
	assert_null(editor_path(ed));
	assert_true(editor_modified(ed));
	/* No path at all. */
	assert_int_equal(editor_save(ed, NULL, err, sizeof err), -1);
	/* A missing file opens empty, with its path. */
	snprintf(path, sizeof path, "%s/brand-new.py", tmpdir);
	assert_int_equal(editor_open(ed, path, err, sizeof err), 0);
	assert_text(ed, "");
	assert_string_equal(editor_path(ed), path);
	assert_false(editor_modified(ed));
	editor_free(ed);
}

/* The text of screen row y from x, n cells, as UTF-8. */
static void row_text(int y, int x, int n, char *out, size_t cap)
{
	size_t o = 0;
	for (int i = 0; i < n; i++) {
		cchar_t cc;
		wchar_t wc[CCHARW_MAX + 1];
		attr_t a;
		short p;
		mvwin_wch(stdscr, y, x + i, &cc);
		getcchar(&cc, wc, &a, &p, NULL);
		if (wcwidth(wc[0]) == 2)
			i++;                      /* the wide char's second cell */
		for (int k = 0; wc[k] && o + 8 < cap; k++) {
			char mb[8];
			mbstate_t ps;
			memset(&ps, 0, sizeof ps);
			size_t m = wcrtomb(mb, wc[k], &ps);
			if (m != (size_t)-1) {
				memcpy(out + o, mb, m);
				o += m;
			}
		}
	}
	out[o] = '\0';
}

static void test_draw(void **state)
{
	(void)state;
	assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm("xterm-256color", out, in);
	assert_non_null(scr);
	set_term(scr);
	struct theme th;
	theme_default(&th);
	theme_apply(&th);
	struct editor *ed = ed_with("a\t\xe4\xb8\xad|\xff|e\xcc\x81|\x1b\ndef f():\n");
	editor_draw(ed, stdscr, 2, 3, 5, 40, &th, true);
	char row[256];
	row_text(2, 3, 22, row, sizeof row);
	/* gutter "  1 ", tab to column 4, CJK in 2 cells, \xFF, e+acute, ^[ */
	assert_string_equal(row, "  1 a   \xe4\xb8\xad|\\xFF|e\xcc\x81|^[  ");
	row_text(3, 3, 12, row, sizeof row);
	assert_string_equal(row, "  2 def f():");
	row_text(5, 3, 4, row, sizeof row);
	assert_string_equal(row, "  ~ ");
	int y, x;
	editor_screen_cursor(ed, &y, &x);
	assert_int_equal(y, 2);
	assert_int_equal(x, 7);
	/* Colours: the keyword in its pair, the invalid byte in its own. */
	attr_t a;
	short p;
	wattr_get(stdscr, &a, &p, NULL);
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	mvwin_wch(stdscr, 3, 7, &cc);
	getcchar(&cc, wc, &a, &p, NULL);
	assert_int_equal(p, theme_pair(&th, TR_KEYWORD));
	mvwin_wch(stdscr, 2, 14, &cc);
	getcchar(&cc, wc, &a, &p, NULL);
	assert_int_equal(p, theme_pair(&th, TR_INVALID));
	mvwin_wch(stdscr, 2, 13, &cc);        /* plain text on the cursor line */
	getcchar(&cc, wc, &a, &p, NULL);
	assert_int_equal(p, theme_curline_pair(&th, TR_NORMAL));
	/* The find prompt takes the last row and the cursor. */
	editor_begin_find(ed);
	type(ed, "def");
	editor_draw(ed, stdscr, 2, 3, 5, 40, &th, true);
	row_text(6, 3, 9, row, sizeof row);
	assert_string_equal(row, "Find: def");
	editor_screen_cursor(ed, &y, &x);
	assert_int_equal(y, 6);
	assert_int_equal(x, 12);
	/* An error line shows in the violation style. */
	editor_key(ed, false, 27);
	assert_int_equal(editor_error_line(ed, 2), 0);
	editor_draw(ed, stdscr, 2, 3, 5, 40, &th, true);
	mvwin_wch(stdscr, 3, 5, &cc);
	getcchar(&cc, wc, &a, &p, NULL);
	assert_int_equal(p, theme_pair(&th, TR_VIOLATION));
	assert_int_equal(editor_error_line(ed, 99), -1);
	editor_free(ed);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

static void test_scroll_and_click(void **state)
{
	(void)state;
	char big[4096];
	size_t n = 0;
	for (int i = 1; i <= 200; i++)
		n += (size_t)snprintf(big + n, sizeof big - n, "line %d\n", i);
	struct editor *ed = ed_with(big);
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm("xterm-256color", out, in);
	set_term(scr);
	struct theme th;
	theme_default(&th);
	editor_draw(ed, stdscr, 0, 0, 10, 40, &th, true);
	key(ed, KEY_NPAGE, 1);
	editor_draw(ed, stdscr, 0, 0, 10, 40, &th, true);
	assert_pos(ed, 10, 1);
	editor_scroll(ed, 50);                /* the wheel leaves the cursor */
	editor_draw(ed, stdscr, 0, 0, 10, 40, &th, true);
	assert_pos(ed, 10, 1);
	int y, x;
	editor_screen_cursor(ed, &y, &x);
	assert_int_equal(y, -1);              /* scrolled out of view */
	editor_mouse_click(ed, 2, 4 + 3);     /* gutter is 4 wide */
	assert_pos(ed, 62, 4);
	editor_free(ed);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typing_and_undo_runs),
		cmocka_unit_test(test_auto_indent),
		cmocka_unit_test(test_backspace_indent_step),
		cmocka_unit_test(test_tab),
		cmocka_unit_test(test_shift_tab_dedents),
		cmocka_unit_test(test_line_keys),
		cmocka_unit_test(test_toggle_comment),
		cmocka_unit_test(test_clusters),
		cmocka_unit_test(test_selection_clipboard),
		cmocka_unit_test(test_find_and_goto),
		cmocka_unit_test(test_find_replace),
		cmocka_unit_test(test_find_ignoring_case_unicode),
		cmocka_unit_test(test_paste_no_staircase),
		cmocka_unit_test(test_bracket_match),
		cmocka_unit_test(test_round_trip_bytes),
		cmocka_unit_test(test_file_errors_keep_buffer),
		cmocka_unit_test(test_draw),
		cmocka_unit_test(test_scroll_and_click),
	};
	return cmocka_run_group_tests_name("editor", tests, make_dir, remove_dir);
}
