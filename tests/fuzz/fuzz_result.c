/* fuzz-sources: core/json.c core/limits.c core/violations.c core/hints.c core/units.c */
/*
 * fuzz_result.c - a program's output through the JSON result.
 *
 * stdout and stderr are whatever bytes the program wrote, so they are the
 * most hostile input sandpit handles. The first input byte picks where the
 * rest splits into stdout and stderr; a violation's text and a file's path
 * get the same bytes up to their first NUL, and so do the error and the
 * carry-out text (which must be JSON to be kept). Whatever they hold, the result
 * must be one valid JSON object whose stdout and stderr:
 *  - are there (escaping never fails a result);
 *  - hold every byte: at least as long as what was written, at most four
 *    times (each byte becomes at most the text \xNN);
 *  - are the very bytes written when those were printable ASCII.
 * ASan and UBSan catch any overrun of the escape buffer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "sandpit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool printable_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return true;
}

static void check_stream(json_t *j, const char *key, const char *raw, size_t raw_len)
{
	json_t *v = json_object_get(j, key);
	const char *got = json_string_value(v);
	size_t got_len = json_string_length(v);

	if (!got) {
		fprintf(stderr, "%s missing from the result\n", key);
		abort();
	}
	if (got_len < raw_len || got_len > raw_len * 4) {
		fprintf(stderr, "%s: %zu bytes written, %zu in the result\n", key, raw_len, got_len);
		abort();
	}
	if (printable_ascii(raw, raw_len) && (got_len != raw_len || memcmp(got, raw, raw_len))) {
		fprintf(stderr, "%s: printable ASCII changed on the way\n", key);
		abort();
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
	j = json_loads(json, 0, &e);
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
