/* SPDX-License-Identifier: MIT */
/*
 * test_timeline.c - what `sandpit run --json` tells about a run beyond its
 * output: the usage timeline ("samples") and the program's globals at its
 * end ("variables"), both bounded whatever the program does; and the
 * files listed as left by the program are its own (not the carry.json
 * sandpit put there).
 */
#include "itest.h"

static json_int_t jint(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	if (!json_is_integer(v))
		fail_msg("sample field %s is not an integer", k);
	return json_integer_value(v);
}

/* A program that grows until the memory limit stops it leaves a timeline:
 * time goes forward, memory climbs, and the last point names the limit. */
static void test_samples_show_memory_climbing_to_the_limit(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "climb", "import time\nx = []\n"
			     "for i in range(200):\n"
			     "    x.append(bytearray(2 << 20))\n    time.sleep(0.01)\n");
	const char *args[] = { "run", "--json", "--memory", "64M", prog, NULL };
	struct it_cli c;
	json_t *s, *last;
	json_int_t peak = 0, prev_t = -1;
	bool marked = false;
	size_t n, at_peak = 0;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "memory_limit") == 0);
	s = json_object_get(c.json, "samples");
	n = json_array_size(s);
	IT_CLI_CHECK(&c, n >= 3 && n <= SP_MAX_SAMPLES);
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_array_get(s, i);
		IT_CLI_CHECK(&c, jint(p, "t_ms") >= prev_t);
		prev_t = jint(p, "t_ms");
		if (jint(p, "memory_bytes") > peak) {
			peak = jint(p, "memory_bytes");
			at_peak = i;
		}
		(void)jint(p, "cpu_ms"); (void)jint(p, "procs");
		(void)jint(p, "output_bytes"); (void)jint(p, "disk_bytes");
	}
	IT_CLI_CHECK(&c, peak > 16 << 20);
	/* one point says where: the first sample after the refusal or the
	 * kill, or the last one; never before the climb's top (how many
	 * samples follow while the program prints its traceback and exits
	 * depends on how busy the machine is) */
	for (size_t i = 0; i < n; i++)
		if (strcmp(it_jstr(json_array_get(s, i), "limit"), "memory") == 0) {
			IT_CLI_CHECK(&c, !marked && i >= at_peak);
			marked = true;
		}
	IT_CLI_CHECK(&c, marked);
	last = json_array_get(s, n - 1);
	IT_CLI_CHECK(&c, last != NULL);
	it_cli_free(&c);
	free(prog);
}

/* At a wall limit the timeline has a point every 50 ms or so, and its
 * last point says the wall limit stopped it. */
static void test_samples_of_a_wall_limit_run(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "wall", "import time\ntime.sleep(60)\n");
	const char *args[] = { "run", "--json", "--wall", "1", prog, NULL };
	struct it_cli c;
	json_t *s;
	size_t n;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "wall_limit") == 0);
	s = json_object_get(c.json, "samples");
	n = json_array_size(s);
	IT_CLI_CHECK(&c, n >= 2 && n <= SP_MAX_SAMPLES);
	SP_TIMING(n >= 10, "20 points", "%zu points in a 1 s run", n);
	IT_CLI_CHECK(&c, jint(json_array_get(s, n - 1), "t_ms") >= 1000);
	IT_CLI_CHECK(&c, strcmp(it_jstr(json_array_get(s, n - 1), "limit"), "wall") == 0);
	for (size_t i = 0; i + 1 < n; i++)
		IT_CLI_CHECK(&c, json_object_get(json_array_get(s, i), "limit") == NULL);
	it_cli_free(&c);
	free(prog);
}

/* Run prog with --json and extra options; the parsed result in c. */
static void run_json(struct it_cli *c, const char *prog, const char *o1, const char *v1)
{
	/* room for a busy machine: no test here is about the CPU or wall limit */
	const char *with[] = { "run", "--json", "--cpu", "60", "--wall", "120", o1, v1, prog, NULL };
	const char *without[] = { "run", "--json", "--cpu", "60", "--wall", "120", prog, NULL };

	it_cli(c, true, o1 ? with : without);
}

static json_t *var_named(json_t *vars, const char *name)
{
	for (size_t i = 0; i < json_array_size(vars); i++)
		if (strcmp(it_jstr(json_array_get(vars, i), "name"), name) == 0)
			return json_array_get(vars, i);
	return NULL;
}

/* A small carryable value reaches the run's result as JSON, exactly:
 * the prelude encodes it with json's own C encoder (core/prelude.py,
 * _make_encoder), not the json module; text beyond ASCII, escapes,
 * floats, null and booleans come out as json.dumps gives them. */
