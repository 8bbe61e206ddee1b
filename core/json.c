/* SPDX-License-Identifier: MIT */
/*
 * json.c - the result as the contract's JSON object, built with jansson.
 *
 * Program output, file names and the program's text in records are any
 * bytes: they go through bytes_string() (json_bytes.c), which keeps them
 * byte for byte (invalid bytes as lone surrogates, \udcXX), and a stream
 * that is not valid UTF-8 is also given as base64.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <utf8proc.h>

#include "result.h"
#include "banned.h"

/* Program-controlled bytes as a JSON string: see json_bytes.c for the rule. */
static json_t *bytes_string(const char *s, size_t len)
{
	json_t *j = sp_json_bytes(s ? s : "", s ? len : 0);

	return j ? j : json_string("");
}

/* Also the stream as base64 when it is not valid UTF-8: a reader without
 * surrogateescape gets the bytes from there. */
static void set_base64(json_t *o, const char *key, const char *s, size_t len)
{
	char *b64;

	if (!s || sp_utf8_valid(s, len) || !(b64 = sp_base64(s, len)))
		return;
	json_object_set_new(o, key, json_string(b64));
	free(b64);
}

static json_t *text(const char *s)
{
	return bytes_string(s, s ? strlen(s) : 0);
}

char *sp_result_to_json(const struct sp_result *r)
{
	json_t *o = json_object(), *u = json_object(), *l = json_object();
	json_t *vs = json_array(), *fs = json_array(), *ls = json_object();
	char *out;

	sp_json_bytes_reset();
	json_object_set_new(o, "status", json_string(sp_status_name(r->status)));
	json_object_set_new(o, "exit_code", r->exit_code >= 0 ? json_integer(r->exit_code) : json_null());
	json_object_set_new(o, "signal", r->signal > 0 ? json_integer(r->signal) : json_null());
	json_object_set_new(o, "stdout", bytes_string(r->out, r->out_len));
	json_object_set_new(o, "stderr", bytes_string(r->err, r->err_len));
	set_base64(o, "stdout_base64", r->out, r->out_len);
	set_base64(o, "stderr_base64", r->err, r->err_len);
	json_object_set_new(o, "truncated", json_boolean(r->truncated));

	json_object_set_new(u, "cpu_ms", json_integer((json_int_t)r->usage.cpu_ms));
	json_object_set_new(u, "wall_ms", json_integer((json_int_t)r->usage.wall_ms));
	json_object_set_new(u, "peak_memory_bytes", json_integer((json_int_t)r->usage.peak_memory_bytes));
	json_object_set_new(u, "peak_memory_source", json_string(r->peak_memory_source ? r->peak_memory_source : "none"));
	json_object_set_new(u, "procs_peak", json_integer(r->usage.procs_peak));
	json_object_set_new(u, "output_bytes", json_integer((json_int_t)r->usage.output_bytes));
	json_object_set_new(u, "disk_bytes", json_integer((json_int_t)r->usage.disk_bytes));
	json_object_set_new(u, "prepare_ms", json_integer((json_int_t)r->usage.prepare_ms));
	json_object_set_new(o, "prepared", json_boolean(r->prepared));
	json_object_set_new(o, "usage", u);

	json_object_set_new(l, "cpu_ms", json_integer((json_int_t)r->limits.cpu_ms));
	json_object_set_new(l, "wall_ms", json_integer((json_int_t)r->limits.wall_ms));
	json_object_set_new(l, "memory_bytes", json_integer((json_int_t)r->limits.memory_bytes));
	json_object_set_new(l, "output_bytes", json_integer((json_int_t)r->limits.output_bytes));
	json_object_set_new(l, "disk_bytes", json_integer((json_int_t)r->limits.disk_bytes));
	json_object_set_new(l, "procs", json_integer(r->limits.procs));
	json_object_set_new(o, "limits", l);

	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		json_t *jv = json_object();
		json_object_set_new(jv, "id", json_integer(v->id));
		json_object_set_new(jv, "kind", json_string(sp_violation_kind_name(v->kind)));
		json_object_set_new(jv, "what", text(v->what));
		json_object_set_new(jv, "message", text(v->message));
		json_object_set_new(jv, "source", json_string(v->from_kernel ? "kernel" : "runtime"));
		json_object_set_new(jv, "line", v->line > 0 ? json_integer(v->line) : json_null());
		json_object_set_new(jv, "count", json_integer(v->count));
		if (r->violation_contexts && r->violation_contexts[i])
			json_object_set_new(jv, "program_context", text(r->violation_contexts[i]));
		json_array_append_new(vs, jv);
	}
	json_object_set_new(o, "violations", vs);

	for (size_t i = 0; i < r->n_files; i++) {
		json_t *jf = json_object();
		json_object_set_new(jf, "path", text(r->files[i].path));
		json_object_set_new(jf, "bytes", json_integer((json_int_t)r->files[i].bytes));
		json_object_set_new(jf, "kept", r->files[i].kept ? text(r->files[i].kept) : json_null());
		if (r->files[i].skipped)
			json_object_set_new(jf, "skipped", text(r->files[i].skipped));
		json_array_append_new(fs, jf);
	}
	json_object_set_new(o, "files", fs);
	fs = json_array();
	for (size_t i = 0; i < r->n_files_in; i++) {
		json_t *jf = json_object();
		json_object_set_new(jf, "path", text(r->files_in[i].path));
		json_object_set_new(jf, "bytes", json_integer((json_int_t)r->files_in[i].bytes));
		json_array_append_new(fs, jf);
	}
	json_object_set_new(o, "files_in", fs);
	json_object_set_new(o, "hints", sp_hints_json(r));

	json_object_set_new(o, "samples", sp_samples_json(r->samples, r->n_samples));
	json_object_set_new(o, "variables", sp_variables_json(r->variables, r->n_variables));
	if (r->variables_more)
		json_object_set_new(o, "variables_more", json_integer((json_int_t)r->variables_more));

	if (r->carry_out) {
		json_error_t e;
		json_t *c = json_loads(r->carry_out, 0, &e);
		json_object_set_new(o, "carry_out", c ? c : json_null());
	} else {
		json_object_set_new(o, "carry_out", json_null());
	}
	json_object_set_new(o, "last_value", sp_last_value_json(r));
	for (size_t i = 0; i < r->n_layers; i++) {
		const struct sp_layer *ly = &r->layers[i];
		json_object_set_new(ls, ly->name, ly->active ? json_string(ly->detail[0] ? ly->detail : "on")
							     : json_false());
	}
	json_object_set_new(o, "layers", ls);
	if (r->status == SP_STATUS_SANDBOX_ERROR)
		json_object_set_new(o, "error", text(r->error));

	out = sp_json_dump_bytes(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	return out;
}
