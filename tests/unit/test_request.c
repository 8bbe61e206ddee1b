/* SPDX-License-Identifier: MIT */
/*
 * test_request.c - the services' parts that need no sandbox: base64 both
 * ways (strict about what it refuses), bounded lines (a line over the
 * bound is dropped whole, the next one read; the services' read loop
 * numbers every line and skips blank ones), the prepared sandboxes'
 * preload list, and a JSON run request
 * checked (tui/service/request.c): a name with '/' or '..' never reaches the
 * host, a limit over the maximum is lowered and said, the temp dir of
 * the files is gone after request_free, whatever failed.
 */
#include "testlib.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text/base64.h"
#include "text/linereader.h"
#include "service/request.h"
#include "text/json_values.h"

static void test_base64_round_trips_and_refuses_what_is_not(void **state)
{
	const char *cases[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	const char *enc[] = { "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	size_t n, bad;

	(void)state;
	for (size_t i = 0; i < 7; i++) {
		char *e = base64_encode(cases[i], strlen(cases[i]));
		unsigned char *d = base64_decode(enc[i], strlen(enc[i]), &n, &bad);
		assert_string_equal(e, enc[i]);
		assert_non_null(d);
		assert_int_equal(n, strlen(cases[i]));
		assert_memory_equal(d, cases[i], n);
		free(e);
		free(d);
	}
	assert_null(base64_decode("Zm9v@", 5, &n, &bad));
	assert_int_equal(bad, 4);
	assert_null(base64_decode("Z", 1, &n, &bad));       /* a lone digit */
	assert_null(base64_decode("Zg==Zg==", 8, &n, &bad)); /* data after padding */
	unsigned char *d = base64_decode("Zm9v\nYmFy", 9, &n, &bad); /* line breaks skipped */
	assert_non_null(d);
	assert_int_equal(n, 6);
	free(d);
}

static void test_a_line_over_the_bound_is_dropped_and_the_next_read(void **state)
{
	int p[2];
	struct line_reader lr;
	char *line, big[5000];
	size_t len;

	(void)state;
	assert_int_equal(pipe(p), 0);
	memset(big, 'x', sizeof big);
	assert_int_equal(write(p[1], "one\r\n", 5), 5);
	assert_int_equal(write(p[1], big, sizeof big), (ssize_t)sizeof big);
	assert_int_equal(write(p[1], "\ntwo\nlast", 9), 9);
	close(p[1]);
	line_reader_init(&lr, p[0], 1000);
	assert_int_equal(line_read(&lr, &line, &len), LINE_OK);
	assert_string_equal(line, "one");
	assert_int_equal(line_read(&lr, &line, &len), LINE_TOO_LONG);
	assert_int_equal(line_read(&lr, &line, &len), LINE_OK);
	assert_string_equal(line, "two");
	assert_int_equal(line_read(&lr, &line, &len), LINE_OK); /* no newline at the end */
	assert_string_equal(line, "last");
	assert_int_equal(line_read(&lr, &line, &len), LINE_EOF);
	line_reader_free(&lr);
	close(p[0]);
}

/* what line_read_each handed on: "N:text" or "N:too long", joined */
static void record_line(void *ctx, size_t line_no, const char *line, size_t len)
{
	char *seen = ctx;
	size_t n = strlen(seen);

	snprintf(seen + n, 512 - n, "%zu:%.*s|", line_no, line ? (int)len : 8,
		 line ? line : "too long");
}

static void test_the_read_loop_numbers_lines_and_skips_blank_ones(void **state)
{
	int p[2];
	char big[3000], seen[512] = "";

	(void)state;
	assert_int_equal(pipe(p), 0);
	memset(big, 'x', sizeof big);
	assert_int_equal(write(p[1], "{\"a\": 1}\n\n \t\n", 13), 13);
	assert_int_equal(write(p[1], big, sizeof big), (ssize_t)sizeof big);
	assert_int_equal(write(p[1], "\n  b \nlast", 11), 11);
	close(p[1]);
	line_read_each(p[0], 1000, NULL, record_line, seen);
	/* lines 2 and 3 are blank: counted, never handed on */
	assert_string_equal(seen, "1:{\"a\": 1}|4:too long|5:  b |6:last|");
	close(p[0]);
}

static void test_the_preload_list_splits_on_commas_and_spaces(void **state)
{
	struct request_policy pol;
	struct sp_prepare prep;
	const char *names[SP_MAX_PRELOAD];
	char list[1024] = "numpy, pandas,,matplotlib  scipy";

	(void)state;
	request_policy_init(&pol);
	pol.python = "/usr/bin/python3";
	pol.dflt.cpu_ms = 1234;
	request_prepare(&pol, list, names, &prep);
	assert_string_equal(prep.python, "/usr/bin/python3");
	assert_int_equal(prep.limits.cpu_ms, 1234);
	assert_ptr_equal(prep.preload, names);
	assert_int_equal(prep.n_preload, 4);
	assert_string_equal(names[0], "numpy");
	assert_string_equal(names[1], "pandas");
	assert_string_equal(names[2], "matplotlib");
	assert_string_equal(names[3], "scipy");
	request_prepare(&pol, NULL, names, &prep);
	assert_int_equal(prep.n_preload, 0);
	/* no more than the engine takes: the rest is left out */
	for (size_t i = 0; i < SP_MAX_PRELOAD + 3; i++)
		memcpy(list + 2 * i, "m,", 3);
	request_prepare(&pol, list, names, &prep);
	assert_int_equal(prep.n_preload, SP_MAX_PRELOAD);
}

static size_t entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static int parse(const char *text, struct request_policy *pol, struct request *rq,
		 char *err, size_t len)
{
	json_t *j = json_loads(text, 0, NULL);
	int rc;

	assert_non_null(j);
	rc = request_parse(j, pol, rq, err, len);
	json_decref(j);
	return rc;
}

static void test_a_request_is_checked_and_writes_no_file(void **state)
{
	char tmp[] = "/tmp/sandpit-request-XXXXXX", err[600];
	struct request_policy pol;
	struct request rq;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	request_policy_init(&pol);
	pol.max.cpu_ms = 2000;

	assert_int_equal(parse("{\"code\": \"print(1)\", \"files\": [{\"name\": \"a.txt\", "
			       "\"text\": \"hi\"}, {\"name\": \"b\", \"base64\": \"AAE=\"}], "
			       "\"limits\": {\"cpu\": 9, \"memory\": \"64M\"}}", &pol, &rq, err,
			       sizeof err), 0);
	assert_int_equal(rq.n_files, 2);
	assert_string_equal(rq.files[0].name, "a.txt");
	assert_memory_equal(rq.files[0].data, "hi", 2);          /* held in memory */
	assert_int_equal(rq.files[1].len, 2);
	assert_int_equal(rq.bytes, strlen("print(1)") + 4);
	assert_int_equal(rq.limits.cpu_ms, 2000);                /* lowered */
	assert_int_equal(rq.limits.memory_bytes, 64u << 20);
	assert_non_null(strstr(rq.clamped, "cpu"));
	assert_int_equal(entries(tmp), 0);       /* nothing written while it is held */
	request_free(&rq);
	assert_int_equal(entries(tmp), 0);

	const char *bad[][2] = {
		{ "{\"files\": []}", "code: missing" },
		{ "{\"code\": 1}", "code: give" },
		{ "{\"code\": \"1\", \"files\": [{\"name\": \"../x\", \"text\": \"\"}]}", "plain file name" },
		{ "{\"code\": \"1\", \"files\": [{\"name\": \"a/b\", \"text\": \"\"}]}", "plain file name" },
		{ "{\"code\": \"1\", \"files\": [{\"name\": \"a\", \"text\": \"x\"}, "
		  "{\"name\": \"b\", \"base64\": \"!!\"}]}", "not base64" },
		{ "{\"code\": \"1\", \"files\": [{\"name\": \"a\", \"path\": \"/etc/passwd\"}]}",
		  "reads no host files" },
		{ "{\"code\": \"1\", \"limits\": {\"cpu\": \"soon\"}}", "limits.cpu" },
		{ "{\"code\": \"1\", \"limits\": {\"speed\": 1}}", "no such limit" },
		{ "{\"code\": \"1\", \"carry\": {\"not a name\": 1}}", "carry:" },
		{ "{\"code\": \"1\", \"extra\": 1}", "unknown argument" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		assert_int_equal(parse(bad[i][0], &pol, &rq, err, sizeof err), -1);
		if (!strstr(err, bad[i][1]))
			fail_msg("%s: got '%s'", bad[i][0], err);
		request_free(&rq); /* safe after a failure too */
		assert_int_equal(entries(tmp), 0);
	}
	rmdir(tmp);
	unsetenv("TMPDIR");
}

static void test_a_message_values_are_counted_before_parsing(void **state)
{
	const char *t = "{\"a\": [1, 2, {\"b\": \"x,y:[{\\\"\"}]}";

	(void)state;
	/* {, "a", [, 1, 2, {, "b", the string: what is inside it (, : [ { and
	 * an escaped quote) does not count */
	assert_int_equal(json_values_count(t, strlen(t), 100), 8);
	assert_int_equal(json_values_count("1", 1, 100), 1);
	assert_int_equal(json_values_count("[1,1,1,1,1]", 11, 3), 4); /* stops past 3 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_base64_round_trips_and_refuses_what_is_not),
		cmocka_unit_test(test_a_line_over_the_bound_is_dropped_and_the_next_read),
		cmocka_unit_test(test_a_request_is_checked_and_writes_no_file),
		cmocka_unit_test(test_a_message_values_are_counted_before_parsing),
		cmocka_unit_test(test_the_read_loop_numbers_lines_and_skips_blank_ones),
		cmocka_unit_test(test_the_preload_list_splits_on_commas_and_spaces),
	};
	return cmocka_run_group_tests_name("request", tests, NULL, NULL);
}
