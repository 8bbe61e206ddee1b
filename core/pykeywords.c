/* SPDX-License-Identifier: MIT */
/*
 * pykeywords.c - the list behind pykeywords.h, sorted by byte value (so
 * the capitalised False, None and True come first) for bsearch.
 */
#include <stdlib.h>
#include <string.h>

#include "pykeywords.h"
#include "banned.h"

static const char *const keywords[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await",
	"break", "class", "continue", "def", "del", "elif", "else", "except",
	"finally", "for", "from", "global", "if", "import", "in", "is",
	"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
	"while", "with", "yield",
};

struct word {
	const char *s;
	size_t len;
};

/* A (bytes, length) word against a NUL-terminated entry. */
static int word_cmp(const void *key, const void *elem)
{
	const struct word *w = key;
	const char *e = *(const char *const *)elem;
	size_t en = strlen(e);
	int c = memcmp(w->s, e, w->len < en ? w->len : en);

	if (c)
		return c;
	return w->len < en ? -1 : w->len > en;
}

bool sp_python_keyword(const char *s, size_t len)
{
	struct word w = { s, len };

	return bsearch(&w, keywords, sizeof keywords / sizeof keywords[0],
		       sizeof keywords[0], word_cmp) != NULL;
}
