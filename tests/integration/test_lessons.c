/* SPDX-License-Identifier: MIT */
/*
 * test_lessons.c - every shipped lesson through real sandboxed runs: its
 * starting program fails its check and its reference solution passes
 * (with the lesson's limits and files, and carry merged between runs as
 * F2 does). Also: the stateless lesson really needs its three runs, and
 * `sandpit learn --list` / `--verify` on a teacher's directory with one
 * broken file report FILE:LINE and still take the good lesson; a lesson
 * asking for more than the lesson maxima runs under them.
 */
#include "itest.h"

#include "lesson/lesson.h"

#include "banned.h"

static void test_every_shipped_start_fails_and_every_solution_passes(void **state)
{
	struct lesson_set s;
	struct sp_limits lim;
	(void)state;

	assert_int_equal(lesson_set_load(&s, NULL), 0);
	assert_int_equal(s.n_errors, 0);
	assert_true(s.n >= 7);
	sp_limits_default(&lim);
	for (size_t i = 0; i < s.n; i++) {
		const struct lesson *l = &s.v[i];
		struct sp_error err = { { 0 } };
		char vs[700], vo[700];
		bool ps, po;
		unsigned ns, no;

		assert_int_equal(lesson_try(l, l->start, &lim, NULL, &ps, &ns, vs,
					    sizeof vs, &err), 0);
		assert_int_equal(lesson_try(l, l->solution, &lim, NULL, &po, &no, vo,
					    sizeof vo, &err), 0);
		print_message("%s\n  start:    %s (%u runs)\n  solution: %s (%u runs)\n",
			      l->id, vs, ns, vo, no);
		if (ps)
			fail_msg("%s: the starting program passes its own check", l->id);
		if (strncmp(vs, "not yet: ", 9))
			fail_msg("%s: the start's verdict is not 'not yet': %s", l->id, vs);
		assert_int_equal(ns, l->runs);
		if (!po)
			fail_msg("%s: the solution does not pass: %s", l->id, vo);
		assert_string_equal(vo, "passed");
		assert_int_equal(no, l->runs);
	}
	lesson_set_free(&s);
}

static void test_the_stateless_lesson_needs_all_three_runs(void **state)
{
	struct lesson_set s;
	struct sp_limits lim;
	struct sp_error err = { { 0 } };
	char v[700];
	bool pass;
	unsigned n;
	long i;
	(void)state;

	assert_int_equal(lesson_set_load(&s, NULL), 0);
	i = lesson_set_find(&s, "03_carry");
	assert_true(i >= 0);
	sp_limits_default(&lim);
	s.v[i].runs = 2; /* one run short: F2 and run again, once too few */
	assert_int_equal(lesson_try(&s.v[i], s.v[i].solution, &lim, NULL, &pass, &n,
				    v, sizeof v, &err), 0);
	assert_false(pass);
	assert_non_null(strstr(v, "not all three batches are in yet"));
	lesson_set_free(&s);
}

static char *write_file(const char *dir, const char *name, const char *text)
{
	return it_write(dir, name, text, strlen(text));
}

static void test_a_teachers_dir_with_one_broken_file(void **state)
{
	char *dir = it_tmpdir();
	char *state_dir = it_fmt("%s/state", dir);
	char *lessons = it_fmt("%s/class", dir);
	struct it_cli c;
	(void)state;

	assert_int_equal(mkdir(lessons, 0700), 0);
	free(write_file(lessons, "01_mean.lesson",
		"title = The mean of the marks\n"
		"constraint = filesystem\n"
		"[goal]\nPrint the mean of marks.txt, attached.\n"
		"[start]\nprint(open('/home/t/marks.txt').read())\n"
		"[hint]\nIt is in the work dir.\n"
		"[solution]\n"
		"xs = [int(x) for x in open('marks.txt')]\n"
		"print('mean', sum(xs) / len(xs))\n"
		"[file marks.txt]\n4\n6\n"
		"[check]\nstatus ok\nstdout has mean 5.0\n"));
	free(write_file(lessons, "02_broken.lesson",
		"title = Broken\n[goal]\ng\n[start]\ns\n[solution]\nx\n"
		"[check]\nstatus ok\nstdout sounds right\n"));
	setenv("XDG_STATE_HOME", state_dir, 1);

	const char *list[] = { "learn", "--list", "--lessons", lessons, NULL };
	it_cli_start(&c, list);
	it_cli_finish(&c, false);
	if (c.status != 1 || !strstr(c.err, "02_broken.lesson:10: not a condition") ||
	    !strstr(c.out, "The mean of the marks") || !strstr(c.out, "No network"))
		fail_msg("exit %d\nstdout: %s\nstderr: %s", c.status, c.out, c.err);
	free(c.out);
	free(c.err);

	/* --verify runs the teacher's lessons (not the shipped ones): a
	 * lesson whose start already passes is named, exit 1 */
	free(write_file(lessons, "03_gives_away.lesson",
		"title = Gives it away\n[goal]\ng\n[start]\nprint('done')\n"
		"[solution]\nprint('done')\n[check]\nstdout has done\n"));
	const char *verify[] = { "learn", "--verify", "--lessons", lessons, NULL };
	it_cli_start(&c, verify);
	it_cli_finish(&c, false);
	if (c.status != 1 || !strstr(c.out, "ok   class/01_mean") ||
	    !strstr(c.out, "FAIL class/03_gives_away") ||
	    !strstr(c.out, "passes its check: it gives the lesson away") ||
	    strstr(c.out, "01_network") || !strstr(c.err, "02_broken.lesson:10:"))
		fail_msg("exit %d\nstdout: %s\nstderr: %s", c.status, c.out, c.err);
	free(c.out);
	free(c.err);

	/* the good lesson behaves: its start fails, its solution passes */
	struct lesson_set s;
	struct sp_limits lim;
	struct sp_error err = { { 0 } };
	char v[700];
	bool pass;
	unsigned n;
	char *id = it_fmt("class/01_mean");
	assert_int_equal(lesson_set_load(&s, lessons), 0);
	assert_int_equal(s.n_errors, 1);
	assert_true(lesson_set_find(&s, "class/03_gives_away") >= 0);
	long i = lesson_set_find(&s, id);
	assert_true(i >= 0);
	sp_limits_default(&lim);
	assert_int_equal(lesson_try(&s.v[i], s.v[i].start, &lim, NULL, &pass, &n, v,
				    sizeof v, &err), 0);
	assert_false(pass);
	assert_int_equal(lesson_try(&s.v[i], s.v[i].solution, &lim, NULL, &pass, &n, v,
				    sizeof v, &err), 0);
	if (!pass)
		fail_msg("the teacher's solution: %s", v);
	lesson_set_free(&s);
	free(id);

	unsetenv("XDG_STATE_HOME");
	free(lessons);
	free(state_dir);
	it_rmdir(dir);
}