static void test_variable_values_are_exact_json(void **state)
{
	(void)state;
	struct sp_result *r = it_run("t = {'\u00e9\u4e2d': [1, 2.5, None, True, 'a\\nb\\t\"'],"
				     " 'big': 10 ** 18, 'neg': -0.125}\n", "vals.py");
	const struct sp_variable *t = NULL;

	assert_non_null(r);
	for (size_t i = 0; i < r->n_variables; i++)
		if (strcmp(r->variables[i].name, "t") == 0)
			t = &r->variables[i];
	if (!t || !t->value)
		it_dump(r);
	assert_non_null(t);
	assert_true(t->carryable);
	assert_non_null(t->value);
	assert_string_equal(t->value, "{\"\u00e9\u4e2d\":[1,2.5,null,true,\"a\\nb\\t\\\"\"],"
			    "\"big\":1000000000000000000,\"neg\":-0.125}");
	sp_result_free(r);
}

/* The globals left at the end, with type, short repr and whether JSON
 * can carry them; modules, functions and classes are not data. */
static void test_variables_are_the_globals_left(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "vars", "import math\nx = 41\nname = 'Ada'\n"
			     "rows = [[1, 2], [3, 4]]\nclass C: pass\nobj = C()\n"
			     "def f(): pass\nnan = float('nan')\n");
	struct it_cli c;
	json_t *vars, *x;

	run_json(&c, prog, NULL, NULL);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "ok") == 0);
	vars = json_object_get(c.json, "variables");
	x = var_named(vars, "x");
	IT_CLI_CHECK(&c, x && strcmp(it_jstr(x, "type"), "int") == 0);
	IT_CLI_CHECK(&c, x && strcmp(it_jstr(x, "repr"), "41") == 0);
	IT_CLI_CHECK(&c, x && json_is_true(json_object_get(x, "carryable")));
	IT_CLI_CHECK(&c, var_named(vars, "name") &&
		     strcmp(it_jstr(var_named(vars, "name"), "repr"), "'Ada'") == 0);
	IT_CLI_CHECK(&c, var_named(vars, "rows") &&
		     json_is_true(json_object_get(var_named(vars, "rows"), "carryable")));
	IT_CLI_CHECK(&c, var_named(vars, "obj") &&
		     json_is_false(json_object_get(var_named(vars, "obj"), "carryable")));
	IT_CLI_CHECK(&c, var_named(vars, "nan") &&
		     json_is_false(json_object_get(var_named(vars, "nan"), "carryable")));
	IT_CLI_CHECK(&c, !var_named(vars, "math") && !var_named(vars, "f") &&
		     !var_named(vars, "C") && !var_named(vars, "__name__"));
	/* after an uncaught error too: what was left is what to look at */
	it_cli_free(&c);
	free(prog);
	prog = it_program(f, "vars-err", "y = 7\n1 / 0\n");
	run_json(&c, prog, NULL, NULL);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "error") == 0);
	IT_CLI_CHECK(&c, var_named(json_object_get(c.json, "variables"), "y") != NULL);
	it_cli_free(&c);
	free(prog);
}

/* 100,000 globals: 200 listed, the rest counted, and the result neither
 * slower (against the same program that skips the report) nor big. */
static void test_a_hundred_thousand_globals_stay_bounded(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "many", "g = globals()\nfor i in range(100000):\n"
			     "    g['v%d' % i] = i\n");
	char *bare = it_program(f, "many-bare", "g = globals()\nfor i in range(100000):\n"
			     "    g['v%d' % i] = i\nimport os\nos._exit(0)\n");
	struct it_cli c, b;
	json_int_t wall, bare_wall;

	run_json(&c, prog, NULL, NULL);
	run_json(&b, bare, NULL, NULL);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "ok") == 0);
	IT_CLI_CHECK(&c, json_array_size(json_object_get(c.json, "variables")) == SP_MAX_VARIABLES);
	IT_CLI_CHECK(&c, json_integer_value(json_object_get(c.json, "variables_more")) >= 99000);
	IT_CLI_CHECK(&c, c.out_len < 200 * 1024);
	wall = json_integer_value(json_object_get(json_object_get(c.json, "usage"), "wall_ms"));
	bare_wall = json_integer_value(json_object_get(json_object_get(b.json, "usage"), "wall_ms"));
	/* the report itself takes about 1 ms; the rest is the walk */
	SP_TIMING(wall < bare_wall + 500, "30 ms more", "with the report %lld ms, without %lld ms",
		  (long long)wall, (long long)bare_wall);
	it_cli_free(&c);
	it_cli_free(&b);
	free(prog);
	free(bare);
}

/* A gigabyte whose repr would be 4 GiB, a 1 GiB string, a __repr__ that
 * never returns: each is cut short, and the run ends on time. Touching
 * 2 GiB takes about 2 s of CPU on an idle machine and much more on a busy
 * one: the limits give it room, so that only the report's own budget
 * (0.2 s) can cut anything. */
