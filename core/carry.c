/* SPDX-License-Identifier: MIT */
/*
 * carry.c - the carry buffer: the one explicit channel between runs.
 *
 * Carry-in is a JSON object whose names become Python globals, so each
 * name must be a Python identifier (Unicode XID rules, as Python has them),
 * not a keyword, and not a dunder name that would replace the program's
 * own machinery (__builtins__). Parsing and printing go through jansson.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <utf8proc.h>

#include "base.h"
#include "result.h"
#include "buf.h"
#include "pykeywords.h"
#include "banned.h"

#define SP_STR_(x) #x
#define SP_STR(x) SP_STR_(x)

static bool id_start(utf8proc_int32_t c)
{
	utf8proc_category_t cat = utf8proc_category(c);

	return c == '_' || cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LL ||
	       cat == UTF8PROC_CATEGORY_LT || cat == UTF8PROC_CATEGORY_LM ||
	       cat == UTF8PROC_CATEGORY_LO || cat == UTF8PROC_CATEGORY_NL;
}

static bool id_continue(utf8proc_int32_t c)
{
	utf8proc_category_t cat = utf8proc_category(c);

	return id_start(c) || cat == UTF8PROC_CATEGORY_MN ||
	       cat == UTF8PROC_CATEGORY_MC || cat == UTF8PROC_CATEGORY_ND ||
	       cat == UTF8PROC_CATEGORY_PC;
}

/* NULL when name is a usable global, else why not. */
const char *sp_carry_name_problem(const char *name)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)name;
	size_t len = strlen(name);
	bool first = true;

	if (len == 0)
		return "is empty";
	if (sp_python_keyword(name, len))
		return "is a Python keyword";
	if (len >= 4 && strncmp(name, "__", 2) == 0 && strcmp(name + len - 2, "__") == 0)
		return "is a reserved __dunder__ name";
	while (*p) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate(p, -1, &c);
		if (n <= 0)
			return "is not valid UTF-8";
		if (first ? !id_start(c) : !id_continue(c))
			return "is not a Python identifier";
		first = false;
		p += n;
	}
	return NULL;
}

/* Levels of arrays and objects in v, counting no further than limit + 1. */
static int depth(const json_t *v, int limit)
{
	int deepest = 0;
	size_t i;
	const char *key;
	json_t *item;

	if (limit < 0)
		return 1;
	if (json_is_array(v)) {
		json_array_foreach(v, i, item) {
			int d = depth(item, limit - 1);
			if (d > deepest)
				deepest = d;
			if (deepest > limit)
				break;
		}
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, item) {
			int d = depth(item, limit - 1);
			if (d > deepest)
				deepest = d;
			if (deepest > limit)
				break;
		}
	} else {
		return 0;
	}
	return deepest + 1;
}

const char *sp_carry_value_problem(const json_t *value)
{
	if (depth(value, SP_CARRY_MAX_DEPTH) > SP_CARRY_MAX_DEPTH)
		return "nests deeper than " SP_STR(SP_CARRY_MAX_DEPTH) " levels of lists and dicts";
	return NULL;
}

int sp_carry_error_at(const char *json, size_t len, int *line, int *column)
{
	json_error_t jerr;
	json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);

	if (root) {
		json_decref(root);
		return -1;
	}
	*line = jerr.line > 0 ? jerr.line : 1;
	*column = jerr.column > 0 ? jerr.column : 1;
	/* jansson points past the token it names ("invalid token near 'lx'"):
	 * step back to the token's first character, where the fix goes */
	const char *near = strstr(jerr.text, "near '");
	const char *end = near ? strrchr(jerr.text, '\'') : NULL;
	if (near && end > near + 6) {
		int chars = 0;
		for (const char *p = near + 6; p < end; p++)
			chars += ((unsigned char)*p & 0xC0) != 0x80;
		if (*column - chars + 1 >= 1)
			*column -= chars - 1;
	}
	return 0;
}

/*
 * What is wrong, in words of our own: jansson's text quotes the token it
 * stopped at, and the file may be one the user can read and the program
 * must not see echoed (run as root, a fragment of a root-only file would
 * reach the terminal and the result). The line and column say where.
 */
