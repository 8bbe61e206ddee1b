/* SPDX-License-Identifier: MIT */
/*
 * keyseq.c - decode or swallow the escape sequences ncurses did not.
 *
 * What terminals send (ECMA-48 and xterm's conventions):
 *
 *   ESC x               Alt-x (the Meta prefix); Alt-1 .. Alt-9 are keys
 *                       (KEY_ALT_DIGIT + n), the others mean nothing
 *   ESC O F             SS3: F1-F4 as ESC O P..S, arrows ESC O A..D
 *   ESC [ params final  CSI: params are digits and ';' (0x30-0x3F),
 *                       then intermediates (0x20-0x2F), then one final
 *                       byte (0x40-0x7E). F5 is ESC [15~, Shift-F6
 *                       ESC [17;2~, Alt-Left ESC [1;3D: the second
 *                       parameter is 1 + a bit set of Shift=1 Alt=2 Ctrl=4.
 *
 * The sequences below are decoded into ncurses' own key codes, so F5 runs
 * even when TERM names another terminal; anything else is dropped whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "editor/keyseq.h"
#include "buf.h"
#include "banned.h"

enum { S_IDLE, S_ESC, S_CSI, S_SS3 };

/* ncurses' codes for Alt-arrows and Ctrl-Delete, where terminfo names
 * them (kUP3..., kDC5). */
static void lookup_alt_arrows(struct keyseq *k)
{
	static const char *const caps[5] = { "kUP3", "kDN3", "kLFT3", "kRIT3", "kDC5" };

	if (k->looked_up || !stdscr)
		return;
	for (int i = 0; i < 5; i++) {
		char *s = tigetstr(caps[i]);
		int c = (s && s != (char *)-1) ? key_defined(s) : -1;
		k->xkeys[i] = c > 0 ? c : -1;
	}
	k->looked_up = true;
}

/* An arrow's code with modifier mod (1 none, 2 Shift, 3 Alt); 0 if none. */
static int arrow(char final, int mod)
{
	static const int plain[4] = { KEY_UP, KEY_DOWN, KEY_RIGHT, KEY_LEFT };
	static const int shift[4] = { KEY_SR, KEY_SF, KEY_SRIGHT, KEY_SLEFT };
	static const int alt[4] = { KEY_ALT_UP, KEY_ALT_DOWN, KEY_ALT_RIGHT, KEY_ALT_LEFT };
	int i = final - 'A';

	if (i < 0 || i > 3)
		return 0;
	return mod == 1 ? plain[i] : mod == 2 ? shift[i] : mod == 3 ? alt[i] : 0;
}

/* The key a CSI sequence ("[" params final) stands for; 0 if none. */
static int decode_csi(const char *s, size_t len)
{
	long p[2] = { 1, 1 };
	int np = 0;
	const char *q = s + 1, *end = s + len - 1;
	char final = s[len - 1];

	while (q < end && np < 2) {
		char *e;
		long v = strtol(q, &e, 10);
		if (e == q && *q != ';')
			return 0;           /* private marks (<, ?, =, >): not a key */
		if (e != q)
			p[np] = v;
		np++;
		q = e;
		if (q < end && *q == ';')
			q++;
		else if (q < end)
			return 0;
	}
	if (q < end)
		return 0;
	if (final >= 'A' && final <= 'D')
		return arrow(final, (int)p[1]);
	if (final == 'H' || final == 'F')
		return p[1] == 1 ? (final == 'H' ? KEY_HOME : KEY_END) :
		       p[1] == 2 ? (final == 'H' ? KEY_SHOME : KEY_SEND) : 0;
	if (final >= 'P' && final <= 'S')   /* F1-F4, as CSI 1;2P for Shift */
		return p[1] == 1 ? KEY_F(final - 'P' + 1) :
		       p[1] == 2 ? KEY_F(final - 'P' + 13) : 0;
	if (final == 'Z')
		return KEY_BTAB;
	if (final != '~')
		return 0;
	static const struct { int num, key; } tilde[] = {
		{ 1, KEY_HOME }, { 2, KEY_IC }, { 3, KEY_DC }, { 4, KEY_END },
		{ 5, KEY_PPAGE }, { 6, KEY_NPAGE }, { 7, KEY_HOME }, { 8, KEY_END },
		{ 11, KEY_F(1) }, { 12, KEY_F(2) }, { 13, KEY_F(3) }, { 14, KEY_F(4) },
		{ 15, KEY_F(5) }, { 17, KEY_F(6) }, { 18, KEY_F(7) }, { 19, KEY_F(8) },
		{ 20, KEY_F(9) }, { 21, KEY_F(10) }, { 23, KEY_F(11) }, { 24, KEY_F(12) },
		/* bracketed paste: ncurses knows these by define_key, but not
		 * when a slow link splits ESC from the rest */
		{ 200, KEY_PASTE_BEGIN }, { 201, KEY_PASTE_END },
	};
	for (size_t i = 0; i < SP_ARRAY_SIZE(tilde); i++) {
		if (tilde[i].num != p[0])
			continue;
		bool fkey = p[0] >= 11 && p[0] <= 24;
		if (p[1] == 1)
			return tilde[i].key;
		if (p[0] == 3 && p[1] == 5)
			return KEY_CTRL_DEL;
		/* Shift-Fn is F(n+12), as ncurses numbers it (Shift-F6 = F18) */
		return p[1] == 2 && fkey ? tilde[i].key + 12 : 0;
	}
	return 0;
}

