/* SPDX-License-Identifier: MIT */
/*
 * buf.h - one growable byte buffer and one array-growth helper, for core/
 * and tui/ alike, instead of each file doubling its own with realloc.
 *
 * Invariants of struct sp_buf: data is NULL only while cap is 0 (a fresh
 * SP_BUF_INIT buffer); otherwise data[len] is '\0', so the bytes can be
 * used as a C string when they hold no NUL of their own. A failed call
 * leaves the buffer as it was. Every size is checked for overflow before
 * it is multiplied or added, so a hostile length fails with EOVERFLOW
 * rather than wrapping into a small allocation.
 */
#ifndef SP_BUF_H
#define SP_BUF_H

#include <stddef.h>

#define SP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct sp_buf {
	char *data;
	size_t len;  /* bytes held, not counting the '\0' */
	size_t cap;  /* bytes allocated, the '\0' included */
};

#define SP_BUF_INIT { NULL, 0, 0 }

/* Make room for extra more bytes (and the '\0'). 0, or -1 with errno
 * ENOMEM or EOVERFLOW. */
int sp_buf_reserve(struct sp_buf *b, size_t extra);
/* Append n bytes. 0 or -1 as sp_buf_reserve. */
int sp_buf_add(struct sp_buf *b, const void *p, size_t n);
/* Append a C string. */
int sp_buf_adds(struct sp_buf *b, const char *s);
/* The bytes as a malloc'd NUL-ended string the caller frees ("" for an
 * empty buffer; NULL only out of memory); *len set when len is not NULL.
 * The buffer is left empty. */
char *sp_buf_detach(struct sp_buf *b, size_t *len);
/* Free the bytes; the buffer is SP_BUF_INIT again. */
void sp_buf_free(struct sp_buf *b);

/*
 * Grow the array arr of *cap elements of elem bytes so that it holds at
 * least need: the new array (*cap updated, at least doubling), or NULL
 * with errno ENOMEM or EOVERFLOW, arr and *cap untouched (arr still the
 * caller's to free). arr may be NULL with *cap 0.
 */
void *sp_grow(void *arr, size_t *cap, size_t need, size_t elem);

#endif
