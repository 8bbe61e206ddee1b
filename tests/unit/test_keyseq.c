/* SPDX-License-Identifier: MIT */
/*
 * test_keyseq.c - escape sequences ncurses left undecoded: xterm's F-keys,
 * arrows and Alt-arrows are decoded; Alt-chords and unknown sequences are
 * dropped whole; a lone Esc waits only for the end of the batch.
 */
#include "testlib.h"

#include <string.h>

#include "editor/keyseq.h"

#include "banned.h"

struct got {
	int keys;            /* KS_KEY results */
	bool is_key[8];
	wint_t ch[8];
	int ignored;
	char desc[64];
};

/* Feeds the bytes of s as plain keys; collects what comes out, then flushes. */
static void feed(struct keyseq *k, const char *s, struct got *g)
{
	memset(g, 0, sizeof *g);
	for (; *s; s++) {
		bool is_key = false, dropped;
		wint_t ch = (unsigned char)*s;
		char desc[64] = "";
		enum keyseq_result r = keyseq_feed(k, &is_key, &ch, &dropped, desc, sizeof desc);
		if (r == KS_IGNORED || dropped) {
			g->ignored++;
			memcpy(g->desc, desc, sizeof desc);
		}
		if (r == KS_KEY && g->keys < 8) {
			g->is_key[g->keys] = is_key;
			g->ch[g->keys++] = ch;
		}
		wint_t again;
		bool again_key;
		if (r == KS_KEY && keyseq_replay(k, &again_key, &again) && g->keys < 8) {
			g->is_key[g->keys] = again_key;
			g->ch[g->keys++] = again;
		}
	}
	wint_t esc;
	if (keyseq_flush(k, &esc) && g->keys < 8) {
		g->is_key[g->keys] = false;
		g->ch[g->keys++] = esc;
	}
}

static void expect_key(const char *seq, int key)
{
	struct keyseq k;
	struct got g;
	memset(&k, 0, sizeof k);
	feed(&k, seq, &g);
	assert_int_equal(g.ignored, 0);
	assert_int_equal(g.keys, 1);
	assert_true(g.is_key[0]);
	assert_int_equal(g.ch[0], key);
}

/* With TERM=linux inside tmux, F3 came as "ESC O R" and F5 as "ESC [15~"
 * and were typed into the program as "OR" and "[15~". */
static void test_xterm_keys_are_decoded(void **state)
{
	(void)state;
	expect_key("\033OR", KEY_F(3));
	expect_key("\033[15~", KEY_F(5));
	expect_key("\033[17~", KEY_F(6));
	expect_key("\033[17;2~", KEY_F(18));     /* Shift-F6, as ncurses names it */
	expect_key("\033[1;2P", KEY_F(13));
	expect_key("\033[A", KEY_UP);
	expect_key("\033OD", KEY_LEFT);
	expect_key("\033[1;3D", KEY_ALT_LEFT);
	expect_key("\033[1;3A", KEY_ALT_UP);
	expect_key("\033\033[C", KEY_ALT_RIGHT); /* the Meta-prefix form */
	expect_key("\033[1;2C", KEY_SRIGHT);
	expect_key("\033[Z", KEY_BTAB);
	expect_key("\033[3~", KEY_DC);
	expect_key("\033[3;5~", KEY_CTRL_DEL);
	expect_key("\033[H", KEY_HOME);
	expect_key("\033OF", KEY_END);
}

/* Alt-x and sequences no key sends are dropped whole, named for the
 * status line; the keys after them are plain keys again. */
static void test_meaningless_keys_are_dropped(void **state)
{
	(void)state;
	struct keyseq k;
	struct got g;
	memset(&k, 0, sizeof k);
	feed(&k, "\033xa", &g);
	assert_int_equal(g.ignored, 1);
	assert_string_equal(g.desc, "Alt-x");
	assert_int_equal(g.keys, 1);
	assert_int_equal(g.ch[0], 'a');
	feed(&k, "\033[99~b", &g);
	assert_int_equal(g.ignored, 1);
	assert_string_equal(g.desc, "ESC [99~");
	assert_int_equal(g.keys, 1);
	assert_int_equal(g.ch[0], 'b');
	feed(&k, "\033[1;7A", &g);               /* Ctrl-Alt-Up: nothing here */
	assert_int_equal(g.ignored, 1);
	assert_int_equal(g.keys, 0);
	feed(&k, "\033[<0;3;4M", &g);            /* an SGR mouse report */
	assert_int_equal(g.ignored, 1);
	assert_int_equal(g.keys, 0);
	feed(&k, "\033Oz", &g);
	assert_int_equal(g.ignored, 1);
	assert_int_equal(g.keys, 0);
	/* a byte that cannot be in a sequence ends it, and is a key itself */
	feed(&k, "\033[1\r", &g);
	assert_int_equal(g.ignored, 1);
	assert_int_equal(g.keys, 1);
	assert_int_equal(g.ch[0], '\r');
}

/* A lone Esc is a key at the end of the batch; Esc then a Ctrl key in the
 * same read are two keys (Esc, then Ctrl-L), not an Alt-chord. */
static void test_lone_esc(void **state)
{
	(void)state;
	struct keyseq k;
	struct got g;
	memset(&k, 0, sizeof k);
	feed(&k, "\033", &g);
	assert_int_equal(g.keys, 1);
	assert_false(g.is_key[0]);
	assert_int_equal(g.ch[0], 27);
	feed(&k, "\033\014", &g);
	assert_int_equal(g.ignored, 0);
	assert_int_equal(g.keys, 2);
	assert_int_equal(g.ch[0], 27);
	assert_int_equal(g.ch[1], 12);
	/* plain text passes untouched */
	feed(&k, "ab", &g);
	assert_int_equal(g.keys, 2);
	assert_int_equal(g.ch[0], 'a');
	assert_int_equal(g.ch[1], 'b');
	/* a key ncurses decoded passes too */
	bool is_key = true, dropped;
	wint_t ch = KEY_F(5);
	char desc[64];
	assert_int_equal(keyseq_feed(&k, &is_key, &ch, &dropped, desc, sizeof desc), KS_KEY);
	assert_int_equal(ch, KEY_F(5));
	/* Esc, then a paste ncurses decoded in the same read: Esc, then the
	 * paste's start (once swallowed as "Alt-paste") */
	is_key = false;
	ch = 27;
	assert_int_equal(keyseq_feed(&k, &is_key, &ch, &dropped, desc, sizeof desc), KS_HOLD);
	is_key = true;
	ch = KEY_PASTE_BEGIN;
	assert_int_equal(keyseq_feed(&k, &is_key, &ch, &dropped, desc, sizeof desc), KS_KEY);
	assert_false(is_key);
	assert_int_equal(ch, 27);
	assert_true(keyseq_replay(&k, &is_key, &ch));
	assert_true(is_key);
	assert_int_equal(ch, KEY_PASTE_BEGIN);
}

/* A paste's start marker split from its ESC by a slow link still starts
 * a paste, instead of being dropped (and the paste typed key by key). */
static void test_split_paste_markers(void **state)
{
	(void)state;
	expect_key("\033[200~", KEY_PASTE_BEGIN);
	expect_key("\033[201~", KEY_PASTE_END);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xterm_keys_are_decoded),
		cmocka_unit_test(test_meaningless_keys_are_dropped),
		cmocka_unit_test(test_lone_esc),
		cmocka_unit_test(test_split_paste_markers),
	};
	return cmocka_run_group_tests_name("keyseq", tests, NULL, NULL);
}
