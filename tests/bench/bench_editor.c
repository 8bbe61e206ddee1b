/* SPDX-License-Identifier: MIT */
/*
 * bench_editor.c - how fast the editor opens, draws and types on a
 * 100,000-line file. Prints a table of medians in milliseconds.
 *
 *   bench_editor [LINES]
 *
 * Drawing goes into a real ncurses screen whose terminal is /dev/null, so
 * the numbers include ncurses' own work (doupdate) but no terminal.
 * The targets (issue 7): open well under 300 ms, a redraw or a keystroke
 * well under 5 ms.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "editor/editor.h"
#include "screen/theme.h"

#include "banned.h"

#define RUNS 7

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median of n samples (sorts them). */
static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Writes a Python-looking file of n lines; returns its path (static). */
static const char *make_file(long n)
{
	static char path[] = "/tmp/sandpit-bench-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		exit(1);
	}
	FILE *f = fdopen(fd, "w");
	for (long i = 0; i < n; i++) {
		switch (i % 8) {
		case 0: fprintf(f, "def func_%ld(x, y=1_000):\n", i); break;
		case 1: fprintf(f, "    \"\"\"Docstring with caf\xc3\xa9 and \xe4\xb8\xad\xe6\x96\x87.\"\"\"\n"); break;
		case 2: fprintf(f, "    total = sum(range(%ld)) + 0x1F * 1e-3  # note\n", i); break;
		case 3: fprintf(f, "    if x > y and not total:\n"); break;
		case 4: fprintf(f, "        print(f\"{x!r:>10} items {total}\")\n"); break;
		case 5: fprintf(f, "    data = [\"a\", 'b', (1, 2), {3: 4}]\n"); break;
		case 6: fprintf(f, "    return total\n"); break;
		default: fprintf(f, "\n"); break;
		}
	}
	fclose(f);
	return path;
}

int main(int argc, char **argv)
{
	long lines = argc > 1 ? atol(argv[1]) : 100000;
	setlocale(LC_ALL, "C.UTF-8");
	const char *path = make_file(lines);
	char err[256];
	double t[1000];

	/* Open. */
	struct editor *ed = NULL;
	for (int r = 0; r < RUNS; r++) {
		editor_free(ed);
		ed = editor_new();
		double a = now_ms();
		if (editor_open(ed, path, err, sizeof err) < 0) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		t[r] = now_ms() - a;
	}
	double open_ms = median(t, RUNS);

	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	SCREEN *scr = newterm(getenv("TERM") ? getenv("TERM") : "xterm-256color", out, in);
	if (!scr) {
		scr = newterm("xterm-256color", out, in);
		if (!scr)
			return 1;
	}
	set_term(scr);
	resizeterm(50, 200);
	struct theme th;
	theme_default(&th);
	theme_apply(&th);
	int h = 48, w = 120;

	/* First draw at the very end: highlights every line above it once. */
	double a = now_ms();
	editor_goto_line(ed, lines);
	editor_draw(ed, stdscr, 1, 1, h, w, &th, true);
	double first_end_ms = now_ms() - a;

	/* Full redraws at scattered places (editor_draw + ncurses output). */
	for (int r = 0; r < 101; r++) {
		editor_goto_line(ed, (long)(((long long)r * 7919) % lines) + 1);
		editor_draw(ed, stdscr, 1, 1, h, w, &th, true);   /* move there */
		touchwin(stdscr);
		a = now_ms();
		editor_draw(ed, stdscr, 1, 1, h, w, &th, true);
		wnoutrefresh(stdscr);
		doupdate();
		t[r] = now_ms() - a;
	}
	double redraw_ms = median(t, 101);

	/* 1000 keystrokes in the middle of the file, each with its redraw. */
	editor_goto_line(ed, lines / 2);
	editor_key(ed, true, KEY_END);
	const char *typed = "x = [i * 2 for i in range(10)]  # \xc3\xa9\n";
	size_t tl = strlen(typed), k = 0;
	double key_only[1000];
	for (int r = 0; r < 1000; r++) {
		wchar_t wc;
		int n = mbtowc(&wc, typed + k, tl - k);
		if (n <= 0)
			n = 1, wc = typed[k];
		k = (k + (size_t)n) % tl;
		a = now_ms();
		editor_key(ed, false, (wint_t)wc);
		key_only[r] = now_ms() - a;
		editor_draw(ed, stdscr, 1, 1, h, w, &th, true);
		wnoutrefresh(stdscr);
		doupdate();
		t[r] = now_ms() - a;
	}
	double key_ms = median(key_only, 1000), keydraw_ms = median(t, 1000);

	/* Undo all of that typing. */
	a = now_ms();
	for (int r = 0; r < 1000; r++)
		editor_key(ed, false, 26);
	double undo_ms = now_ms() - a;

	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	editor_free(ed);
	unlink(path);

	printf("%-44s %10s\n", "editor benchmark", "median ms");
	printf("%-44s %10.3f\n", "open 100,000-line file", open_ms);
	printf("%-44s %10.3f\n", "first draw at the end (highlight all lines)", first_end_ms);
	printf("%-44s %10.3f\n", "full redraw 48x120 (draw + doupdate)", redraw_ms);
	printf("%-44s %10.3f\n", "keystroke (edit only)", key_ms);
	printf("%-44s %10.3f\n", "keystroke + redraw", keydraw_ms);
	printf("%-44s %10.3f\n", "undo of 1000 keystrokes (total)", undo_ms);
	if (lines != 100000)
		printf("(%ld lines)\n", lines);
	return 0;
}
