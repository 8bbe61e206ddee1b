/* SPDX-License-Identifier: MIT */
/*
 * test_jsonrpc.c - the MCP server's JSON-RPC framing (tui/service/
 * jsonrpc.c) and its revisions (mcp_revision.c): a text jansson alone
 * refuses but that is JSON is read, with the values it cannot hold as
 * placeholders and said; an id is kept as the client wrote it (2^64, a
 * lone surrogate), read from a cut text or from a line over the bound
 * as it is dropped, and echoed so; a batch goes out when its last
 * answer is in.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "service/jsonrpc.h"
#include "service/mcp_revision.h"
#include "text/linereader.h"

static enum rpc_read read_id(const char *text, struct rpc_in *in, struct rpc_id *id)
{
	enum rpc_read r = rpc_read_text(text, strlen(text), in);

	if (r == RPC_JSON)
		rpc_id_of(in, in->msg, id);
	else
		*id = in->scanned;
	return r;
}

static void test_json_jansson_refuses_is_read_with_its_ids(void **state)
{
	static const struct {
		const char *text;
		enum rpc_read read;
		enum rpc_id_kind kind;
		const char *id;     /* TEXT: as written; HELD: its value's text */
		unsigned lossy;
	} cases[] = {
		{ "{\"id\":5,\"method\":\"ping\"}", RPC_JSON, RPC_ID_HELD, "5", 0 },
		{ "{\"id\":18446744073709551616,\"method\":\"ping\"}", RPC_JSON, RPC_ID_TEXT,
		  "18446744073709551616", RPC_LOSSY_NUMBER },
		{ "{\"id\":-9223372036854775809}", RPC_JSON, RPC_ID_TEXT, "-9223372036854775809",
		  RPC_LOSSY_NUMBER },
		{ "{\"id\":-9223372036854775808}", RPC_JSON, RPC_ID_HELD, "-9223372036854775808", 0 },
		{ "{\"id\":\"a\\ud800\",\"method\":\"x\"}", RPC_JSON, RPC_ID_TEXT, "\"a\\ud800\"",
		  RPC_LOSSY_SURROGATE },
		{ "{\"id\":\"\\ud83d\\ude00\"}", RPC_JSON, RPC_ID_HELD, "\"\xf0\x9f\x98\x80\"", 0 },
		{ "{\"id\":5,\"params\":{\"code\":\"\\udc00\\ud800\"}}", RPC_JSON, RPC_ID_HELD, "5",
		  RPC_LOSSY_SURROGATE },
		{ "{\"id\":5,\"params\":{\"x\":1e400}}", RPC_JSON, RPC_ID_HELD, "5", RPC_LOSSY_NUMBER },
		{ "{\"id\":5,\"params\":{\"a\\u0000\":1}}", RPC_JSON, RPC_ID_HELD, "5", RPC_LOSSY_KEY },
		{ "{\"id\":5,\"params\":{\"s\":\"a\\u0000b\"}}", RPC_JSON, RPC_ID_HELD, "5", 0 },
		/* a client's string that looks like a placeholder is no id of another */
		{ "{\"id\":\"\\u0000#0\",\"x\":\"\\ud800\"}", RPC_JSON, RPC_ID_TEXT,
		  "\"\\u0000#0\"", RPC_LOSSY_SURROGATE },
		{ "{\"id\":1.5}", RPC_JSON, RPC_ID_BAD, NULL, 0 },
		{ "{\"id\":null}", RPC_JSON, RPC_ID_BAD, NULL, 0 },
		{ "{\"id\":[1]}", RPC_JSON, RPC_ID_BAD, NULL, 0 },
		{ "{\"method\":\"x\"}", RPC_JSON, RPC_ID_NONE, NULL, 0 },
		/* no JSON: the id as far as the text shows it whole */
		{ "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"", RPC_NOT_JSON, RPC_ID_TEXT, "7", 0 },
		{ "{\"id\":\"a\\\"}\",\"m\":", RPC_NOT_JSON, RPC_ID_TEXT, "\"a\\\"}\"", 0 },
		{ "{\"p\":{\"id\":3},\"id\":4,", RPC_NOT_JSON, RPC_ID_TEXT, "4", 0 },
		{ "{\"id\":7 x}", RPC_NOT_JSON, RPC_ID_NONE, NULL, 0 },
		{ "{\"id\":07,}", RPC_NOT_JSON, RPC_ID_BAD, NULL, 0 },
		{ "{\"id\":7", RPC_NOT_JSON, RPC_ID_NONE, NULL, 0 },
		{ "not json", RPC_NOT_JSON, RPC_ID_NONE, NULL, 0 },
		{ "[1, 2", RPC_NOT_JSON, RPC_ID_NONE, NULL, 0 },
		{ "{\"id\":18446744073709551616,\"method\":x}", RPC_NOT_JSON, RPC_ID_TEXT,
		  "18446744073709551616", 0 },
	};
	struct rpc_in in;
	struct rpc_id id;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum rpc_read r = read_id(cases[i].text, &in, &id);
		if (r != cases[i].read || id.kind != cases[i].kind || in.lossy != cases[i].lossy)
			fail_msg("%s: read %d kind %d lossy %u", cases[i].text, r, id.kind, in.lossy);
		if (id.kind == RPC_ID_TEXT)
			assert_string_equal(id.text, cases[i].id);
		if (id.kind == RPC_ID_HELD) {
			char *t = json_dumps(id.value, JSON_ENCODE_ANY);
			assert_string_equal(t, cases[i].id);
			free(t);
		}
		rpc_in_free(&in);
	}
}

