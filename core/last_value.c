/* SPDX-License-Identifier: MIT */
/*
 * last_value.c - the value of the program's last expression, as a
 * notebook's "Out" shows it.
 *
 * When a program's last top-level statement is an expression (df.head(),
 * summary), the prelude keeps its value and, after the program, sends
 * {"t": "last", "type": ..., "repr": ...} when it is not None. It comes
 * over the program's own channel, so it is not trusted: a later message
 * replaces an earlier one (the prelude's comes last), each text is cut to
 * its cap on a character boundary, and nothing else is read from it.
 * `sandpit run` prints none of it (stdout stays the program's, byte for
 * byte); the JSON result has it as "last_value", the playground as "Out:".
 */
#include <stdlib.h>
#include <jansson.h>

#include "run_impl.h"
#include "banned.h"

void sp_last_value_set(struct sp_run *r, json_t *msg)
{
	const char *type = json_string_value(json_object_get(msg, "type"));
	const char *repr = json_string_value(json_object_get(msg, "repr"));
	char *t, *v;

	if (!type || !repr)
		return;
	t = sp_utf8_cut_dup(type, 80);
	v = sp_utf8_cut_dup(repr, SP_LAST_VALUE_MAX);
	if (!t || !v) {
		free(t);
		free(v);
		return;
	}
	free(r->res->last_value_type);
	free(r->res->last_value_repr);
	r->res->last_value_type = t;
	r->res->last_value_repr = v;
}

json_t *sp_last_value_json(const struct sp_result *r)
{
	json_t *o;

	if (!r->last_value_type || !r->last_value_repr)
		return json_null();
	o = json_object();
	json_object_set_new(o, "type", json_string(r->last_value_type));
	json_object_set_new(o, "repr", json_string(r->last_value_repr));
	return o;
}
