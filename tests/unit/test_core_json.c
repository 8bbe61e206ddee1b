/* SPDX-License-Identifier: MIT */
/*
 * test_core_json.c - the contract's JSON result from sp_result_to_json:
 * always valid JSON, every byte of output back exactly (invalid bytes as
 * lone surrogates, read here with json_se.h), nulls where the contract
 * has them.
 */
#include "testlib.h"
#include "json_se.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "sandpit.h"

static json_t *to_json(const struct sp_result *r)
{
	char *text = sp_result_to_json(r);
	json_error_t e;
	json_t *j;

	assert_non_null(text);
	j = se_loads(text, &e);
	if (!j)
		fail_msg("invalid JSON (%s): %s", e.text, text);
	free(text);
	assert_true(json_is_object(j));
	return j;
}

static const char *str(json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));
	assert_non_null(s);
	return s;
}

/* The bytes a string of the result holds, compared with want. */
static void assert_bytes(json_t *o, const char *k, const char *want, size_t want_len)
{
	json_t *v = json_object_get(o, k);
	size_t n = 0;
	char *got;

	assert_non_null(json_string_value(v));
	got = se_bytes(json_string_value(v), json_string_length(v), &n);
	assert_int_equal(n, want_len);
	assert_memory_equal(got, want, want_len);
	free(got);
}

static void test_output_bytes_come_back_exactly(void **state)
{
	struct sp_result r;
	char *text;
	static char out[] = "A\xff" "B\x00" "C\xc3\x28" "D\xe2\x82" "E \xc3\xa9\xf0\x9f\x98\x80 \"q\" \\ \n\t\x1b[0m";
	static char err[] = "\xed\xa0\x80|\xf4\x90\x80\x80|\xc0\xaf|\xfe";
	json_t *j;

	(void)state;
	memset(&r, 0, sizeof r);
	r.status = SP_STATUS_OK;
	r.out = out;
	r.out_len = sizeof out - 1;
	r.err = err;
	r.err_len = sizeof err - 1;
	text = sp_result_to_json(&r);
	assert_non_null(text);
	assert_non_null(strstr(text, "\"A\\udcffB\\u0000C\\udcc3(D\\udce2\\udc82E \xc3\xa9"));
	/* surrogates, code points past U+10FFFF and overlong forms are not UTF-8 */
	assert_non_null(strstr(text, "\"\\udced\\udca0\\udc80|\\udcf4\\udc90\\udc80\\udc80|\\udcc0\\udcaf|\\udcfe\""));
	free(text);
	j = to_json(&r);
	assert_bytes(j, "stdout", out, sizeof out - 1);
	assert_bytes(j, "stderr", err, sizeof err - 1);
	/* not UTF-8, so there as base64 too */
	assert_string_equal(str(j, "stderr_base64"), "7aCAfPSQgIB8wK98/g==");
	json_decref(j);
}

/* Text that looks like the placeholder json_bytes.c uses is output like
 * any other, next to invalid bytes. */
static void test_placeholder_lookalikes_are_plain_output(void **state)
{
	struct sp_result r;
	static char out[] = "\"sp-bytes:0000000000000000:0\" sp-bytes: \xff";
	static char err[] = "\xfe\"sp-bytes:";
	json_t *j;

	(void)state;
	memset(&r, 0, sizeof r);
	r.out = out;
	r.out_len = sizeof out - 1;
	r.err = err;
	r.err_len = sizeof err - 1;
	j = to_json(&r);
	assert_bytes(j, "stdout", out, sizeof out - 1);
	assert_bytes(j, "stderr", err, sizeof err - 1);
	json_decref(j);
}

/*
 * Each byte can grow to a six-character escape. A run of NULs once wrote
 * past the end of the escape buffer (the room check counted one byte for a
 * NUL); every run length up to well past 256 is tried, so ASan builds
 * catch any overrun, and the bytes must come back exactly.
 */
static void test_runs_of_nul_and_bad_bytes_fit_the_buffer(void **state)
{
	static const char pieces[][4] = { "\0", "\xff", "\xc3\xa9", "a", "\"", "\x01" };

	(void)state;
	for (size_t kind = 0; kind < sizeof pieces / sizeof pieces[0]; kind++) {
		for (size_t count = 0; count <= 300; count++) {
			size_t plen = kind == 2 ? 2 : 1;
			char *in = malloc(count * plen + 1);
			struct sp_result r;
			json_t *j;

			assert_non_null(in);
			for (size_t i = 0; i < count; i++)
				memcpy(in + i * plen, pieces[kind], plen);
			memset(&r, 0, sizeof r);
			r.out = in;
			r.out_len = count * plen;
			j = to_json(&r);
			assert_bytes(j, "stdout", in, count * plen);
			json_decref(j);
			free(in);
		}
	}
}

