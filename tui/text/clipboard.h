/* SPDX-License-Identifier: MIT */
/*
 * clipboard.h - hands what the Editor copies to the system clipboard by
 * OSC 52 (ESC ] 52 ; c ; BASE64 BEL), the escape sequence xterm, kitty,
 * foot, WezTerm, iTerm2, Windows Terminal and tmux (with set-clipboard on)
 * understand, and which works over ssh, as micro and vim's osc52 do.
 *
 * A terminal that does not know OSC 52 ignores it (an OSC sequence is
 * skipped whole by every ECMA-48 parser), so it is always sent; the
 * internal clipboard keeps working either way.
 */
#ifndef CLIPBOARD_H
#define CLIPBOARD_H

#include <stdbool.h>
#include <stddef.h>

/* Larger copies stay inside sandpit: some terminals drop or cut long
 * OSC 52 payloads, and a cut clipboard is worse than none. */
#define CLIPBOARD_OSC52_MAX 100000

/* The OSC 52 sequence for text into out (room for outlen bytes); its
 * length, or 0 when text is over CLIPBOARD_OSC52_MAX or out too small. */
size_t clipboard_osc52(const char *text, size_t len, char *out, size_t outlen);

/* Sends text to the terminal's clipboard. False when it was too large
 * (or out of memory): then only the internal clipboard has it. */
bool clipboard_copy(const char *text, size_t len);

#endif
