/* SPDX-License-Identifier: MIT */
/*
 * test_hints.c - Python errors that the sandbox's rules cause come with an
 * explanation (issue 12): headless, as --json "hints" and after the
 * traceback of a plain `sandpit run`. Each program below ends on one such
 * error from a known line; its hint must name the exception, the line,
 * and say the constraint and the way around it. A program that forges
 * hint reports gets no more than the fixed texts, bounded and cleaned.
 */
#include "itest.h"

struct expect {
	const char *what;      /* test name */
	const char *code;
	const char *about;     /* the hint's exception name */
	int line;
	const char *says[3];   /* substrings of the message */
};

static const struct expect cases[] = {
	{ "module", "import math\nimport sandpit_absent_module\n", "ModuleNotFoundError", 2,
	  { "'sandpit_absent_module'", "no network", "apt install python3-NAME" } },
	{ "unicode", "import caf\xc3\xa9_lib\n", "ModuleNotFoundError", 1,
	  { "'caf\xc3\xa9_lib'", NULL, NULL } },
	{ "file", "import csv\nrows = list(csv.reader(open('results.csv')))\n",
	  "FileNotFoundError", 2, { "'results.csv'", "stateless", "carry" } },
	{ "input", "name = input('name? ')\n", "EOFError", 1,
	  { "nobody types", "--stdin", "Stdin tab (F12" } },
	{ "memory", "x = 1\nblock = bytearray(1 << 40)\n", "MemoryError", 2,
	  { "512 MiB", "constraint 5", "chunks" } },
	{ "recursion", "def f(n):\n    return f(n + 1)\nf(0)\n", "RecursionError", 2,
	  { "Python's own limit", "base case", "loop" } },
	{ "readonly", "open('/usr/out.txt', 'w')\n", "OSError", 1,
	  { "'/usr/out.txt'", "read-only", "/work" } },
	{ "dns", "import socket\nsocket.gethostbyname('example.com')\n",
	  "socket.gaierror", 2, { "network", "carry buffer", NULL } },
	{ "socket", "import socket\ns = socket.socket()\n", "PermissionError", 2,
	  { "network", "constraint 1", NULL } },
	{ "urlopen", "import urllib.request\nurllib.request.urlopen('http://example.com/')\n",
	  "urllib.error.URLError", 2, { "network", NULL, NULL } },
};

/* The one hint of a --json result, checked against e. */
static void check_json(const struct expect *e, struct it_cli *c)
{
	json_t *hs = json_object_get(c->json, "hints"), *h = json_array_get(hs, 0);

	IT_CLI_CHECK(c, json_array_size(hs) == 1);
	IT_CLI_CHECK(c, strcmp(it_jstr(h, "about"), e->about) == 0);
	IT_CLI_CHECK(c, json_integer_value(json_object_get(h, "line")) == e->line);
	for (int i = 0; i < 3 && e->says[i]; i++)
		IT_CLI_CHECK(c, it_contains(it_jstr(h, "message"), e->says[i]));
}

static void test_each_explained_error_has_its_hint(void **state)
{
	char *dir = it_tmpdir();

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct expect *e = &cases[i];
		char *name = it_name(e->what);
		char *path = it_write(dir, name, e->code, strlen(e->code));
		struct it_cli c;
		char *head;

		it_cli(&c, true, (const char *[]){ "run", "--json", path, NULL });
		check_json(e, &c);
		it_cli_free(&c);
		/* plain: after the traceback, a line sandpit wrote */
		it_cli(&c, false, (const char *[]){ "run", path, NULL });
		head = it_fmt("sandpit: hint [%s] at line %d: ", e->about, e->line);
		IT_CLI_CHECK(&c, it_contains(c.err, "Traceback"));
		IT_CLI_CHECK(&c, it_contains(c.err, head));
		IT_CLI_CHECK(&c, strstr(c.err, head) > strstr(c.err, "Traceback"));
		free(head);
		it_cli_free(&c);
		free(path);
		free(name);
	}
	it_rmdir(dir);
}

