/* SPDX-License-Identifier: MIT */
/*
 * mcp_picture.h - a picture a run left, made fit to send as an MCP image
 * block: decoded before it is sent, bounded, shrunk when too large.
 *
 * A file that begins as a PNG or a JPEG may still be truncated, claim
 * 2^31 x 2^31 pixels or inflate to 40000 x 40000: a host that shows it
 * shows a broken picture, and the Claude API refuses an image over 8000
 * pixels a side, which breaks every later request of the conversation.
 * So a picture goes out only once the playground's decoder
 * (image/image_decode.c) has read all of it within MCP_PICTURE_PIXELS;
 * one wider or higher than MCP_PICTURE_SIDE, or whose base64 is over
 * the share of the result's budget it was given, is shrunk (aspect kept)
 * and written again as a PNG (libpng). What cannot be sent says why.
 */
#ifndef MCP_PICTURE_H
#define MCP_PICTURE_H

#include <stdbool.h>
#include <stddef.h>

#define MCP_PICTURE_SIDE 8000            /* the Claude API's bound, a side */
#define MCP_PICTURE_DECODE_SIDE 16384    /* what is decoded to be shrunk */
#define MCP_PICTURE_PIXELS (16u << 20)   /* the playground's bound (64 MiB RGBA) */

struct mcp_picture {
	char *base64;          /* what goes out, or NULL: not sent */
	const char *mime;      /* "image/png" or "image/jpeg" */
	int w, h;              /* as sent */
	int file_w, file_h;    /* as the file has it (0: not read) */
	bool shrunk;           /* w x h is smaller than the file's */
	char why[240];         /* not sent: a sentence why */
};

/*
 * Makes data (n bytes, a file the program left) an image block's
 * payload of at most max_base64 characters. 0: p->base64 set; -1: the
 * picture is broken or over the pixel bound (p->why); 1: it cannot be
 * made to fit max_base64 (p->why). Free with mcp_picture_free.
 */
int mcp_picture_make(const void *data, size_t n, size_t max_base64, struct mcp_picture *p);
void mcp_picture_free(struct mcp_picture *p);

/* The MIME type data may be served as: a picture that decodes within
 * the bounds above, or NULL (serve it as bytes, never as an image). */
const char *mcp_picture_type(const void *data, size_t n);

#endif
