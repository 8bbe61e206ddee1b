/* SPDX-License-Identifier: MIT */
/*
 * json_dump.c - JSON text whose floats read as a person wrote them.
 *
 * A double has no exact decimal form: 534039.6 is stored as
 * 534039.59999999997671693563461303710937500. Seventeen significant
 * digits always read back to the same double, which is why jansson
 * writes every real with "%.17g": 534039.59999999998. But most doubles
 * need fewer: the shortest decimal that reads back to the same bits is
 * what Python's repr() prints, and what a person typed (534039.6).
 *
 * jansson takes one precision for a whole dump (JSON_REAL_PRECISION in
 * the flags), and a carry buffer mixes 0.1 with 1/3. So this file walks
 * the tree itself, writing the containers' punctuation and indentation
 * exactly as json_dumps does, and hands each leaf to json_dumps with the
 * precision that leaf needs. Like repr(), a float from 1e-4 up to 1e16 is
 * written without an exponent (100.0, not 1e2).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "result.h"
#include "buf.h"
#include "banned.h"

int sp_json_real_precision(double v)
{
	char text[40];
	int p = 1, exp10;

	for (; p < 17; p++) {
		snprintf(text, sizeof text, "%.*g", p, v);
		if (strtod(text, NULL) == v)
			break;
	}
	/* %g writes an exponent once the exponent reaches the precision:
	 * widen the precision to keep 100.0 and 1e15 in plain digits. An
	 * integral double below 1e16 is exact in that many digits. */
	snprintf(text, sizeof text, "%.*e", p - 1, v);
	exp10 = (int)strtol(strchr(text, 'e') + 1, NULL, 10); /* a double's: |e| < 400 */
	if (exp10 >= -4 && exp10 < 16 && exp10 + 1 > p)
		p = exp10 + 1;
	return p;
}

static int dump_leaf(struct sp_buf *b, const json_t *v, size_t flags)
{
	size_t leaf = (flags & JSON_ENSURE_ASCII) | JSON_ENCODE_ANY;
	char *text;
	int rc;

	if (json_is_real(v))
		leaf |= JSON_REAL_PRECISION(sp_json_real_precision(json_real_value(v)));
	text = json_dumps(v, leaf);
	if (!text)
		return -1;
	rc = sp_buf_adds(b, text);
	free(text);
	return rc;
}

/* What json_dumps writes between items: a new line and the depth's
 * indent when indenting, else one space after a comma unless compact. */
static int dump_gap(struct sp_buf *b, size_t flags, int depth, int after_comma)
{
	int indent = (int)(flags & JSON_MAX_INDENT);

	if (indent > 0) {
		if (sp_buf_adds(b, "\n") < 0)
			return -1;
		for (int i = 0; i < indent * depth; i++)
			if (sp_buf_adds(b, " ") < 0)
				return -1;
		return 0;
	}
	return after_comma && !(flags & JSON_COMPACT) ? sp_buf_adds(b, " ") : 0;
}

static int dump_value(struct sp_buf *b, const json_t *v, size_t flags, int depth)
{
	const char *colon = flags & JSON_COMPACT ? ":" : ": ";

	if (depth > 2048) /* jansson's own nesting bound, against a stack overflow */
		return -1;
	if (json_is_object(v)) {
		const char *key;
		json_t *val;
		size_t left = json_object_size(v);

		if (left == 0)
			return sp_buf_adds(b, "{}");
		if (sp_buf_adds(b, "{") < 0 || dump_gap(b, flags, depth + 1, 0) < 0)
			return -1;
		json_object_foreach((json_t *)v, key, val) {
			json_t *k = json_string(key);
			int rc = k ? dump_leaf(b, k, flags) : -1;

			json_decref(k);
			if (rc < 0 || sp_buf_adds(b, colon) < 0 ||
			    dump_value(b, val, flags, depth + 1) < 0)
				return -1;
			if (--left ? sp_buf_adds(b, ",") < 0 || dump_gap(b, flags, depth + 1, 1) < 0
				   : dump_gap(b, flags, depth, 0) < 0)
				return -1;
		}
		return sp_buf_adds(b, "}");
	}
	if (json_is_array(v)) {
		size_t n = json_array_size(v);

		if (n == 0)
			return sp_buf_adds(b, "[]");
		if (sp_buf_adds(b, "[") < 0 || dump_gap(b, flags, depth + 1, 0) < 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			if (dump_value(b, json_array_get(v, i), flags, depth + 1) < 0)
				return -1;
			if (i + 1 < n ? sp_buf_adds(b, ",") < 0 || dump_gap(b, flags, depth + 1, 1) < 0
				      : dump_gap(b, flags, depth, 0) < 0)
				return -1;
		}
		return sp_buf_adds(b, "]");
	}
	return dump_leaf(b, v, flags);
}

char *sp_json_dumps(const json_t *v, size_t flags)
{
	struct sp_buf b = SP_BUF_INIT;

	if (!v || dump_value(&b, v, flags, 0) < 0) {
		sp_buf_free(&b);
		return NULL;
	}
	return sp_buf_detach(&b, NULL);
}
