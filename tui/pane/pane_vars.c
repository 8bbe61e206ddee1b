/* SPDX-License-Identifier: MIT */
/*
 * pane_vars.c - the Variables view. Columns are as wide as their longest
 * entry (capped), so a short list reads "x  int  41"; a name the program
 * made is program text, sanitized on one line like every such name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "pane/pane_vars.h"
#include "text/sanitize.h"
#include "screen/theme.h"
#include "json_text.h"
#include "banned.h"

#define NAME_COL_MAX 24
#define TYPE_COL_MAX 16

static void free_rows(struct vars_pane *vp)
{
	for (size_t i = 0; i < vp->n; i++) {
		free(vp->rows[i].name);
		free(vp->rows[i].type);
		free(vp->rows[i].repr);
		free(vp->rows[i].value);
		free(vp->rows[i].table);
	}
	free(vp->rows);
	vp->rows = NULL;
	vp->n = 0;
}

void vars_set(struct vars_pane *vp, const struct sp_result *r)
{
	free_rows(vp);
	vp->sel = vp->top = 0;
	vp->more = r->variables_more;
	vp->have_run = true;
	if (!r->n_variables)
		return;
	vp->rows = calloc(r->n_variables, sizeof *vp->rows);
	if (!vp->rows)
		return;
	for (size_t i = 0; i < r->n_variables; i++) {
		const struct sp_variable *v = &r->variables[i];
		struct var_row *row = &vp->rows[vp->n];
		row->name = sanitize_dup(v->name, true);
		row->type = sanitize_dup(v->type, true);
		row->repr = sanitize_dup(v->repr, true);
		row->carryable = v->carryable;
		row->value = v->value ? strdup(v->value) : NULL;
		row->table = r->variable_tables && r->variable_tables[i] ?
			     strdup(r->variable_tables[i]) : NULL;
		if (!row->name || !row->type || !row->repr) {
			free(row->name);
			free(row->type);
			free(row->repr);
			free(row->value);
			free(row->table);
			continue;
		}
		vp->n++;
	}
}

void vars_free(struct vars_pane *vp)
{
	free_rows(vp);
}

bool vars_key(struct vars_pane *vp, int key, int page)
{
	size_t last = vp->n ? vp->n - 1 : 0;

	switch (key) {
	case KEY_UP: if (vp->sel) vp->sel--; return true;
	case KEY_DOWN: if (vp->sel < last) vp->sel++; return true;
	case KEY_PPAGE: vp->sel = vp->sel > (size_t)page ? vp->sel - (size_t)page : 0; return true;
	case KEY_NPAGE: vp->sel = vp->sel + (size_t)page < last ? vp->sel + (size_t)page : last;
		return true;
	case KEY_HOME: vp->sel = 0; return true;
	case KEY_END: vp->sel = last; return true;
	default: return false;
	}
}

void vars_click(struct vars_pane *vp, int row)
{
	if (row >= 0 && vp->top + (size_t)row < vp->n)
		vp->sel = vp->top + (size_t)row;
}

const struct var_row *vars_selected(const struct vars_pane *vp)
{
	return vp->sel < vp->n ? &vp->rows[vp->sel] : NULL;
}

char *vars_carry_json(const struct vars_pane *vp, char *why, size_t whylen)
{
	const struct var_row *row = vars_selected(vp);
	json_t *obj, *val;
	json_error_t e;
	char *text;

	if (!row) {
		snprintf(why, whylen, "no variable selected (run a program first)");
		return NULL;
	}
	if (!row->carryable) {
		snprintf(why, whylen, "%s is a %s: JSON cannot carry it - carry what "
			 "it holds instead (numbers, text, lists, dicts)", row->name, row->type);
		return NULL;
	}
	if (!row->value) {
		snprintf(why, whylen, "%s is too big to carry from here - call "
			 "carry(%s=%s) in the program", row->name, row->name, row->name);
		return NULL;
	}
	val = json_loads(row->value, JSON_DECODE_ANY, &e);
	obj = json_object();
	/* the raw name, not the sanitized one: a carryable name is an
	 * identifier, so the two are the same */
	if (!val || !obj || json_object_set_new(obj, row->name, val) < 0) {
		json_decref(obj);
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	text = sp_json_dumps(obj, JSON_COMPACT);
	json_decref(obj);
	if (!text)
		snprintf(why, whylen, "out of memory");
	return text;
}

