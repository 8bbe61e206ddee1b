/* SPDX-License-Identifier: MIT */
/*
 * demos.c - the embedded demo programs and their menu.
 *
 * The Makefile runs tools/embed.sh --table over tui/demos/NN_name.py (sorted),
 * which defines the table below; its last entry has a NULL name.
 */
#include <stdio.h>
#include <string.h>

#include "screen/demos.h"
#include "screen/layout.h"
#include "screen/theme.h"
#include "banned.h"

struct embedded_file {
	const char *name;
	const char *text;
	size_t len;
};
extern const struct embedded_file demos[];

size_t demos_count(void)
{
	size_t n = 0;
	while (demos[n].name)
		n++;
	return n;
}

void demo_buffer_name(size_t i, char *buf, size_t len)
{
	const char *n = demos[i].name;
	const char *u = strchr(n, '_');
	snprintf(buf, len, "%s", u && u[1] ? u + 1 : n);
}

void demo_title(size_t i, char *buf, size_t len)
{
	static const char tag[] = "# title: ";
	const char *t = demos[i].text;

	if (!strncmp(t, tag, sizeof tag - 1)) {
		const char *s = t + sizeof tag - 1;
		const char *e = strchr(s, '\n');
		int n = e ? (int)(e - s) : (int)strlen(s);
		snprintf(buf, len, "%.*s", n, s);
	} else {
		snprintf(buf, len, "%s", demos[i].name);
	}
}

unsigned demo_wall_factor(size_t i)
{
	static const char tag[] = "\n# wall: ";
	const char *t = demos[i].text;
	const char *w = memmem(t, demos[i].len, tag, sizeof tag - 1);
	unsigned f = 0;

	/* "# wall: 4x cpu": at least four times the CPU limit */
	if (w && sscanf(w + sizeof tag - 1, "%ux cpu", &f) == 1 && f <= 100)
		return f;
	return 0;
}

const char *demo_text(size_t i, size_t *len)
{
	*len = demos[i].len;
	return demos[i].text;
}

void demo_menu_open(struct demo_menu *m)
{
	m->typed = 0;
	m->active = demos_count() > 0;
	if (m->sel >= demos_count())
		m->sel = 0;
}

/* Digits pick by number, any number of them: "1" then "1" is demo 11.
 * A number that no further digit could keep valid chooses at once. */
static long typed_digit(struct demo_menu *m, int key, size_t n)
{
	if (key < '0' || key > '9') {
		m->typed = 0;
		return DEMO_MENU_OPEN;
	}
	unsigned d = (unsigned)(key - '0'), num = m->typed * 10 + d;
	if (num == 0 || num > n)
		num = d >= 1 && d <= n ? d : 0;   /* start a new number */
	m->typed = num;
	if (num == 0)
		return DEMO_MENU_OPEN;
	m->sel = num - 1;
	if ((size_t)num * 10 <= n)
		return DEMO_MENU_OPEN;            /* "1" of 11: 10 and 11 may follow */
	m->typed = 0;
	m->active = false;
	return (long)m->sel;
}

long demo_menu_key(struct demo_menu *m, int key)
{
	size_t n = demos_count();

	if (key < '0' || key > '9')
		m->typed = 0;

	switch (key) {
	case KEY_UP: case 'k':
		m->sel = m->sel ? m->sel - 1 : n - 1;
		return DEMO_MENU_OPEN;
	case KEY_DOWN: case 'j':
		m->sel = m->sel + 1 < n ? m->sel + 1 : 0;
		return DEMO_MENU_OPEN;
	case KEY_HOME: m->sel = 0; return DEMO_MENU_OPEN;
	case KEY_END: m->sel = n - 1; return DEMO_MENU_OPEN;
	case '\n': case '\r': case KEY_ENTER:
		m->active = false;
		return (long)m->sel;
	case 27: case 'q': case KEY_F(3):
		m->active = false;
		return DEMO_MENU_CLOSED;
	case 'l':
		m->active = false;
		return DEMO_MENU_LESSONS;
	case 'p':
		return DEMO_MENU_STEP;
	case 'h':
		m->active = false;
		return DEMO_MENU_HISTORY;
	default:
		return typed_digit(m, key, n);
	}
}

/* The menu box: centred, as wide as the longest title allows. */
static struct rect menu_rect(int rows, int cols)
{
	int h = (int)demos_count() + 4, w = 72;
	if (w > cols - 2) w = cols - 2;
	if (h > rows - 2) h = rows - 2;
	return (struct rect){ (rows - h) / 2, (cols - w) / 2, h, w };
}

long demo_menu_click(struct demo_menu *m, int rows, int y)
{
	struct rect r = menu_rect(rows, COLS);
	long i = y - (r.y + 2);
	if (i >= 0 && (size_t)i < demos_count()) {
		m->active = false;
		m->sel = (size_t)i;
		return i;
	}
	return DEMO_MENU_OPEN;
}

void demo_menu_draw(const struct demo_menu *m, WINDOW *win, int rows, int cols,
		    const struct theme *th)
{
	struct rect r = menu_rect(rows, cols);
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	char title[160], line[200];
	const char *hint = "Enter loads, F5 runs   l lessons   p step mode   h assistant's runs";
	char typed[96];

	if (m->typed) {
		snprintf(typed, sizeof typed, "%u_  Enter loads %u, or type its next digit",
			 m->typed, m->typed);
		hint = typed;
	}

	layout_clear(win, r, a);
	layout_frame(win, r, "Demos (F3)", NULL, true, th);
	text_draw(win, in.y, in.x + 1, in.w - 2, hint, strlen(hint), a);
	for (size_t i = 0; i < demos_count() && (int)i + 1 < in.h; i++) {
		demo_title(i, title, sizeof title);
		snprintf(line, sizeof line, "%2zu  %s", i + 1, title);
		attr_t la = i == m->sel ? theme_attr(th, TR_SELECTION) : a;
		layout_clear(win, (struct rect){ in.y + 1 + (int)i, in.x, 1, in.w }, la);
		text_draw(win, in.y + 1 + (int)i, in.x + 1, in.w - 2, line,
			  strlen(line), la);
	}
}
