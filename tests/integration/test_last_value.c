/* SPDX-License-Identifier: MIT */
/*
 * test_last_value.c - the value of the program's last expression (a
 * notebook's Out), through real sandboxes, cold and prepared: reported
 * as last_value {type, repr} when the last top-level statement is an
 * expression whose value is not None, null otherwise; the expression runs
 * once; stdout and tracebacks are the program's as before.
 */
#include "prep.h"

struct lv_case {
	const char *code;
	const char *type;      /* NULL: no last value */
	const char *repr;      /* the whole repr */
	const char *out;       /* the whole stdout */
};

static const struct lv_case cases[] = {
	{ "x = 41\nx + 1\n", "int", "42", "" },
	{ "import pandas as pd\n"
	  "df = pd.DataFrame({'a': [1, 2], 'b': [3.5, 4.5]})\n"
	  "df\n", "DataFrame", "   a    b\n0  1  3.5\n1  2  4.5", "" },
	{ "print('before')\nNone\n", NULL, NULL, "before\n" },
	{ "x = 5\n", NULL, NULL, "" },
	{ "if True:\n    7\n", NULL, NULL, "" },
	{ "print('hi')\n", NULL, NULL, "hi\n" },
	/* runs once, on its own lines (a call spanning two) */
	{ "n = 0\ndef f(k):\n    global n\n    n += 1\n    print('ran', n)\n    return [k] * 2\n"
	  "f(\n  'x')\n", "list", "['x', 'x']", "ran 1\n" },
	{ "x = 1; 'semi' + str(x)\n", "str", "'semi1'", "" },
	{ "'''only a docstring'''\n", NULL, NULL, "" },
};

static void check_case(const struct lv_case *c, const struct sp_result *r)
{
	char *json = sp_result_to_json(r);

	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->out_len == strlen(c->out) && memcmp(it_out(r), c->out, r->out_len) == 0);
	if (c->type) {
		IT_CHECK(r, r->last_value_type && !strcmp(r->last_value_type, c->type));
		IT_CHECK(r, r->last_value_repr && !strcmp(r->last_value_repr, c->repr));
		IT_CHECK(r, it_contains(json, "\"last_value\": {"));
	} else {
		IT_CHECK(r, !r->last_value_type && !r->last_value_repr);
		IT_CHECK(r, it_contains(json, "\"last_value\": null"));
	}
	/* a hidden name, not one of the program's variables */
	for (size_t i = 0; i < r->n_variables; i++)
		IT_CHECK(r, !strstr(r->variables[i].name, "sandpit"));
	free(json);
}

static void test_last_value_cold(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *name = it_name("last");
		struct sp_config cfg = it_config(cases[i].code, name);
		struct sp_result *r = it_run_cfg(&cfg);

		print_message("case %zu\n", i);
		check_case(&cases[i], r);
		sp_result_free(r);
		free(name);
	}
}

static void test_last_value_prepared(void **state)
{
	static const char *const pre[] = { "pandas" };

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *name = it_name("lastprep");
		struct sp_config cfg = it_config(cases[i].code, name);
		struct sp_run *run = pt_run_cfg(&cfg, pre, i == 1);

		print_message("case %zu\n", i);
		check_case(&cases[i], sp_run_result(run));
		sp_run_free(run);
		free(name);
	}
}

/* An error in the last expression: its traceback names its line, as
 * without the last value, and there is no value. */
static void test_error_in_the_last_expression(void **state)
{
	char *name = it_name("lasterr");
	struct sp_config cfg = it_config("x = 1\n\n(x +\n  1/0)\n", name);
	struct sp_result *r = it_run_cfg(&cfg);
	char *want = it_fmt("File \"%s\", line 4, in <module>\n    1/0)", name);

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_ERROR);
	IT_CHECK(r, it_contains(it_err(r), want));
	IT_CHECK(r, it_contains(it_err(r), "ZeroDivisionError"));
	IT_CHECK(r, !r->last_value_type);
	sp_result_free(r);
	free(want);
	free(name);
}

/* A repr that raises or never ends costs the program nothing: the value
 * says so, the run is ok. */
static void test_hostile_repr(void **state)
{
	char *name = it_name("lastrepr");
	struct sp_config cfg = it_config(
		"class Slow:\n    def __repr__(self):\n        while True: pass\n"
		"class Bad:\n    def __repr__(self):\n        raise KeyError\n"
		"import sys\nSlow() if sys.argv else Bad()\n", name);
	struct sp_result *r = it_run_cfg(&cfg);

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->last_value_type && !strcmp(r->last_value_type, "Slow"));
	IT_CHECK(r, r->last_value_repr && it_contains(r->last_value_repr, "<repr took over"));
	sp_result_free(r);
	free(name);
}

/* Through the command: plain `sandpit run` passes stdout byte for byte
 * and prints no last value; --json carries it; the run is told a width
 * only with --columns N (COLUMNS, LINES, shutil), else Python's own
 * 80x24 with COLUMNS unset, as before. */
static void test_the_command_line(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "lastcli",
		"import os, shutil\n"
		"print('told', os.environ.get('COLUMNS'), os.environ.get('LINES'),\n"
		"      tuple(shutil.get_terminal_size()))\n"
		"x = 41\n"
		"x + 1\n");
	const char *plain[] = { "run", prog, NULL };
	const char *json[] = { "run", "--json", prog, NULL };
	const char *cols[] = { "run", "--columns", "50", prog, NULL };
	struct it_cli c;

	it_cli(&c, false, plain);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, !strcmp(c.out, "told None None (80, 24)\n"));
	IT_CLI_CHECK(&c, !it_contains(c.err, "42"));
	it_cli_free(&c);

	it_cli(&c, true, json);
	IT_CLI_CHECK(&c, c.status == 0 && c.json);
	json_t *lv = json_object_get(c.json, "last_value");
	IT_CLI_CHECK(&c, json_is_object(lv));
	IT_CLI_CHECK(&c, !strcmp(json_string_value(json_object_get(lv, "type")), "int"));
	IT_CLI_CHECK(&c, !strcmp(json_string_value(json_object_get(lv, "repr")), "42"));
	it_cli_free(&c);

	it_cli(&c, false, cols);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(c.out, "told 50 ") && it_contains(c.out, "(50, "));
	it_cli_free(&c);
	free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_last_value_cold),
		cmocka_unit_test(test_last_value_prepared),
		cmocka_unit_test(test_error_in_the_last_expression),
		cmocka_unit_test(test_hostile_repr),
		cmocka_unit_test_setup_teardown(test_the_command_line, it_dir_setup, it_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