static void test_values_that_are_not_requests_are_json(void **state)
{
	struct rpc_in in;
	char deep[3001];

	(void)state;
	assert_int_equal(rpc_read_text("42", 2, &in), RPC_JSON);
	assert_true(json_is_integer(in.msg));
	rpc_in_free(&in);
	assert_int_equal(rpc_read_text("\"ping\"", 6, &in), RPC_JSON);
	assert_true(json_is_string(in.msg));
	rpc_in_free(&in);
	memset(deep, '[', sizeof deep - 1);
	deep[sizeof deep - 1] = '\0';
	assert_int_equal(rpc_read_text(deep, strlen(deep), &in), RPC_TOO_DEEP);
	rpc_in_free(&in);
	/* a method with a NUL is no method */
	assert_int_equal(rpc_read_text("{\"method\":\"ping\\u0000x\"}", 24, &in), RPC_JSON);
	assert_null(rpc_string(in.msg, "method"));
	rpc_in_free(&in);
}

static void test_the_scan_reads_an_id_fed_in_pieces(void **state)
{
	const char *text = "{\"method\":\"x\",\"params\":{\"code\":\"}{\\\"id\\\":9\",\"id\":8},"
			   "\"s\":\"\\\\\",\"id\" : \"q\\u00e9\" }";
	struct rpc_idscan s;
	struct rpc_id id;

	(void)state;
	rpc_idscan_init(&s);
	for (size_t i = 0; text[i]; i++)
		rpc_idscan_feed(&s, text + i, 1);
	rpc_idscan_result(&s, &id);
	assert_int_equal(id.kind, RPC_ID_TEXT);
	assert_string_equal(id.text, "\"q\\u00e9\"");
	/* an id too long to echo is none */
	{
		char *big = malloc(RPC_ID_MAX + 40);
		int n = snprintf(big, 20, "{\"id\":\"");
		memset(big + n, 'x', RPC_ID_MAX);
		strcpy(big + n + RPC_ID_MAX, "\",\"m\":1}");
		rpc_idscan_init(&s);
		rpc_idscan_feed(&s, big, strlen(big));
		rpc_idscan_result(&s, &id);
		assert_int_not_equal(id.kind, RPC_ID_TEXT);
		free(big);
	}
}

static void test_an_error_echoes_the_id_as_written(void **state)
{
	struct rpc_id id = { RPC_ID_TEXT, NULL, "18446744073709551616" };
	char *t;

	(void)state;
	t = rpc_error_text(&id, -32600, json_string("no"));
	assert_string_equal(t, "{\"id\":18446744073709551616,\"jsonrpc\":\"2.0\",\"error\":"
			       "{\"code\":-32600,\"message\":\"no\"}}");
	free(t);
	id.kind = RPC_ID_HELD;
	id.value = json_string("a");
	t = rpc_error_text(&id, -32601, json_string("no"));
	assert_non_null(strstr(t, "\"id\":\"a\""));
	free(t);
	json_decref(id.value);
	t = rpc_error_text(NULL, -32700, json_string("no"));
	assert_null(strstr(t, "\"id\""));
	free(t);
}