static const char *parse_problem(const json_error_t *e)
{
	switch (json_error_code(e)) {
	case json_error_invalid_utf8: return "text that is not UTF-8";
	case json_error_premature_end_of_input: return "it ends before the JSON value does";
	case json_error_end_of_input_expected: return "more text after the JSON value";
	case json_error_null_character: return "a NUL byte";
	case json_error_null_byte_in_key: return "a NUL byte in a name";
	case json_error_duplicate_key: return "a name given twice";
	case json_error_numeric_overflow: return "a number too large";
	case json_error_stack_overflow: return "nesting too deep";
	case json_error_out_of_memory: return "out of memory";
	default: return "a syntax error";
	}
}

/* The key as it may be shown: itself when every character is a visible
 * one (no controls, format or line-separator characters), else a mark. */
static const char *shown_name(const char *key)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)key;
	size_t n = 0;

	while (*p) {
		utf8proc_int32_t c;
		utf8proc_ssize_t len = utf8proc_iterate(p, -1, &c);
		utf8proc_category_t cat;
		if (len <= 0 || ++n > 80 || c == '"')
			return "(a name that cannot be shown)";
		cat = utf8proc_category(c);
		if (cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CF ||
		    cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP ||
		    cat == UTF8PROC_CATEGORY_CS || cat == UTF8PROC_CATEGORY_CO ||
		    cat == UTF8PROC_CATEGORY_CN)
			return "(a name that cannot be shown)";
		p += len;
	}
	return key;
}

int sp_carry_validate(const char *json, size_t len, uint64_t max_bytes,
		      struct sp_error *err)
{
	json_error_t jerr;
	json_t *root;
	const char *key;
	json_t *val;

	if (len > max_bytes)
		return sp_fail(err, "the carry buffer is %s over its limit of %s "
			       "(--carry-max); carry smaller results",
			       SP_BYTES(len - max_bytes), SP_BYTES(max_bytes));
	/* any value parses, so that a lone "text" or 42 is told to be an object */
	root = json_loadb(json, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!root) {
		int line = jerr.line, column = jerr.column;
		sp_carry_error_at(json, len, &line, &column); /* where the fix goes */
		return sp_fail(err, "the carry buffer is not valid JSON: line %d, column %d: %s",
			       line, column, parse_problem(&jerr));
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return sp_fail(err, "the carry buffer must be a JSON object of names to values, "
			       "like {\"total\": 3}");
	}
	json_object_foreach(root, key, val) {
		const char *why = sp_carry_name_problem(key);
		if (why) {
			sp_fail(err, "carry name \"%.80s\" %s; names become Python variables",
				shown_name(key), why);
			json_decref(root);
			return -1;
		}
		why = sp_carry_value_problem(val);
		if (why) {
			sp_fail(err, "the value of carry name \"%.80s\" %s; carry flatter results",
				shown_name(key), why);
			json_decref(root);
			return -1;
		}
	}
	json_decref(root);
	return 0;
}

char *sp_carry_merge(const char *carry_in, const char *carry_out,
		     char ***changed, struct sp_error *err)
{
	json_error_t jerr;
	json_t *in, *out;
	const char *key;
	json_t *val;
	char *text, **names = NULL;
	size_t n = 0;

	if (changed)
		*changed = NULL;
	in = carry_in && *carry_in ? json_loads(carry_in, JSON_REJECT_DUPLICATES, &jerr)
				   : json_object();
	if (!in || !json_is_object(in)) {
		json_decref(in);
		sp_fail(err, "the carry buffer is not a JSON object; fix it before merging");
		return NULL;
	}
	out = carry_out ? json_loads(carry_out, 0, &jerr) : json_object();
	if (!out || !json_is_object(out)) {
		json_decref(in);
		json_decref(out);
		sp_fail(err, "the last run's carry-out is not a JSON object");
		return NULL;
	}
	if (changed)
		names = calloc(json_object_size(out) + 1, sizeof *names);
	json_object_foreach(out, key, val) {
		json_t *old = json_object_get(in, key);
		if (!old || !json_equal(old, val)) {
			if (names)
				names[n++] = strdup(key);
		}
		json_object_set(in, key, val);
	}
	text = sp_json_dumps(in, JSON_INDENT(2));
	json_decref(in);
	json_decref(out);
	if (changed)
		*changed = names;
	if (!text)
		sp_fail(err, "could not write the merged carry buffer");
	return text;
}
