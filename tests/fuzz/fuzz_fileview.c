/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/pane/fileview.c tui/pane/table_view.c tui/screen/layout.c tui/screen/theme.c tui/screen/colormap.c tui/image/rgb_hue.c tui/text/ini_lines.c tui/text/sanitize.c tui/text/utf8text.c tui/text/fileio.c core/buf.c build-fuzz/gen/default_theme.c */
/* fuzz-pkgs: inih ncursesw */
/*
 * fuzz_fileview.c - a file a run left, as the F8 view reads it.
 *
 * The first byte picks the name the bytes are viewed under (text, .csv,
 * .tsv), the rest is the file. Whatever the bytes, the view must end
 * with at most FILEVIEW_MAX_LINES lines, each one NUL-ended valid UTF-8
 * with no control byte (no ESC, no tab: nothing a terminal would obey),
 * and a note.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pane/fileview.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "out.txt", "data.csv", "t.tsv", "figure-1.png" };
	struct file_view v;

	if (size < 1)
		return 0;
	memset(&v, 0, sizeof v);
	fileview_load_bytes(&v, names[data[0] % 4], (const char *)data + 1, size - 1, size - 1);
	if (v.n_lines > FILEVIEW_MAX_LINES || !v.note[0])
		abort();
	for (size_t i = 0; i < v.n_lines; i++)
		for (const unsigned char *p = (const unsigned char *)v.lines[i]; *p; p++)
			if (*p < 0x20 || *p == 0x7f)
				abort();
	fileview_close(&v);
	return 0;
}
