/* SPDX-License-Identifier: MIT */
/*
 * vt_output.c - the few terminal behaviours the Output pane honours.
 *
 * Why not libvterm: it is a whole terminal, and obeys every sequence it
 * knows (cursor moves, clearing, titles), while the rule here is the
 * opposite: obey three harmless ones and show the rest as they were
 * written. Its parser layer hands escapes back already decoded (numbers
 * re-read, ':' sub-parameters flagged), so the bytes a program wrote
 * could not be shown as written, only as libvterm re-spells them; and
 * our sanitizer already owns UTF-8 and the C0/C1 rules. What is left to
 * recognise is one grammar, ESC [ digits and ';' m, which this file does
 * in a few lines. (docs/architecture.md)
 *
 * SGR codes honoured: 0 reset, 1 bold, 22 not bold, 4 underline,
 * 24 not underline, 30-37 and 90-97 foreground, 39 default foreground,
 * 38;5;N for N < 16. Other SGR codes (background, 256 and true colour,
 * blink, reverse ...) are taken and ignored: they only style, and the
 * theme decides the background.
 */
#include <string.h>

#include "text/vt_output.h"
#include "banned.h"

void vt_init(struct vt_stream *vs)
{
	memset(vs, 0, sizeof *vs);
	sanitize_init(&vs->san);
}

/* Sanitize and hand over n plain bytes. */
static void emit(struct vt_stream *vs, const char *s, size_t n,
		 const struct vt_sink *sink)
{
	char buf[4096];

	while (n) {
		/* sanitize_max_out(k) <= sizeof buf for this k */
		size_t k = n > 400 ? 400 : n;
		size_t m = sanitize_feed(&vs->san, s, k, buf, sizeof buf);
		if (m)
			sink->text(sink->ctx, buf, m, vs->look);
		s += k;
		n -= k;
	}
}

/* Apply "p1;p2;...m" (without ESC [ and m). */
static void apply_sgr(struct vt_stream *vs, const char *p, size_t n)
{
	unsigned vals[16];
	size_t nv = 0;
	unsigned v = 0;
	bool have = false;

	for (size_t i = 0; i <= n; i++) {
		if (i == n || p[i] == ';') {
			if (nv < 16)
				vals[nv++] = have ? v : 0;
			v = 0;
			have = false;
		} else {
			v = v * 10 + (unsigned)(p[i] - '0');
			if (v > 9999)
				v = 9999;
			have = true;
		}
	}
	for (size_t i = 0; i < nv; i++) {
		unsigned c = vals[i];
		unsigned char fg = vs->look & VT_FG_MASK;

		if (c == 0) {
			vs->look = 0;
			continue;
		} else if (c == 1) {
			vs->look |= VT_BOLD;
		} else if (c == 22) {
			vs->look &= (unsigned char)~VT_BOLD;
		} else if (c == 4) {
			vs->look |= VT_UNDERLINE;
		} else if (c == 24) {
			vs->look &= (unsigned char)~VT_UNDERLINE;
		} else if (c >= 30 && c <= 37) {
			fg = (unsigned char)(1 + c - 30);
		} else if (c >= 90 && c <= 97) {
			fg = (unsigned char)(1 + 8 + c - 90);
		} else if (c == 39) {
			fg = 0;
		} else if ((c == 38 || c == 48) && i + 1 < nv) {
			/* 5;N or 2;R;G;B follow: taken whole */
			bool fore = c == 38;
			if (vals[i + 1] == 5 && i + 2 < nv) {
				if (fore && vals[i + 2] < 16)
					fg = (unsigned char)(1 + vals[i + 2]);
				i += 2;
			} else if (vals[i + 1] == 2) {
				i += 4;
			}
		}
		vs->look = (unsigned char)((vs->look & ~VT_FG_MASK) | fg);
	}
}

/*
 * What the held escape is: 1 a whole SGR (applied), 0 maybe one still
 * coming, -1 not one of ours.
 */
static int take_sgr(struct vt_stream *vs)
{
	if (vs->esc_len < 2)
		return 0;
	if (vs->esc[1] != '[')
		return -1;
	for (size_t i = 2; i < vs->esc_len; i++) {
		char c = vs->esc[i];
		if (c == 'm') {
			if (i + 1 != vs->esc_len)
				return -1;
			apply_sgr(vs, vs->esc + 2, i - 2);
			return 1;
		}
		if (!(c == ';' || (c >= '0' && c <= '9')))
			return -1;
	}
	return vs->esc_len < VT_ESC_MAX ? 0 : -1;
}

void vt_feed(struct vt_stream *vs, const char *in, size_t len,
	     const struct vt_sink *sink)
{
	size_t start = 0;

	for (size_t i = 0; i < len; i++) {
		char c = in[i];

		if (vs->esc_len) {
			int r;
			vs->esc[vs->esc_len++] = c;
			r = take_sgr(vs);
			if (r == 1) {
				vs->esc_len = 0;
			} else if (r < 0) {
				/* not ours: shown as written, ESC as ^[ */
				size_t n = vs->esc_len;
				vs->esc_len = 0;
				emit(vs, vs->esc, n - 1, sink);
				i--; /* the byte that decided it is looked at again */
			}
			start = i + 1;
			continue;
		}
		if (c != '\r' && c != '\b' && c != 0x1b)
			continue;
		emit(vs, in + start, i - start, sink);
		start = i + 1;
		if (c == '\r')
			sink->cr(sink->ctx);
		else if (c == '\b')
			sink->bs(sink->ctx);
		else
			vs->esc[vs->esc_len++] = c;
	}
	if (start < len && !vs->esc_len)
		emit(vs, in + start, len - start, sink);
}

void vt_finish(struct vt_stream *vs, const struct vt_sink *sink)
{
	char buf[64];
	size_t m;

	if (vs->esc_len) {
		size_t n = vs->esc_len;
		vs->esc_len = 0;
		emit(vs, vs->esc, n, sink);
	}
	m = sanitize_finish(&vs->san, buf, sizeof buf);
	if (m)
		sink->text(sink->ctx, buf, m, vs->look);
}