static void test_a_batch_goes_out_with_its_last_answer(void **state)
{
	struct rpc_batch *b = rpc_batch_new();
	char *t;

	(void)state;
	rpc_batch_hold(b);                  /* a run of the batch */
	assert_int_equal(rpc_batch_add(b, "{\"a\":1}"), 0);
	assert_null(rpc_batch_release(b)); /* the reader is done; the run is not */
	assert_int_equal(rpc_batch_add(b, "{\"b\":2}"), 0);
	t = rpc_batch_release(b);
	assert_string_equal(t, "[{\"a\":1},{\"b\":2}]");
	free(t);
	assert_null(rpc_batch_release(rpc_batch_new())); /* notifications only: nothing */
}

static struct rpc_idscan dropped_scan;
static char dropped_ids[200];

static void drop(void *ctx, const char *bytes, size_t n)
{
	(void)ctx;
	rpc_idscan_feed(&dropped_scan, bytes, n);
}

static void each(void *ctx, size_t line_no, const char *line, size_t len)
{
	struct rpc_id id;
	size_t at = strlen(dropped_ids);

	(void)ctx;
	(void)len;
	rpc_idscan_result(&dropped_scan, &id);
	rpc_idscan_init(&dropped_scan);
	snprintf(dropped_ids + at, sizeof dropped_ids - at, "%zu:%s|", line_no,
		 line ? line : id.kind == RPC_ID_TEXT ? id.text : "none");
}

static void test_a_line_over_the_bound_shows_its_id_as_dropped(void **state)
{
	int p[2];
	size_t big = 300000;
	char *line = malloc(big + 100);
	int n;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(p), 0);
	n = snprintf(line, 100, "{\"method\":\"m\",\"params\":{\"code\":\"");
	memset(line + n, 'x', big);
	strcpy(line + n + big, "\"},\"id\":77}\nshort\n");
	if ((pid = fork()) == 0) {
		close(p[0]);
		(void)!write(p[1], line, strlen(line));
		(void)!write(p[1], "{\"id\":\"z\",\"p\":\"", 15);
		for (int i = 0; i < 100; i++)
			(void)!write(p[1], line + n, 10000); /* cut by EOF */
		_exit(0);
	}
	close(p[1]);
	rpc_idscan_init(&dropped_scan);
	line_read_each_dropping(p[0], 1000, NULL, each, drop, NULL);
	assert_string_equal(dropped_ids, "1:77|2:short|3:\"z\"|");
	close(p[0]);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	free(line);
}

static void test_each_revision_has_what_its_schema_has(void **state)
{
	(void)state;
	assert_int_equal(mcp_rev_negotiate("2024-11-05"), MCP_REV_2024_11_05);
	assert_int_equal(mcp_rev_negotiate("2099-01-01"), MCP_REV_LATEST);
	assert_int_equal(mcp_rev_negotiate(NULL), MCP_REV_LATEST);
	assert_true(mcp_rev_has(MCP_REV_2025_03_26, MCP_BATCHES));
	assert_false(mcp_rev_has(MCP_REV_2024_11_05, MCP_BATCHES));
	assert_false(mcp_rev_has(MCP_REV_2025_06_18, MCP_BATCHES));
	assert_false(mcp_rev_has(MCP_REV_NONE, MCP_BATCHES));
	assert_false(mcp_rev_has(MCP_REV_2025_06_18, MCP_ERROR_WITHOUT_ID));
	assert_true(mcp_rev_has(MCP_REV_2025_11_25, MCP_ERROR_WITHOUT_ID));
	assert_false(mcp_rev_has(MCP_REV_2024_11_05, MCP_TOOL_ANNOTATIONS));
	assert_false(mcp_rev_has(MCP_REV_2025_03_26, MCP_RICH_RESULTS));
	assert_true(mcp_rev_has(MCP_REV_2025_06_18, MCP_RICH_RESULTS));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_jansson_refuses_is_read_with_its_ids),
		cmocka_unit_test(test_values_that_are_not_requests_are_json),
		cmocka_unit_test(test_the_scan_reads_an_id_fed_in_pieces),
		cmocka_unit_test(test_an_error_echoes_the_id_as_written),
		cmocka_unit_test(test_a_batch_goes_out_with_its_last_answer),
		cmocka_unit_test(test_a_line_over_the_bound_shows_its_id_as_dropped),
		cmocka_unit_test(test_each_revision_has_what_its_schema_has),
	};
	return cmocka_run_group_tests_name("jsonrpc", tests, NULL, NULL);
}
