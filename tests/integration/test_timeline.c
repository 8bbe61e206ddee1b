/*
 * test_timeline.c - what `sandpit run --json` tells about a run beyond its
 * output: the usage timeline ("samples") and the program's globals at its
 * end ("variables"), both bounded whatever the program does.
 */
#include "itest.h"

struct fixture {
	char *dir;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);

	f->dir = it_tmpdir();
	chmod(f->dir, 0755);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	it_rmdir(f->dir);
	free(f);
	return 0;
}

static char *program(struct fixture *f, const char *what, const char *code)
{
	char *name = it_name(what);
	char *path = it_write(f->dir, name, code, strlen(code));

	free(name);
	return path;
}

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
	struct fixture *f = *state;
	char *prog = program(f, "climb", "import time\nx = []\n"
			     "for i in range(200):\n"
			     "    x.append(bytearray(2 << 20))\n    time.sleep(0.01)\n");
	const char *args[] = { "run", "--json", "--memory", "64M", prog, NULL };
	struct it_cli c;
	json_t *s, *last;
	json_int_t peak = 0, prev_t = -1;
	size_t n;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "memory_limit") == 0);
	s = json_object_get(c.json, "samples");
	n = json_array_size(s);
	IT_CLI_CHECK(&c, n >= 3 && n <= 1000);
	for (size_t i = 0; i < n; i++) {
		json_t *p = json_array_get(s, i);
		IT_CLI_CHECK(&c, jint(p, "t_ms") >= prev_t);
		prev_t = jint(p, "t_ms");
		if (jint(p, "memory_bytes") > peak)
			peak = jint(p, "memory_bytes");
		(void)jint(p, "cpu_ms"); (void)jint(p, "procs");
		(void)jint(p, "output_bytes"); (void)jint(p, "disk_bytes");
	}
	IT_CLI_CHECK(&c, peak > 16 << 20);
	last = json_array_get(s, n - 1);
	IT_CLI_CHECK(&c, strcmp(it_jstr(last, "limit"), "memory") == 0);
	it_cli_free(&c);
	free(prog);
}

/* At a wall limit the timeline has a point every 50 ms or so, and its
 * last point says the wall limit stopped it. */
static void test_samples_of_a_wall_limit_run(void **state)
{
	struct fixture *f = *state;
	char *prog = program(f, "wall", "import time\ntime.sleep(60)\n");
	const char *args[] = { "run", "--json", "--wall", "1", prog, NULL };
	struct it_cli c;
	json_t *s;
	size_t n;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "wall_limit") == 0);
	s = json_object_get(c.json, "samples");
	n = json_array_size(s);
	IT_CLI_CHECK(&c, n >= 10 && n <= 1000);
	IT_CLI_CHECK(&c, jint(json_array_get(s, n - 1), "t_ms") >= 1000);
	IT_CLI_CHECK(&c, strcmp(it_jstr(json_array_get(s, n - 1), "limit"), "wall") == 0);
	for (size_t i = 0; i + 1 < n; i++)
		IT_CLI_CHECK(&c, json_object_get(json_array_get(s, i), "limit") == NULL);
	it_cli_free(&c);
	free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_samples_show_memory_climbing_to_the_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_samples_of_a_wall_limit_run, setup, teardown),
	};

	return cmocka_run_group_tests_name("integration/timeline", tests, NULL, NULL);
}
