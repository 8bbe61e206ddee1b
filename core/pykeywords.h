/* SPDX-License-Identifier: MIT */
/*
 * pykeywords.h - Python's keywords, one list for core/ and tui/ alike: the
 * carry buffer refuses them as names (carry.c), the editor colours them
 * (tui's highlighter). Like buf.h it serves tui/ without being library
 * API (hidden in the .so; a command linked against it links the object
 * itself).
 *
 * Invariants: the hard keywords only, as Python 3's keyword.kwlist has
 * them (soft keywords such as match and case are names almost everywhere,
 * so each user decides about them); a word is compared by its bytes and
 * length, never read past len.
 */
#ifndef SP_PYKEYWORDS_H
#define SP_PYKEYWORDS_H

#include <stdbool.h>
#include <stddef.h>

/* True when the len bytes at s are a Python keyword. */
bool sp_python_keyword(const char *s, size_t len);

#endif