/* The key an SS3 sequence ("O" final) stands for; 0 if none. */
static int decode_ss3(char final)
{
	if (final >= 'P' && final <= 'S')
		return KEY_F(final - 'P' + 1);
	if (final >= 'A' && final <= 'D')
		return arrow(final, 1);
	if (final == 'H')
		return KEY_HOME;
	if (final == 'F')
		return KEY_END;
	if (final == 'M')
		return KEY_ENTER;
	return 0;
}

/* A printable name of the bytes after ESC, for the status line. */
static void describe(const struct keyseq *k, char *desc, size_t desclen)
{
	size_t off = (size_t)snprintf(desc, desclen, "ESC ");
	for (size_t i = 0; i < k->len && off + 5 < desclen; i++) {
		unsigned char c = (unsigned char)k->seq[i];
		off += (size_t)snprintf(desc + off, desclen - off,
					c > 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
	}
}

static void reset(struct keyseq *k)
{
	k->state = S_IDLE;
	k->len = 0;
	k->seq[0] = '\0';
}

/* One call of keyseq_feed: the input in and the verdict out. */
struct feed {
	struct keyseq *k;
	bool *is_key;
	wint_t *ch;
	bool *dropped;
	char *desc;
	size_t desclen;
};

/* Esc, then c in the same read: two keys, Esc now and c replayed next. */
static enum keyseq_result esc_then(struct feed *f, wint_t c, bool c_is_key)
{
	reset(f->k);
	f->k->replay = c;
	f->k->replay_is_key = c_is_key;
	f->k->has_replay = true;
	*f->is_key = false;
	*f->ch = 27;
	return KS_KEY;
}

/* The Alt twin of an arrow key; 0 for any other key. */
static int alt_arrow(int key)
{
	return key == KEY_UP ? KEY_ALT_UP : key == KEY_DOWN ? KEY_ALT_DOWN :
	       key == KEY_LEFT ? KEY_ALT_LEFT : key == KEY_RIGHT ? KEY_ALT_RIGHT : 0;
}

/* A sequence ended: the key it stands for, or (key 0) ignored and named. */
static enum keyseq_result sequence_done(struct feed *f, int key)
{
	if (!key) {
		describe(f->k, f->desc, f->desclen);
		reset(f->k);
		return KS_IGNORED;
	}
	reset(f->k);
	*f->is_key = true;
	*f->ch = (wint_t)key;
	return KS_KEY;
}

/* A key ncurses decoded itself: terminfo's Alt-arrows and Ctrl-Delete,
 * ESC then an arrow as Alt-arrow; a sequence it cuts short is dropped. */
static enum keyseq_result feed_decoded(struct feed *f, wint_t c)
{
	struct keyseq *k = f->k;
	int alt = -1;

	for (int i = 0; i < 4; i++)
		if (k->xkeys[i] > 0 && (int)c == k->xkeys[i])
			alt = i;
	if (k->xkeys[4] > 0 && (int)c == k->xkeys[4] && k->state == S_IDLE) {
		*f->ch = KEY_CTRL_DEL;
		return KS_KEY;
	}
	if (k->state == S_ESC && alt < 0) {
		/* ESC then a decoded key: Alt plus that key */
		static const int plain[4] = { KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT };
		for (int i = 0; i < 4; i++)
			if ((int)c == plain[i])
				alt = i;
		/* Esc, then another key in the same read (or a paste that
		 * begins): two keys, not a chord */
		if (alt < 0)
			return esc_then(f, c, true);
	} else if (k->state != S_IDLE) {
		describe(k, f->desc, f->desclen);
		*f->dropped = true;
	}
	reset(k);
	if (alt >= 0)
		*f->ch = (wint_t)(KEY_ALT_UP + alt);
	return KS_KEY;
}

static enum keyseq_result feed_idle(struct feed *f, wint_t c)
{
	if (c != 27)
		return KS_KEY;
	f->k->state = S_ESC;
	return KS_HOLD;
}

/* After ESC: a CSI or SS3 opens, ESC ESC waits, else Alt-something. */
static enum keyseq_result feed_esc(struct feed *f, wint_t c)
{
	struct keyseq *k = f->k;

	if (c == '[' || c == 'O') {
		k->seq[k->len++] = (char)c;
		k->seq[k->len] = '\0';
		k->state = c == '[' ? S_CSI : S_SS3;
		return KS_HOLD;
	}
	if (c == 27 && k->len == 0) {
		/* ESC ESC [A: some terminals send Alt-Up so; keep waiting */
		k->seq[k->len++] = 27;
		k->seq[k->len] = '\0';
		return KS_HOLD;
	}
	if ((c < 0x20 || c == 0x7f) && k->len == 0) {
		/* Esc, then a Ctrl key or Backspace in the same read: two
		 * keys pressed quickly (Alt-Ctrl chords mean nothing here) */
		return esc_then(f, c, false);
	}
	if (c >= '1' && c <= '9' && k->len == 0)
		return sequence_done(f, KEY_ALT_DIGIT + (int)(c - '0'));
	if (c >= 0x20 && c < 0x7f)
		snprintf(f->desc, f->desclen, "Alt-%c", (char)c);
	else
		snprintf(f->desc, f->desclen, "Alt-key");
	reset(k);
	return KS_IGNORED;
}

/* ESC O final (ESC ESC O final: Alt) */
static enum keyseq_result feed_ss3(struct feed *f, wint_t c)
{
	struct keyseq *k = f->k;
	int key = c < 0x80 ? decode_ss3((char)c) : 0;

	if (k->len < sizeof k->seq - 2)
		k->seq[k->len++] = (char)(c < 0x80 ? c : '?');
	k->seq[k->len] = '\0';
	if (k->seq[0] == 27)
		key = alt_arrow(key);
	return sequence_done(f, key);
}

/* ESC [ params final (ESC ESC [ ...: Alt) */
static enum keyseq_result feed_csi(struct feed *f, wint_t c)
{
	struct keyseq *k = f->k;

	if (c >= 0x20 && c <= 0x3f) {       /* parameter or intermediate */
		if (k->len < sizeof k->seq - 2)
			k->seq[k->len++] = (char)c;
		k->seq[k->len] = '\0';
		return KS_HOLD;
	}
	if (c >= 0x40 && c <= 0x7e) {       /* the final byte */
		k->seq[k->len++] = (char)c;
		k->seq[k->len] = '\0';
		bool alt = k->seq[0] == 27;
		int key = alt ? decode_csi(k->seq + 1, k->len - 1) : decode_csi(k->seq, k->len);
		return sequence_done(f, alt ? alt_arrow(key) : key);
	}
	/* cannot be part of a sequence: drop what came, act on this */
	describe(k, f->desc, f->desclen);
	reset(k);
	*f->dropped = true;
	return KS_KEY;
}

/* What a character does in each state (S_*). */
static enum keyseq_result (*const feed_in[])(struct feed *, wint_t) = {
	[S_IDLE] = feed_idle,
	[S_ESC] = feed_esc,
	[S_CSI] = feed_csi,
	[S_SS3] = feed_ss3,
};

enum keyseq_result keyseq_feed(struct keyseq *k, bool *is_key, wint_t *ch,
			       bool *dropped, char *desc, size_t desclen)
{
	struct feed f = { k, is_key, ch, dropped, desc, desclen };

	*dropped = false;
	lookup_alt_arrows(k);
	if (*is_key)
		return feed_decoded(&f, *ch);
	/* a state the table does not know is read as inside a CSI */
	if (k->state < 0 || (size_t)k->state >= SP_ARRAY_SIZE(feed_in))
		return feed_csi(&f, *ch);
	return feed_in[k->state](&f, *ch);
}

bool keyseq_flush(struct keyseq *k, wint_t *ch)
{
	if (k->state != S_ESC)
		return false;
	/* ESC ESC alone: the second one is the key */
	reset(k);
	*ch = 27;
	return true;
}

bool keyseq_replay(struct keyseq *k, bool *is_key, wint_t *ch)
{
	if (!k->has_replay)
		return false;
	k->has_replay = false;
	*is_key = k->replay_is_key;
	*ch = k->replay;
	return true;
}