/* A lesson asking for the machine (10^9 s, 10^6 G, 100,000 processes)
 * runs under the lesson maxima: its own check of the limits in force
 * ("limit cpu <= 60") passes, which it could not under the limits it
 * asked. */
static void test_a_greedy_lesson_runs_under_the_lesson_maxima(void **state)
{
	static const char greedy[] =
		"title = Greedy\ncpu = 1000000000\nwall = 1000000000\nmemory = 1000000G\n"
		"disk = 1000000G\nprocs = 100000\n"
		"[goal]\nPrint hi.\n[start]\nprint('no')\n[solution]\nprint('hi')\n"
		"[check]\nstdout has hi\nlimit cpu <= 60\nlimit wall <= 120\n"
		"limit memory <= 2G\nlimit disk <= 256M\nlimit procs <= 256\n";
	struct lesson l;
	struct sp_limits lim;
	struct sp_error err = { { 0 } };
	char msg[700], v[700];
	bool pass;
	unsigned n;
	(void)state;

	if (lesson_parse(greedy, strlen(greedy), "greedy.lesson", "greedy", &l, msg,
			 sizeof msg) < 0)
		fail_msg("%s", msg);
	assert_non_null(strstr(l.capped, "cpu = 1000000000 lowered to 60"));
	sp_limits_default(&lim);
	assert_int_equal(lesson_try(&l, l.solution, &lim, NULL, &pass, &n, v, sizeof v, &err), 0);
	print_message("greedy: %s; %s\n", v, l.capped);
	if (!pass)
		fail_msg("the greedy lesson's solution: %s", v);
	lesson_free(&l);
}

/* The full example of docs/lessons.md is a lesson that behaves: the docs
 * cannot drift from the format. (Skipped where the tree is not there:
 * the rootless CI copy has only build/ and tests/.) */
static void test_the_documented_example_is_a_working_lesson(void **state)
{
	size_t len = 0;
	const char *top = getenv("SANDPIT_TOP");
	char *path = it_fmt("%s/docs/lessons.md", top ? top : ".");
	char *doc;
	const char *mark = "### A full example\n\n```\n", *b, *e;
	struct lesson l;
	struct sp_limits lim;
	struct sp_error err = { { 0 } };
	char msg[700], v[700];
	bool pass;
	unsigned n;
	(void)state;

	if (access(path, R_OK) != 0) {
		free(path);
		skip();
	}
	doc = it_slurp(path, &len);
	free(path);
	assert_non_null(doc);
	b = strstr(doc, mark);
	assert_non_null(b);
	b += strlen(mark);
	e = strstr(b, "\n```\n");
	assert_non_null(e);
	if (lesson_parse(b, (size_t)(e - b) + 1, "docs/lessons.md", "example", &l, msg,
			 sizeof msg) < 0)
		fail_msg("%s", msg);
	sp_limits_default(&lim);
	assert_int_equal(lesson_try(&l, l.start, &lim, NULL, &pass, &n, v, sizeof v, &err), 0);
	if (pass)
		fail_msg("the example's start passes");
	assert_int_equal(lesson_try(&l, l.solution, &lim, NULL, &pass, &n, v, sizeof v, &err), 0);
	if (!pass)
		fail_msg("the example's solution: %s", v);
	lesson_free(&l);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_shipped_start_fails_and_every_solution_passes),
		cmocka_unit_test(test_the_stateless_lesson_needs_all_three_runs),
		cmocka_unit_test(test_a_teachers_dir_with_one_broken_file),
		cmocka_unit_test(test_the_documented_example_is_a_working_lesson),
		cmocka_unit_test(test_a_greedy_lesson_runs_under_the_lesson_maxima),
	};
	return cmocka_run_group_tests_name("integration/lessons", tests, NULL, NULL);
}
