/* SPDX-License-Identifier: MIT */
/* fuzz-sources: core/json.c core/json_bytes.c core/json_dump.c core/last_value.c core/limits.c core/violations.c core/hints.c core/units.c core/samples.c core/variables.c core/carry.c core/pykeywords.c core/util.c core/buf.c */
/*
 * fuzz_result.c - a program's output through the JSON result.
 *
 * stdout and stderr are whatever bytes the program wrote, so they are the
 * most hostile input sandpit handles. The first input byte picks where the
 * rest splits into stdout and stderr; a violation's text and a file's path
 * get the same bytes up to their first NUL, and so do the error and the
 * carry-out text (which must be JSON to be kept). Whatever they hold, the result
 * must be one valid JSON object (lone surrogates and all) whose stdout and
 * stderr:
 *  - are there (escaping never fails a result);
 *  - give back exactly the bytes written, read the way the contract says
 *    (each lone surrogate U+DC80+b is the byte b; json_se.h);
 *  - come with a base64 copy of exactly those bytes when, and only when,
 *    they are not valid UTF-8.
 * ASan and UBSan catch any overrun of the escape buffer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "sandpit.h"
#include "../json_se.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* U+10FC80..U+10FCFF in raw: json_se.h reads those as bytes too */
static bool has_se_lookalike(const char *s, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if ((unsigned char)s[i] == 0xf4 && (unsigned char)s[i + 1] == 0x8f &&
		    ((unsigned char)s[i + 2] == 0xb2 || (unsigned char)s[i + 2] == 0xb3))
			return true;
	return false;
}

static bool utf8_valid(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);
	bool ok = j != NULL;

	json_decref(j);
	return ok;
}

static int b64(char c)
{
	const char *d = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(d, c) : NULL;
	return p ? (int)(p - d) : -1;
}

static void check_stream(json_t *j, const char *key, const char *raw, size_t raw_len)
{
	char bkey[32];
	json_t *v = json_object_get(j, key), *b;
	const char *got = json_string_value(v);
	size_t got_len = 0;
	char *bytes;

	if (!got) {
		fprintf(stderr, "%s missing from the result\n", key);
		abort();
	}
	bytes = se_bytes(got, json_string_length(v), &got_len);
	if (!bytes)
		abort();
	if (!has_se_lookalike(raw, raw_len) && (got_len != raw_len || memcmp(bytes, raw, raw_len))) {
		fprintf(stderr, "%s: the bytes read back differ from those written\n", key);
		abort();
	}
	free(bytes);
	snprintf(bkey, sizeof bkey, "%s_base64", key);
	b = json_object_get(j, bkey);
	if ((b != NULL) == utf8_valid(raw, raw_len)) {
		fprintf(stderr, "%s: base64 %s for %s UTF-8\n", bkey, b ? "given" : "missing",
			b ? "valid" : "invalid");
		abort();
	}
	if (b) {
		const char *t = json_string_value(b);
		size_t tl = t ? strlen(t) : 1, o = 0;
		if (tl % 4) {
			fprintf(stderr, "%s: not base64\n", bkey);
			abort();
		}
		for (size_t i = 0; i < tl; i += 4) {
			int q[4];
			for (int k = 0; k < 4; k++)
				q[k] = t[i + k] == '=' ? 0 : b64(t[i + k]);
			if (q[0] < 0 || q[1] < 0 || q[2] < 0 || q[3] < 0)
				abort();
			unsigned char out[3] = { (unsigned char)(q[0] << 2 | q[1] >> 4),
						 (unsigned char)(q[1] << 4 | q[2] >> 2),
						 (unsigned char)(q[2] << 6 | q[3]) };
			int n = t[i + 2] == '=' ? 1 : t[i + 3] == '=' ? 2 : 3;
			for (int k = 0; k < n; k++, o++)
				if (o >= raw_len || out[k] != (unsigned char)raw[o]) {
					fprintf(stderr, "%s: differs from the bytes written\n", bkey);
					abort();
				}
		}
		if (o != raw_len) {
			fprintf(stderr, "%s: %zu bytes, %zu written\n", bkey, o, raw_len);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sp_violation v;
	struct sp_file f;
	struct sp_result r;
	size_t split;
	char *bytes, *text, *json;
	json_error_t e;
	json_t *j;

	if (size < 1)
		return 0;
	split = (size_t)data[0] * (size - 1) / 255;
	bytes = malloc(size);
	text = malloc(size);
	if (!bytes || !text) {
		free(bytes);
		free(text);
		return 0;
	}
	/* exact-size copies, so ASan sees any read past the end */
	memcpy(bytes, data + 1, size - 1);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';

	memset(&r, 0, sizeof r);
	memset(&v, 0, sizeof v);
	memset(&f, 0, sizeof f);
	r.status = SP_STATUS_SANDBOX_ERROR;
	r.exit_code = -1;
	r.out = bytes;
	r.out_len = split;
	r.err = bytes + split;
	r.err_len = size - 1 - split;
	v.kind = SP_VIOL_FILESYSTEM;
	v.what = text;
	v.message = text;
	r.violations = &v;
	r.n_violations = 1;
	f.path = text;
	r.files = &f;
	r.n_files = 1;
	r.carry_out = text;
	snprintf(r.error, sizeof r.error, "%s", text);

	json = sp_result_to_json(&r);
	if (!json) {
		fprintf(stderr, "no JSON for a result\n");
		abort();
	}
	j = se_loads(json, &e);
	if (!j || !json_is_object(j)) {
		fprintf(stderr, "invalid JSON (%s): %s\n", e.text, json);
		abort();
	}
	check_stream(j, "stdout", r.out, r.out_len);
	check_stream(j, "stderr", r.err, r.err_len);
	json_decref(j);
	free(json);
	free(text);
	free(bytes);
	return 0;
}
