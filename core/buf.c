/* SPDX-License-Identifier: MIT */
/*
 * buf.c - the growable buffer and the array growth of buf.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "banned.h"

void *sp_grow(void *arr, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap;
	void *bigger;

	if (need <= n && arr)
		return arr;
	if (elem == 0 || need > SIZE_MAX / elem) {
		errno = EOVERFLOW;
		return NULL;
	}
	/* double (from 16), but never past what elem allows */
	n = n < 8 ? 16 : n;
	while (n < need)
		n = n > SIZE_MAX / 2 ? need : n * 2;
	if (n > SIZE_MAX / elem)
		n = need;
	bigger = realloc(arr, n * elem);
	if (!bigger) {
		errno = ENOMEM;
		return NULL;
	}
	*cap = n;
	return bigger;
}

int sp_buf_reserve(struct sp_buf *b, size_t extra)
{
	char *p;

	if (extra > SIZE_MAX - 1 - b->len) {
		errno = EOVERFLOW;
		return -1;
	}
	if (b->data && b->len + extra + 1 <= b->cap)
		return 0;
	p = sp_grow(b->data, &b->cap, b->len + extra + 1, 1);
	if (!p)
		return -1;
	b->data = p;
	b->data[b->len] = '\0';
	return 0;
}

int sp_buf_add(struct sp_buf *b, const void *p, size_t n)
{
	if (sp_buf_reserve(b, n) < 0)
		return -1;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int sp_buf_adds(struct sp_buf *b, const char *s)
{
	return sp_buf_add(b, s, strlen(s));
}

char *sp_buf_detach(struct sp_buf *b, size_t *len)
{
	char *s = b->data ? b->data : calloc(1, 1);

	if (s && len)
		*len = b->len;
	if (s)
		*b = (struct sp_buf)SP_BUF_INIT;
	return s;
}

void sp_buf_free(struct sp_buf *b)
{
	free(b->data);
	*b = (struct sp_buf)SP_BUF_INIT;
}
