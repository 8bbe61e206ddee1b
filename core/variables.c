/* SPDX-License-Identifier: MIT */
/*
 * variables.c - the program's globals at its end, for the playground's
 * Variables view and the result's "variables".
 *
 * The prelude sends one {"t": "var"} message a global and, when it left
 * some out, a last {"t": "vars", "more": N}. All of it comes over the
 * program's own channel, so none of it is trusted: at most
 * SP_MAX_VARIABLES records, each text cut to its cap on a character
 * boundary, a value kept only when it is small and the next run could
 * take it under that name (the carry buffer's own checks), and all
 * values together bounded too. What is over a cap is counted, never
 * stored.
 */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "run_impl.h"
#include "banned.h"

#define VALUE_MAX 16384
#define VALUES_MAX (256 * 1024)
#define TABLES_MAX (1024 * 1024)

char *sp_utf8_cut_dup(const char *s, size_t max)
{
	size_t n = strlen(s);
	char *c;

	if (n > max) {
		n = max;
		while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	c = malloc(n + 1);
	if (c) {
		memcpy(c, s, n);
		c[n] = '\0';
	}
	return c;
}

/* A table's preview, kept as compact text when it is an object of its
 * cap; what is in it is the front end's to check (sandpit.h). */
static void keep_table(struct sp_run *r, json_t *table)
{
	char *text;
	size_t n;

	if (!json_is_object(table))
		return;
	text = sp_json_dumps(table, JSON_COMPACT);
	n = text ? strlen(text) : 0;
	if (text && n <= SP_TABLE_MAX && r->vars.table_bytes + n <= TABLES_MAX) {
		r->vars.tables[r->vars.n] = text;
		r->vars.table_bytes += n;
	} else {
		free(text);
	}
}

void sp_variables_add(struct sp_run *r, json_t *msg)
{
	const char *name = json_string_value(json_object_get(msg, "name"));
	const char *type = json_string_value(json_object_get(msg, "type"));
	const char *repr = json_string_value(json_object_get(msg, "repr"));
	json_t *value = json_object_get(msg, "value");
	struct sp_variable *v;

	if (!name || !type || !repr)
		return;
	if (r->vars.n >= SP_MAX_VARIABLES) {
		r->vars.more++;
		return;
	}
	if (!r->vars.v) {
		r->vars.v = calloc(SP_MAX_VARIABLES, sizeof *r->vars.v);
		r->vars.tables = calloc(SP_MAX_VARIABLES, sizeof *r->vars.tables);
		if (!r->vars.v || !r->vars.tables) {
			free(r->vars.v);
			free(r->vars.tables);
			r->vars.v = NULL;
			r->vars.tables = NULL;
			return;
		}
	}
	v = &r->vars.v[r->vars.n];
	v->name = sp_utf8_cut_dup(name, 80);
	v->type = sp_utf8_cut_dup(type, 40);
	v->repr = sp_utf8_cut_dup(repr, 200);
	if (!v->name || !v->type || !v->repr) {
		free(v->name);
		free(v->type);
		free(v->repr);
		memset(v, 0, sizeof *v);
		return;
	}
	v->carryable = json_is_true(json_object_get(msg, "carryable")) &&
		       strlen(name) <= 80 && !sp_carry_name_problem(name);
	if (v->carryable && value && !sp_carry_value_problem(value)) {
		char *text = sp_json_dumps(value, JSON_COMPACT);
		size_t n = text ? strlen(text) : 0;
		if (text && n <= VALUE_MAX && r->vars.value_bytes + n <= VALUES_MAX) {
			v->value = text;
			r->vars.value_bytes += n;
		} else {
			free(text);
		}
	} else if (value) {
		v->carryable = false;
	}
	keep_table(r, json_object_get(msg, "table"));
	r->vars.n++;
}

void sp_variables_more(struct sp_run *r, json_t *msg)
{
	json_t *m = json_object_get(msg, "more");

	if (json_is_integer(m) && json_integer_value(m) > 0)
		r->vars.more += (uint64_t)json_integer_value(m) > 1000000000u ?
				1000000000u : (uint64_t)json_integer_value(m);
}

void sp_variables_take(struct sp_run *r)
{
	r->res->variables = r->vars.v;
	r->res->variable_tables = r->vars.tables;
	r->res->n_variables = r->vars.n;
	r->res->variables_more = r->vars.more;
	memset(&r->vars, 0, sizeof r->vars);
}

void sp_variables_free(struct sp_variable *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].type);
		free(v[i].repr);
		free(v[i].value);
	}
	free(v);
}

json_t *sp_variables_json(const struct sp_variable *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(v[i].name));
		json_object_set_new(o, "type", json_string(v[i].type));
		json_object_set_new(o, "repr", json_string(v[i].repr));
		json_object_set_new(o, "carryable", json_boolean(v[i].carryable));
		json_array_append_new(a, o);
	}
	return a;
}