static void test_nulls_and_types_follow_the_contract(void **state)
{
	struct sp_result r;
	json_t *j, *u, *l;

	(void)state;
	memset(&r, 0, sizeof r);
	r.status = SP_STATUS_WALL_LIMIT;
	r.exit_code = -1;
	r.signal = 9;
	r.truncated = true;
	r.usage.cpu_ms = 12;
	r.usage.wall_ms = 1000;
	r.usage.peak_memory_bytes = 5u << 20;
	r.limits.memory_bytes = 512ull << 20;
	r.limits.procs = 64;
	j = to_json(&r);
	assert_string_equal(str(j, "status"), "wall_limit");
	assert_true(json_is_null(json_object_get(j, "exit_code")));
	assert_int_equal(json_integer_value(json_object_get(j, "signal")), 9);
	assert_true(json_is_true(json_object_get(j, "truncated")));
	assert_string_equal(str(j, "stdout"), "");
	assert_true(json_is_null(json_object_get(j, "carry_out")));
	assert_true(json_is_array(json_object_get(j, "violations")));
	assert_true(json_is_array(json_object_get(j, "files")));
	assert_true(json_is_object(json_object_get(j, "layers")));
	u = json_object_get(j, "usage");
	l = json_object_get(j, "limits");
	assert_int_equal(json_integer_value(json_object_get(u, "wall_ms")), 1000);
	assert_int_equal(json_integer_value(json_object_get(u, "peak_memory_bytes")), 5 << 20);
	assert_int_equal(json_integer_value(json_object_get(l, "memory_bytes")), 512ll << 20);
	assert_int_equal(json_integer_value(json_object_get(l, "procs")), 64);
	json_decref(j);

	memset(&r, 0, sizeof r);
	r.status = SP_STATUS_OK;
	r.exit_code = 0;
	j = to_json(&r);
	assert_int_equal(json_integer_value(json_object_get(j, "exit_code")), 0);
	assert_true(json_is_null(json_object_get(j, "signal")));
	json_decref(j);
}

static void test_violations_files_carry_and_layers(void **state)
{
	struct sp_result r;
	struct sp_violation v[2];
	struct sp_file f[1];
	struct sp_layer ly[2];
	json_t *j, *jv, *lay;

	(void)state;
	memset(&r, 0, sizeof r);
	memset(v, 0, sizeof v);
	memset(f, 0, sizeof f);  /* kept, skipped: NULL */
	v[0].kind = SP_VIOL_FILESYSTEM;
	v[0].what = (char *)"open('/etc/\"shadow\"\n\xff', O_RDONLY)";
	v[0].message = (char *)"plain words";
	v[0].from_kernel = false;
	v[0].line = 3;
	v[0].count = 2;
	v[1].kind = SP_VIOL_CARRY;
	v[1].what = (char *)"x";
	v[1].message = (char *)"m";
	v[1].from_kernel = true;
	v[1].line = 0;
	v[1].count = 100000;
	r.violations = v;
	r.n_violations = 2;
	f[0].path = (char *)"sub/na\xffme.txt";
	f[0].bytes = 42;
	r.files = f;
	r.n_files = 1;
	r.carry_out = (char *)"{\"caf\xc3\xa9\": [1, \"\\u00e9\"]}";
	memset(ly, 0, sizeof ly);
	ly[0].name = "seccomp";
	ly[0].active = true;
	snprintf(ly[0].detail, sizeof ly[0].detail, "notify");
	ly[1].name = "landlock";
	ly[1].active = false;
	r.layers = ly;
	r.n_layers = 2;
	j = to_json(&r);

	jv = json_array_get(json_object_get(j, "violations"), 0);
	assert_string_equal(str(jv, "kind"), "filesystem");
	assert_bytes(jv, "what", "open('/etc/\"shadow\"\n\xff', O_RDONLY)", strlen(v[0].what));
	assert_string_equal(str(jv, "source"), "runtime");
	assert_int_equal(json_integer_value(json_object_get(jv, "line")), 3);
	assert_int_equal(json_integer_value(json_object_get(jv, "count")), 2);
	jv = json_array_get(json_object_get(j, "violations"), 1);
	assert_string_equal(str(jv, "kind"), "carry");
	assert_string_equal(str(jv, "source"), "kernel");
	assert_true(json_is_null(json_object_get(jv, "line")));
	assert_int_equal(json_integer_value(json_object_get(jv, "count")), 100000);

	jv = json_array_get(json_object_get(j, "files"), 0);
	assert_bytes(jv, "path", f[0].path, strlen(f[0].path));
	assert_int_equal(json_integer_value(json_object_get(jv, "bytes")), 42);

	assert_string_equal(json_string_value(json_array_get(json_object_get(
		json_object_get(j, "carry_out"), "caf\xc3\xa9"), 1)), "\xc3\xa9");
	lay = json_object_get(j, "layers");
	assert_string_equal(str(lay, "seccomp"), "notify");
	assert_true(json_is_false(json_object_get(lay, "landlock")));
	json_decref(j);
}

static void test_status_and_kind_names(void **state)
{
	(void)state;
	assert_string_equal(sp_status_name(SP_STATUS_OK), "ok");
	assert_string_equal(sp_status_name(SP_STATUS_ERROR), "error");
	assert_string_equal(sp_status_name(SP_STATUS_CPU_LIMIT), "cpu_limit");
	assert_string_equal(sp_status_name(SP_STATUS_WALL_LIMIT), "wall_limit");
	assert_string_equal(sp_status_name(SP_STATUS_MEMORY_LIMIT), "memory_limit");
	assert_string_equal(sp_status_name(SP_STATUS_OUTPUT_LIMIT), "output_limit");
	assert_string_equal(sp_status_name(SP_STATUS_KILLED), "killed");
	assert_string_equal(sp_status_name(SP_STATUS_SANDBOX_ERROR), "sandbox_error");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_NETWORK), "network");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_FILESYSTEM), "filesystem");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_PROCESS), "process");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_SYSCALL), "syscall");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_CPU), "cpu");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_WALL), "wall");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_MEMORY), "memory");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_OUTPUT), "output");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_DISK), "disk");
	assert_string_equal(sp_violation_kind_name(SP_VIOL_CARRY), "carry");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_output_bytes_come_back_exactly),
		cmocka_unit_test(test_placeholder_lookalikes_are_plain_output),
		cmocka_unit_test(test_runs_of_nul_and_bad_bytes_fit_the_buffer),
		cmocka_unit_test(test_nulls_and_types_follow_the_contract),
		cmocka_unit_test(test_violations_files_carry_and_layers),
		cmocka_unit_test(test_status_and_kind_names),
	};

	return cmocka_run_group_tests_name("unit/core_json", tests, NULL, NULL);
}
