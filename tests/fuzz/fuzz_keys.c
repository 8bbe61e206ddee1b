/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/editor/keyseq.c tui/editor/lineedit.c tui/text/pathcomplete.c tui/text/utf8text.c */
/* fuzz-pkgs: ncursesw */
/*
 * fuzz_keys.c - random key streams through the escape-sequence decoder
 * (keyseq.c) into a prompt's text field (lineedit.c), as the playground
 * feeds them. After every key: the field is valid UTF-8 of the length it
 * says, NUL-terminated, with the cursor on a code point inside it; the
 * decoder never holds more than one sequence and never gives a plain key
 * outside the character range. Tab's path completion is left out (it
 * reads directories).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "editor/keyseq.h"
#include "editor/lineedit.h"
#include "text/utf8text.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

static const int fkeys[] = {
	KEY_LEFT, KEY_RIGHT, KEY_HOME, KEY_END, KEY_BACKSPACE, KEY_DC,
	KEY_UP, KEY_DOWN, KEY_F(5), KEY_ENTER, KEY_BTAB, KEY_MOUSE,
};

static void check_field(const struct lineedit *le)
{
	CHECK(le->len < LE_MAX);
	CHECK(le->buf[le->len] == '\0');
	CHECK(strlen(le->buf) == le->len);
	CHECK(le->cur <= le->len);
	for (size_t i = 0; i < le->len;) {
		uint32_t cp;
		size_t n = u8_decode(le->buf + i, le->len - i, &cp);
		CHECK(n > 0);
		CHECK(i + n <= le->cur || i >= le->cur);   /* cursor on a boundary */
		i += n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct le_history hist;
	struct keyseq k;
	struct lineedit le;
	const uint8_t *p = data, *end = data + size;

	memset(&k, 0, sizeof k);
	memset(&hist, 0, sizeof hist);
	le_set(&le, "suggested.py", true);
	while (p < end) {
		uint8_t op = *p++;
		bool is_key = false, dropped;
		wint_t ch;
		char desc[64];
		if (op >= 0xf0) {                     /* a decoded function key */
			is_key = true;
			ch = (wint_t)fkeys[(op - 0xf0) % (sizeof fkeys / sizeof *fkeys)];
		} else if (op == 0xef && end - p >= 2) {   /* a wide character */
			ch = (wint_t)(p[0] << 8 | p[1]);
			p += 2;
		} else if (op == 0xee) {              /* Enter: into the history */
			le_history_add(&hist, le_text(&le));
			le_set(&le, NULL, false);
			check_field(&le);
			continue;
		} else if (op == 0xed) {              /* a paste of the next bytes */
			size_t n = p < end ? *p++ : 0;
			if (n > (size_t)(end - p))
				n = (size_t)(end - p);
			le_insert(&le, (const char *)p, n);
			p += n;
			check_field(&le);
			continue;
		} else {
			ch = op;
		}
		enum keyseq_result r = keyseq_feed(&k, &is_key, &ch, &dropped, desc, sizeof desc);
		CHECK(k.len < sizeof k.seq);
		CHECK(memchr(desc, '\0', sizeof desc) || r == KS_KEY);
		if (r == KS_KEY) {
			CHECK(is_key || ch <= 0x10ffff);
			if (!(ch == '\t' && !is_key))
				le_key(&le, is_key, ch, &hist, false);
			wint_t again;
			bool again_key;
			if (keyseq_replay(&k, &again_key, &again))
				le_key(&le, again_key, again, &hist, false);
		}
		check_field(&le);
	}
	wint_t esc;
	if (keyseq_flush(&k, &esc))
		CHECK(esc == 27);
	return 0;
}
