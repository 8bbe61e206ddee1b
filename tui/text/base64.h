/* SPDX-License-Identifier: MIT */
/*
 * base64.h - RFC 4648 base64, the standard alphabet with '=' padding, as
 * JSON carries bytes (MCP's image blocks and blob resources, the files
 * a request brings).
 */
#ifndef BASE64_H
#define BASE64_H

#include <stddef.h>

/* Encode n bytes: a malloc'd NUL-ended string, or NULL (out of memory). */
char *base64_encode(const void *data, size_t n);
/* Decode text strictly (whitespace skipped; padding optional at the very
 * end; any other byte, or data after padding, refused): malloc'd bytes
 * and *n, or NULL with *bad_at the offset of the first bad character
 * ((size_t)-1 when memory ran out). */
unsigned char *base64_decode(const char *text, size_t len, size_t *n, size_t *bad_at);

#endif