static int col_width(const struct vars_pane *vp, bool type, int cap)
{
	int w = 1;

	for (size_t i = 0; i < vp->n; i++) {
		const char *s = type ? vp->rows[i].type : vp->rows[i].name;
		int n = text_width(s, strlen(s));
		if (n > w)
			w = n;
	}
	return w > cap ? cap : w;
}

void vars_draw(struct vars_pane *vp, WINDOW *win, struct rect in,
	       const struct theme *th, bool focused)
{
	int body = in.h > 1 ? in.h - 1 : 1, nw, tw;
	char line[160];

	layout_clear(win, in, theme_attr(th, TR_NORMAL));
	if (in.h < 1 || in.w < 8)
		return;
	if (!vp->have_run || !vp->n) {
		const char *t = vp->have_run ? "no globals were left (modules, functions "
				"and classes are not listed)" :
				"the globals a run leaves show here at its end";
		text_draw(win, in.y, in.x, in.w, t, strlen(t), theme_attr(th, TR_NORMAL));
	}
	if (vp->sel >= vp->top + (size_t)body)
		vp->top = vp->sel - (size_t)body + 1;
	if (vp->sel < vp->top)
		vp->top = vp->sel;
	nw = col_width(vp, false, NAME_COL_MAX);
	tw = col_width(vp, true, TYPE_COL_MAX);
	if (nw + tw + 6 > in.w) { /* narrow: the names matter most */
		tw = 0;
		nw = in.w / 2;
	}
	for (int y = 0; y < body && vp->top + (size_t)y < vp->n; y++) {
		const struct var_row *row = &vp->rows[vp->top + (size_t)y];
		bool sel = vp->top + (size_t)y == vp->sel;
		attr_t a = sel && focused ? theme_attr(th, TR_SELECTION) :
			   theme_attr(th, row->carryable ? TR_NORMAL : TR_COMMENT);
		int x = in.x;

		layout_clear(win, (struct rect){ in.y + y, in.x, 1, in.w }, a);
		text_draw(win, in.y + y, x, nw, row->name, strlen(row->name), a | A_BOLD);
		x += nw + 2;
		if (tw) {
			text_draw(win, in.y + y, x, tw, row->type, strlen(row->type), a);
			x += tw + 2;
		}
		if (x < in.x + in.w)
			text_draw(win, in.y + y, x, in.x + in.w - x, row->repr,
				  strlen(row->repr), a);
	}
	if (in.h < 2)
		return;
	if (vp->more)
		snprintf(line, sizeof line, "%zu shown, %llu more - Enter carries one",
			 vp->n, (unsigned long long)vp->more);
	else if (vars_selected(vp) && vars_selected(vp)->table)
		snprintf(line, sizeof line, "%zu variable%s - Enter shows the table", vp->n,
			 vp->n == 1 ? "" : "s");
	else if (vp->n)
		snprintf(line, sizeof line, "%zu variable%s - Enter carries %s", vp->n,
			 vp->n == 1 ? "" : "s", vp->n == 1 ? "it" : "one");
	else
		line[0] = '\0';
	layout_clear(win, (struct rect){ in.y + in.h - 1, in.x, 1, in.w },
		     theme_attr(th, TR_STATUS));
	text_draw(win, in.y + in.h - 1, in.x, in.w, line, strlen(line),
		  theme_attr(th, TR_STATUS));
}