static void test_huge_and_endless_reprs_are_cut_short(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "huge", "big = bytearray(1 << 30)\ns = 'y' * (1 << 30)\n"
			     "class Endless:\n    def __repr__(self):\n        while True: pass\n"
			     "e = Endless()\nafter = 1\n");
	const char *args[] = { "run", "--json", "--memory", "3G", "--cpu", "120", "--wall", "240",
			       prog, NULL };
	struct it_cli c;
	json_t *vars, *big, *s;
	json_int_t wall;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "ok") == 0);
	vars = json_object_get(c.json, "variables");
	big = var_named(vars, "big");
	s = var_named(vars, "s");
	IT_CLI_CHECK(&c, big && strlen(it_jstr(big, "repr")) <= 200);
	IT_CLI_CHECK(&c, s && strlen(it_jstr(s, "repr")) <= 200);
	IT_CLI_CHECK(&c, s && json_is_false(json_object_get(s, "carryable")));
	IT_CLI_CHECK(&c, !var_named(vars, "after")); /* the budget ran out at e */
	IT_CLI_CHECK(&c, json_integer_value(json_object_get(c.json, "variables_more")) >= 1);
	IT_CLI_CHECK(&c, c.out_len < 64 * 1024);
	wall = json_integer_value(json_object_get(json_object_get(c.json, "usage"), "wall_ms"));
	SP_TIMING(wall < 15000, "about 2,500 ms", "the run took %lld ms", (long long)wall);
	it_cli_free(&c);
	free(prog);
}

/* The program owns the channel: made-up records are bounded like the
 * prelude's own, and a value is kept only under a name carry takes. */
static void test_forged_variables_are_bounded(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "forged", "import os, json\n"
			     "for i in range(500):\n"
			     "    os.write(3, (json.dumps({'t': 'var', 'name': 'n%d' % i + 'x' * 500,"
			     " 'type': 't' * 500, 'repr': 'r' * 20000, 'carryable': True,"
			     " 'value': 1}) + '\\n').encode())\n"
			     "os.write(3, b'{\"t\": \"vars\", \"more\": 99999999999999}\\n')\n"
			     "os._exit(0)\n");
	struct it_cli c;
	json_t *vars, *v;

	run_json(&c, prog, NULL, NULL);
	vars = json_object_get(c.json, "variables");
	IT_CLI_CHECK(&c, json_array_size(vars) == 200);
	v = json_array_get(vars, 0);
	IT_CLI_CHECK(&c, strlen(it_jstr(v, "name")) <= 80);
	IT_CLI_CHECK(&c, strlen(it_jstr(v, "type")) <= 40);
	IT_CLI_CHECK(&c, strlen(it_jstr(v, "repr")) <= 200);
	/* a 500-character name is no carry name */
	IT_CLI_CHECK(&c, json_is_false(json_object_get(v, "carryable")));
	IT_CLI_CHECK(&c, json_integer_value(json_object_get(c.json, "variables_more")) <=
		     1000000300);
	IT_CLI_CHECK(&c, c.out_len < 256 * 1024);
	it_cli_free(&c);
	free(prog);
}

/* carry.json is sandpit's, put there for the program: not listed among
 * the files the program left, unless the program changed it (or put a
 * link in its place, which is listed and never followed). */
static void test_carry_json_is_not_a_file_the_program_left(void **state)
{
	static const char *const progs[] = {
		"print(a)\n",
		"open('carry.json', 'w').write('{}')\n",
		"import os\nos.remove('carry.json')\nos.symlink('/etc/shadow', 'carry.json')\n",
	};
	static const char carry_in[] = "{\"a\": 1}";

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		char *name = it_name("carryfile");
		struct sp_config cfg = it_config(progs[i], name);
		struct sp_result *r;

		cfg.carry_in = carry_in;
		cfg.carry_in_len = strlen(carry_in);
		r = it_run_cfg(&cfg);
		IT_CHECK(r, r->status == SP_STATUS_OK);
		IT_CHECK(r, it_has_file(r, "carry.json") == (i > 0));
		sp_result_free(r);
		free(name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_samples_show_memory_climbing_to_the_limit, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_samples_of_a_wall_limit_run, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_variables_are_the_globals_left, it_dir_setup, it_dir_teardown),
		cmocka_unit_test(test_variable_values_are_exact_json),
		cmocka_unit_test_setup_teardown(test_a_hundred_thousand_globals_stay_bounded, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_huge_and_endless_reprs_are_cut_short, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_forged_variables_are_bounded, it_dir_setup, it_dir_teardown),
		cmocka_unit_test(test_carry_json_is_not_a_file_the_program_left),
	};

	return cmocka_run_group_tests_name("integration/timeline", tests, NULL, NULL);
}
