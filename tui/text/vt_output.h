/* SPDX-License-Identifier: MIT */
/*
 * vt_output.h - program output as a terminal shows it, and still never
 * obeyed. Three things a terminal does are done: '\r' goes back to the
 * line's start (a progress bar overwrites itself), '\b' backs up one cell,
 * and SGR sequences (ESC [ ... m) set colours and bold, mapped onto the
 * theme (and dropped under NO_COLOR). Every other control and escape is
 * passed to the sanitizer (tui/text/sanitize.c) and shows, inert, as before.
 *
 * Invariants: text handed to the sink is the sanitizer's (valid UTF-8,
 * no controls but '\n' and '\t'); an SGR split across chunks is joined
 * (at most VT_ESC_MAX bytes are held back); anything longer or anything
 * else shows as text.
 */
#ifndef VT_OUTPUT_H
#define VT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "text/sanitize.h"

#define VT_ESC_MAX 32

/* A cell's look, one byte: the foreground (0 the default, 1 + an ANSI
 * colour 0..15) and bold, underline. */
#define VT_FG_MASK 0x1f
#define VT_BOLD 0x20
#define VT_UNDERLINE 0x40

struct vt_sink {
	void *ctx;
	void (*text)(void *ctx, const char *s, size_t n, unsigned char look);
	void (*cr)(void *ctx);   /* back to the line's first cell */
	void (*bs)(void *ctx);   /* back one cell */
};

struct vt_stream {
	struct sanitizer san;
	unsigned char look;
	char esc[VT_ESC_MAX];
	size_t esc_len;
};

void vt_init(struct vt_stream *vs);
void vt_feed(struct vt_stream *vs, const char *in, size_t len,
	     const struct vt_sink *sink);
/* The stream ended: what was held back shows as text. */
void vt_finish(struct vt_stream *vs, const struct vt_sink *sink);

#endif
