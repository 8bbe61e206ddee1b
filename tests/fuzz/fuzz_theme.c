/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/screen/theme.c tui/screen/colormap.c tui/image/rgb_hue.c tui/text/ini_lines.c tui/text/fileio.c core/buf.c build-fuzz/gen/default_theme.c */
/* fuzz-pkgs: inih ncursesw */
/*
 * fuzz_theme.c - random theme text through the parser.
 *
 * Whatever the text, parsing must not crash, must leave a complete theme
 * (the default on error), and an error must name the file and a line
 * within the text: "fuzz.theme:LINE: ...".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screen/theme.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	CHECK(text);
	memcpy(text, data, size);
	text[size] = '\0';
	struct theme th;
	char err[256] = "";
	int rc = theme_parse_string(text, "fuzz.theme", &th, err, sizeof err);
	if (rc != 0) {
		CHECK(rc == -1);
		int line = 0;
		CHECK(sscanf(err, "fuzz.theme:%d:", &line) == 1);
		size_t lines = 1;
		for (size_t i = 0; i < size; i++)
			lines += text[i] == '\n';
		CHECK(line >= 1 && (size_t)line <= lines);
		struct theme d;
		theme_default(&d);
		CHECK(memcmp(th.style, d.style, sizeof d.style) == 0);
	}
	for (int r = 0; r < TR_COUNT; r++) {
		int32_t fg = th.style[r].fg;
		CHECK(fg == THEME_COLOR_DEFAULT || (fg >= 0 && fg < 256) ||
		      (fg & ~0xffffff) == THEME_RGB);
		(void)theme_attr(&th, (enum theme_role)r);
	}
	free(text);
	return 0;
}