static void test_a_traceback_the_program_prints_has_its_hint(void **state)
{
	char *dir = it_tmpdir();
	char *name = it_name("printed");
	/* caught and printed, and the program carries on: still explained */
	const char *code = "import traceback\n"
			   "try:\n"
			   "    import sandpit_absent_module\n"
			   "except ImportError:\n"
			   "    traceback.print_exc()\n"
			   "print('carried on')\n";
	char *path = it_write(dir, name, code, strlen(code));
	struct it_cli c;
	json_t *h;

	(void)state;
	it_cli(&c, true, (const char *[]){ "run", "--json", path, NULL });
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "ok") == 0);
	h = json_array_get(json_object_get(c.json, "hints"), 0);
	IT_CLI_CHECK(&c, json_array_size(json_object_get(c.json, "hints")) == 1);
	IT_CLI_CHECK(&c, strcmp(it_jstr(h, "about"), "ModuleNotFoundError") == 0);
	IT_CLI_CHECK(&c, json_integer_value(json_object_get(h, "line")) == 3);
	IT_CLI_CHECK(&c, it_contains(it_jstr(h, "message"), "'sandpit_absent_module'"));
	it_cli_free(&c);
	/* plain: stderr passes through, and the hint follows it */
	it_cli(&c, false, (const char *[]){ "run", path, NULL });
	IT_CLI_CHECK(&c, it_contains(c.err, "sandpit: hint [ModuleNotFoundError] at line 3: "));
	IT_CLI_CHECK(&c, it_contains(c.out, "carried on"));
	it_cli_free(&c);
	free(path);
	free(name);
	it_rmdir(dir);
}

static void test_errors_the_sandbox_does_not_cause_have_no_hint(void **state)
{
	char *name = it_name("nohint");
	struct sp_result *r = it_run("x = {}\nprint(x['missing'])\n", name);

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_ERROR);
	IT_CHECK(r, r->n_hints == 0);
	sp_result_free(r);
	/* refused by a unix socket of the program's own: no network rule */
	r = it_run("import socket\n"
		   "s = socket.socket(socket.AF_UNIX)\n"
		   "s.bind('/tmp/s'); s.close()\n"
		   "socket.socket(socket.AF_UNIX).connect('/tmp/s')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_ERROR && it_contains(it_err(r), "ConnectionRefusedError"));
	IT_CHECK(r, r->n_hints == 0);
	sp_result_free(r);
	/* a read refused: nothing about writing */
	r = it_run("open('/proc/1/mem')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_ERROR && it_contains(it_err(r), "PermissionError"));
	IT_CHECK(r, r->n_hints == 0);
	sp_result_free(r);
	free(name);
}

static void test_forged_hint_reports_are_bounded_and_cleaned(void **state)
{
	char *name = it_name("forgedhint");
	/* made-up reports: an unknown topic, a detail with controls and a
	 * quote, a huge detail, a name that is no Python name, and many */
	struct sp_result *r = it_run(
		"import os, json\n"
		"def send(**m):\n"
		"    os.write(3, (json.dumps(dict(t='hint', **m)) + '\\n').encode())\n"
		"send(topic='rm -rf', about='X', line=1)\n"
		"send(topic='module', about='\\x1b[2J', detail=\"a'\\x1b]0;x\\x07\" + 'b' * 5000, line=2)\n"
		"for i in range(100):\n"
		"    send(topic='file', about='FileNotFoundError', detail='f', line=10 + i)\n",
		name);

	(void)state;
	IT_CHECK(r, r->n_hints == SP_MAX_HINTS);
	IT_CHECK(r, strcmp(r->hints[0].topic, "module") == 0);
	/* the name falls back to the topic's own, the detail is cut and clean */
	IT_CHECK(r, strcmp(r->hints[0].about, "ModuleNotFoundError") == 0);
	IT_CHECK(r, strlen(r->hints[0].message) < 600);
	for (const char *p = r->hints[0].message; *p; p++)
		IT_CHECK(r, (unsigned char)*p >= 0x20 && *p != 0x7f);
	IT_CHECK(r, it_contains(r->hints[0].message, "'a??]0;x?bbb"));
	sp_result_free(r);
	free(name);
}

static void test_printed_tracebacks_are_bounded_and_cleaned(void **state)
{
	char *name = it_name("printedforged");
	/* made-up tracebacks on stderr: many, one with controls in its name */
	struct sp_result *r = it_run(
		"import sys\n"
		"for i in range(50):\n"
		"    sys.stderr.write('Traceback (most recent call last):\\n'\n"
		"                     '  File \"main.py\", line %d, in <module>\\n'\n"
		"                     \"ModuleNotFoundError: No module named 'x\\x1b]0;t\\x07'\\n\" % (i + 1))\n",
		name);

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->n_hints == SP_MAX_HINTS);
	for (size_t i = 0; i < r->n_hints; i++) {
		IT_CHECK(r, r->hints[i].line == (int)i + 1);
		for (const char *p = r->hints[i].message; *p; p++)
			IT_CHECK(r, (unsigned char)*p >= 0x20 && *p != 0x7f);
	}
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_explained_error_has_its_hint),
		cmocka_unit_test(test_a_traceback_the_program_prints_has_its_hint),
		cmocka_unit_test(test_errors_the_sandbox_does_not_cause_have_no_hint),
		cmocka_unit_test(test_forged_hint_reports_are_bounded_and_cleaned),
		cmocka_unit_test(test_printed_tracebacks_are_bounded_and_cleaned),
	};
	return cmocka_run_group_tests_name("integration/hints", tests, NULL, NULL);
}
