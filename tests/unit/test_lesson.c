/* SPDX-License-Identifier: MIT */
/*
 * test_lesson.c - the lesson format and its check: a full lesson parses
 * into every field; each kind of mistake is one message naming FILE:LINE;
 * each condition is judged from a result made by hand, and says in plain
 * words what is still missing; progress survives a reload, and a file
 * that is not progress is set aside, never written over.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lesson/lesson.h"
#include "lesson/lesson_progress.h"
#include "config/limit_fields.h"

#include "banned.h"

static const char full[] =
	"# a comment\n"
	"title = Bring the data\n"
	"constraint = network\n"
	"runs = 2\n"
	"cpu = 2s\n"
	"memory = 128M\n"
	"procs = 8\n"
	"\n"
	"[goal]\n"
	"Print the total\n"
	"without the network.\n"
	"\n"
	"[start]\n"
	"import urllib.request\n"
	"# a Python comment stays\n"
	"[1, 2]\n"
	"\n"
	"[hint]\n"
	"First hint.\n"
	"[hint]\n"
	"Second hint.\n"
	"[solution]\n"
	"print('total: 6')\n"
	"[file data.csv]\n"
	"a,b\n"
	"1,2\n"
	"[check]\n"
	"# judged in order\n"
	"no violation network | it still reaches out\n"
	"status ok\n"
	"exit 0\n"
	"stdout has total: 6\n"
	"stdout lacks Traceback\n"
	"stdout like *total*\n"
	"carry total = 6\n"
	"carry seen\n"
	"file out*.csv\n"
	"limit cpu <= 2s\n";

static void test_a_full_lesson_fills_every_field(void **state)
{
	struct lesson l;
	char err[600];
	struct sp_limits lim;
	(void)state;

	assert_int_equal(lesson_parse(full, strlen(full), "x.lesson", "x", &l, err,
				      sizeof err), 0);
	assert_string_equal(l.title, "Bring the data");
	assert_string_equal(l.constraint, "network");
	assert_string_equal(l.goal, "Print the total\nwithout the network.");
	assert_string_equal(l.start, "import urllib.request\n# a Python comment stays\n[1, 2]\n");
	assert_string_equal(l.solution, "print('total: 6')\n");
	assert_int_equal(l.n_hints, 2);
	assert_string_equal(l.hints[1], "Second hint.");
	assert_int_equal(l.n_files, 1);
	assert_string_equal(l.files[0].name, "data.csv");
	assert_int_equal(l.files[0].len, 8);
	assert_memory_equal(l.files[0].text, "a,b\n1,2\n", 8);
	assert_int_equal(l.n_conds, 10);
	assert_int_equal(l.conds[0].kind, LC_VIOLATION);
	assert_true(l.conds[0].negate);
	assert_string_equal(l.conds[0].say, "it still reaches out");
	assert_int_equal(l.conds[0].line, 29);
	assert_int_equal(l.conds[4].kind, LC_STDOUT_HAS);
	assert_true(l.conds[4].negate);
	assert_string_equal(l.conds[6].value, "6");
	assert_int_equal(l.runs, 2);
	sp_limits_default(&lim);
	lesson_apply_limits(&l, &lim);
	assert_int_equal(lim.cpu_ms, 2000);
	assert_int_equal(lim.memory_bytes, 128u << 20);
	assert_int_equal(lim.procs, 8);
	assert_int_equal(lim.wall_ms, 10000); /* not set: the playground's */
	lesson_free(&l);
}

/* The minimum around one broken line: the error must name that line. */
static void expect_error(const char *text, int line, const char *words)
{
	struct lesson l;
	char err[600], want[64];

	snprintf(want, sizeof want, "t.lesson:%d: ", line);
	if (lesson_parse(text, strlen(text), "t.lesson", "t", &l, err, sizeof err) == 0)
		fail_msg("parsed, but should fail at line %d: %s", line, text);
	if (strncmp(err, want, strlen(want)) || !strstr(err, words))
		fail_msg("wanted '%s...%s', got '%s'", want, words, err);
}

#define OK_REST "[goal]\ng\n[start]\ns\n[solution]\nx\n[check]\nstatus ok\n"

static void test_each_mistake_names_its_file_and_line(void **state)
{
	(void)state;
	expect_error("title = t\ncolour = red\n" OK_REST, 2, "unknown key 'colour'");
	expect_error("title = t\nno equals here\n" OK_REST, 2, "key = value");
	expect_error("title = t\ncpu = fast\n" OK_REST, 2, "bad value 'fast' for cpu");
	expect_error("title = t\nmemory = 1k\n" OK_REST, 2, "bad value");
	expect_error("title = t\nruns = 99\n" OK_REST, 2, "runs must be 1 to 10");
	expect_error("title = t\ntitle = u\n" OK_REST, 2, "given twice");
	expect_error("title = t\n[goal]\ng\n[solutoin]\n", 4, "unknown section [solutoin]");
	expect_error("title = t\n[goal]\n\n[start]\ns\n", 2, "this section is empty");
	expect_error("title = t\n" OK_REST "[goal]\nagain\n", 10, "a second [goal]");
	expect_error("title = t\n" OK_REST "statos ok\n", 10, "not a condition");
	expect_error("title = t\n" OK_REST "status fine\n", 10, "unknown status 'fine'");
	expect_error("title = t\n" OK_REST "violation wifi\n", 10, "unknown violation kind 'wifi'");
	expect_error("title = t\n" OK_REST "carry total = [1,\n", 10, "not JSON");
	expect_error("title = t\n" OK_REST "carry 9lives\n", 10, "not a condition");
	expect_error("title = t\n" OK_REST "limit cpu < 2s\n", 10, "not a condition");
	expect_error("title = t\n" OK_REST "limit gpu <= 2\n", 10, "unknown limit 'gpu'");
	expect_error("title = t\n" OK_REST "stdout has\n", 10, "not a condition");
	expect_error("title = t\n" OK_REST "[check]\nexit 0\n", 10, "a second [check]");
	expect_error("title = t\n[file ../x]\nq\n" OK_REST, 2, "cannot be a file name");
	expect_error("title = t\n[file carry.json]\nq\n" OK_REST, 2, "cannot be a file name");
	expect_error("title = t\n[file a]\n[file a]\n" OK_REST, 3, "a second [file a]");
	expect_error("title = t\n[goal]\ng\n[start]\ns\n[check]\nstatus ok\n", 7, "no [solution]");
	expect_error("title = t\n[goal]\ng\n[start]\ns\n[solution]\nx\n[check]\n", 8, "no [check]");
	expect_error("[goal]\ng\n[start]\ns\n[solution]\nx\n[check]\nstatus ok\n", 1, "no 'title");
	expect_error("title = t\n[goal]\nbad \xff byte\n", 3, "not UTF-8");
	expect_error("title = t\n[goal]\na \x1b]0;title\x07 sequence\n", 3, "control character");
	expect_error("title = t\n[goal]\nC1 \xc2\x9b here\n", 3, "control character");
	{
		/* a NUL in the middle of line 2 */
		struct lesson l;
		char err[200];
		static const char nul[] = "title = t\nab\0cd\n";
		assert_int_equal(lesson_parse(nul, sizeof nul - 1, "t.lesson", "t", &l,
					      err, sizeof err), -1);
		assert_non_null(strstr(err, "t.lesson:2: "));
	}
}

/* A result made by hand, as a run would leave it. */
struct fake {
	struct sp_result r;
	struct sp_violation v[2];
	struct sp_file f[2];
};

static void fake_ok(struct fake *k, const char *out)
{
	memset(k, 0, sizeof *k);
	k->r.status = SP_STATUS_OK;
	k->r.out = (char *)out;
	k->r.out_len = strlen(out);
	sp_limits_default(&k->r.limits);
}

static struct lesson parse_check(const char *check)
{
	struct lesson l;
	char err[600], *text;
	size_t n;
	static const char head[] = "title = t\n[goal]\ng\n[start]\ns\n[solution]\nx\n[check]\n";

	n = strlen(head) + strlen(check) + 1;
	text = malloc(n);
	assert_non_null(text);
	snprintf(text, n, "%s%s", head, check);
	if (lesson_parse(text, strlen(text), "c.lesson", "c", &l, err, sizeof err) < 0)
		fail_msg("%s", err);
	free(text);
	return l;
}

/* Judge check against k; it must pass, or fail with words in the verdict. */
static void expect_verdict(const char *check, struct fake *k, const char *words)
{
	struct lesson l = parse_check(check);
	char msg[700];
	bool pass = lesson_judge(&l, &k->r, msg, sizeof msg);

	if (!words && !pass)
		fail_msg("'%s' should pass, said: %s", check, msg);
	if (words && (pass || strncmp(msg, "not yet: ", 9) || !strstr(msg, words)))
		fail_msg("'%s' should fail with '%s', said: %s", check, words, msg);
	if (!words)
		assert_string_equal(msg, "passed");
	lesson_free(&l);
}

static void test_each_condition_is_judged_from_the_result(void **state)
{
	struct fake k;
	(void)state;

	fake_ok(&k, "total: 6.45\nbye\n");
	expect_verdict("status ok\n", &k, NULL);
	expect_verdict("status error cpu_limit\n", &k, "the run ended normally");
	expect_verdict("stdout has total: 6.45\n", &k, NULL);
	expect_verdict("stdout has total: 7\n", &k, "the output does not show \"total: 7\" yet");
	expect_verdict("stdout lacks bye\n", &k, "the output still shows \"bye\"");
	expect_verdict("stdout like total: 6.*\n", &k, NULL);
	expect_verdict("stdout like total: 7*\n", &k, "does not look like total: 7*");
	expect_verdict("exit 0\n", &k, NULL);
	expect_verdict("no violation\n", &k, NULL);
	expect_verdict("violation network\n", &k, "no network violation yet");
	expect_verdict("limit cpu <= 2s\n", &k, "the cpu limit is 5 s; the lesson wants at most 2 s");
	expect_verdict("limit memory >= 256M\n", &k, NULL);

	/* a violation at a line, in plain words, or in the teacher's */
	k.v[0].kind = SP_VIOL_NETWORK;
	k.v[0].what = "connect() to 93.184.216.34:443";
	k.v[0].line = 4;
	k.r.violations = k.v;
	k.r.n_violations = 1;
	expect_verdict("no violation network\n", &k,
		       "the program still reaches for the network at line 4 (0 of 1");
	expect_verdict("no violation network | it still phones home\n", &k,
		       "not yet: it still phones home at line 4");
	expect_verdict("violation network\n", &k, NULL);
	k.v[0].line = 0;
	expect_verdict("no violation any\n", &k, "reaches for the network (connect() to");

	/* the first condition that fails is the verdict; the count says the rest */
	expect_verdict("stdout has bye\nno violation network\nstatus error\n", &k,
		       "network (connect() to 93.184.216.34:443) (1 of 3 checks pass)");

	/* carry_out names and values; numbers by value */
	fake_ok(&k, "");
	expect_verdict("carry total\n", &k, "does not carry total forward yet");
	k.r.carry_out = "{\"total\": 6.0, \"batch\": 1, \"xs\": [1, 2.0]}";
	expect_verdict("carry total = 6\n", &k, NULL);
	expect_verdict("carry xs = [1.0, 2]\n", &k, NULL);
	expect_verdict("carry batch = 3\n", &k, "carry batch is 1, the lesson wants 3");
	expect_verdict("no carry batch\n", &k, "still carries batch");

	/* files left, and kept */
	k.f[0].path = "chart.png";
	k.r.files = k.f;
	k.r.n_files = 1;
	expect_verdict("file *.png\n", &k, NULL);
	expect_verdict("file summary.csv\n", &k, "leaves no file summary.csv");
	expect_verdict("no file chart.png\n", &k, "still leaves a file chart.png");
	expect_verdict("kept chart.png\n", &k, "no file chart.png was kept");
	k.f[0].kept = "/somewhere/chart.png";
	expect_verdict("kept chart.png\n", &k, NULL);

	/* an error's verdict quotes the exception's last line */
	fake_ok(&k, "");
	k.r.status = SP_STATUS_ERROR;
	k.r.exit_code = 1;
	k.r.err = "Traceback ...\nFileNotFoundError: [Errno 2] scores.csv\n";
	k.r.err_len = strlen(k.r.err);
	expect_verdict("status ok\n", &k, "ended with an error (see Output): FileNotFoundError: [Errno 2] scores.csv");
	expect_verdict("exit 0\n", &k, "exits with 1, the lesson wants 0");
	k.r.status = SP_STATUS_SANDBOX_ERROR;
	expect_verdict("status sandbox_error\n", &k, "the run did not start");
}

static char *tmpdir(void)
{
	char *d = strdup("/tmp/sandpit-lesson-test.XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

static void rmtree(const char *d)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
	assert_int_equal(system(cmd), 0);
}

/* The checks a printed answer cannot pass: the program's text, a number
 * give or take, what a run received against what it carried, and
 * [again] runs whose verdict never says the answer wanted. */
static void test_checks_that_cannot_be_faked(void **state)
{
	struct fake k;
	struct lesson l;
	struct lesson_seen in = { .program = "csv = open('prices.csv').read()\n" };
	char msg[700], err[600];
	(void)state;

	fake_ok(&k, "mean: 499.2\n");
	expect_verdict("stdout number mean: 499.5 within 2\n", &k, NULL);
	expect_verdict("stdout number mean: 299.5 within 2\n", &k,
		       "says \"mean: 499.2\", the lesson wants 299.5");
	expect_verdict("stdout number total: 1 within 0\n", &k, "no number after \"total:\"");
	/* every labelled number is judged: a program printing the answers
	 * of every run has one wrong in each */
	fake_ok(&k, "mean: 499.5\nmean: 299.5\n");
	expect_verdict("stdout number mean: 499.5 within 2\n", &k,
		       "says \"mean: 299.5\" among others, not the right answer");
	expect_verdict("stdout number mean: 299.5 within 2\n", &k,
		       "says \"mean: 499.5\" among others, not the right answer");
	fake_ok(&k, "mean: 499.2\n");

	l = parse_check("source has open(\nsource lacks urlopen\n");
	assert_true(lesson_judge_seen(&l, &in, &k.r, msg, sizeof msg));
	in.program = "print('total: 6.45')\n";
	assert_false(lesson_judge_seen(&l, &in, &k.r, msg, sizeof msg));
	assert_non_null(strstr(msg, "does not have \"open(\" in it yet"));
	lesson_free(&l);

	/* carry = received + N: the value that came in, and N more */
	k.r.carry_out = "{\"batch\": 3}";
	l = parse_check("carry batch = received + 1\n");
	in.carry_in = "{\"batch\": 2}";
	assert_true(lesson_judge_seen(&l, &in, &k.r, msg, sizeof msg));
	in.carry_in = NULL;
	assert_false(lesson_judge_seen(&l, &in, &k.r, msg, sizeof msg));
	assert_non_null(strstr(msg, "received batch = none and carried batch = 3"));
	lesson_free(&l);

	/* [again]: its inputs parsed; its verdict hides the answer */
	static const char again[] =
		"title = t\n[goal]\ng\n[start]\ns\n[solution]\nx\n"
		"[file d.csv]\n1\n[data d2.csv]\n2\n[check]\nstatus ok\n"
		"[again]\nwith carry {\"N\": 5}\nwith stdin 1\\n2\nwith file d.csv d2.csv\n"
		"stdout has total: 7\n";
	assert_int_equal(lesson_parse(again, strlen(again), "a.lesson", "a", &l, err,
				      sizeof err), 0);
	assert_int_equal(l.n_again, 1);
	assert_string_equal(l.again[0].carry, "{\"N\": 5}");
	assert_string_equal(l.again[0].stdin_text, "1\n2\n");
	assert_int_equal(l.again[0].n_swap, 1);
	assert_string_equal(l.data[l.again[0].swap[0].data].name, "d2.csv");
	fake_ok(&k, "total: 6\n");
	assert_false(lesson_again_judge(&l, 0, NULL, &k.r, msg, sizeof msg));
	/* the inputs that differ by name, never their values (a verdict that
	 * said N=2000000 let a lookup table pass) */
	assert_non_null(strstr(msg, "other inputs (another N, another d.csv, other stdin)"));
	assert_null(strstr(msg, "5"));
	assert_non_null(strstr(msg, "\"total: 6\", not the right answer"));
	assert_null(strstr(msg, "total: 7"));
	lesson_free(&l);

	/* mistakes of the new parts name their line */
	static const struct { const char *text, *words; } bad[] = {
		{ "[again]\nwith file nope.csv d2.csv\nstatus ok\n", "c.lesson:11: no [file nope.csv]" },
		{ "[again]\nwith carry [1]\nstatus ok\n", "c.lesson:11: 'with carry' takes a JSON object" },
		{ "[again]\n", "c.lesson:10: this [again] has no condition" },
		{ "stdout number mean: 5 within\n", "c.lesson:9: not a condition" },
		{ "carry n = received + x\n", "c.lesson:9: the value after '=' is not JSON" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[400];
		snprintf(text, sizeof text, "title = t\n[goal]\ng\n[start]\ns\n"
			 "[solution]\nx\n[check]\n%s%s", strncmp(bad[i].text, "[again]", 7) ?
			 "" : "status ok\n", bad[i].text);
		if (lesson_parse(text, strlen(text), "c.lesson", "c", &l, err, sizeof err) == 0)
			fail_msg("should not parse: %s", bad[i].text);
		if (!strstr(err, bad[i].words))
			fail_msg("'%s': said %s", bad[i].words, err);
	}
}

static void test_progress_is_kept_and_a_bad_file_set_aside(void **state)
{
	char *d = tmpdir(), err[700], path[1100];
	struct lesson_progress p;
	FILE *f;
	struct stat st;
	(void)state;

	setenv("XDG_STATE_HOME", d, 1);
	assert_int_equal(lesson_progress_load(&p, err, sizeof err), 0);
	assert_int_equal(p.n, 0);
	assert_int_equal(lesson_progress_pass(&p, "01_network", err, sizeof err), 0);
	assert_int_equal(lesson_progress_pass(&p, "01_network", err, sizeof err), 0);
	assert_int_equal(lesson_progress_set_current(&p, "02_files", err, sizeof err), 0);
	lesson_progress_free(&p);

	assert_int_equal(lesson_progress_load(&p, err, sizeof err), 0);
	assert_int_equal(p.n, 1);
	assert_true(lesson_progress_passed(&p, "01_network"));
	assert_false(lesson_progress_passed(&p, "02_files"));
	assert_string_equal(p.current, "02_files");
	lesson_progress_free(&p);

	/* no temporary file is left beside it */
	snprintf(path, sizeof path, "%s/sandpit", d);
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", path);
	assert_int_equal(system(cmd), 0);

	/* not progress: kept as .bad, never written over */
	snprintf(path, sizeof path, "%s/sandpit/lessons.json", d);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"passed\": 3}", f);
	fclose(f);
	assert_int_equal(lesson_progress_load(&p, err, sizeof err), -1);
	assert_non_null(strstr(err, "lessons.json.bad"));
	assert_int_equal(p.n, 0);
	snprintf(path, sizeof path, "%s/sandpit/lessons.json.bad", d);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(lesson_progress_pass(&p, "x", err, sizeof err), 0);
	lesson_progress_free(&p);

	assert_int_equal(lesson_progress_reset(path, sizeof path, err, sizeof err), 0);
	assert_int_not_equal(stat(path, &st), 0);
	unsetenv("XDG_STATE_HOME");
	rmtree(d);
	free(d);
}

/* A FIFO where the progress file goes: refused at once (jansson's own
 * reader used to wait on it for ever), set aside, progress afresh. */
static void test_a_fifo_as_progress_is_not_waited_on(void **state)
{
	char *d = tmpdir(), err[700], path[1100];
	struct lesson_progress p;

	(void)state;
	setenv("XDG_STATE_HOME", d, 1);
	snprintf(path, sizeof path, "%s/sandpit", d);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/sandpit/lessons.json", d);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(5);
	assert_int_equal(lesson_progress_load(&p, err, sizeof err), -1);
	alarm(0);
	assert_int_equal(p.n, 0);
	lesson_progress_free(&p);
	unsetenv("XDG_STATE_HOME");
	rmtree(d);
	free(d);
}

/* A lesson is someone else's file: a limit over the lesson maxima is
 * lowered to it, and what was asked is said; one within them is kept. */
static void test_limits_over_the_lesson_maxima_are_lowered_and_said(void **state)
{
	static const char greedy[] =
		"title = Greedy\ncpu = 1000000000\nwall = 1000000000\nmemory = 1000000G\n"
		"disk = 1000000G\noutput = 1000000G\nprocs = 100000\n" OK_REST;
	struct lesson l;
	struct sp_limits lim;
	char err[600];
	(void)state;

	assert_int_equal(lesson_parse(greedy, strlen(greedy), "g.lesson", "g", &l, err,
				      sizeof err), 0);
	sp_limits_default(&lim);
	lesson_apply_limits(&l, &lim);
	for (int id = 0; id < LIM_COUNT; id++)
		assert_int_equal(limit_get(&lim, (enum limit_id)id), limit_fields[id].lesson_max);
	assert_int_equal(lim.cpu_ms, 60 * 1000);
	assert_int_equal(lim.memory_bytes, 2ull << 30);
	assert_int_equal(lim.procs, 256);
	assert_non_null(strstr(l.capped, "cpu = 1000000000 lowered to 60"));
	assert_non_null(strstr(l.capped, "wall = 1000000000 lowered to 120"));
	assert_non_null(strstr(l.capped, "memory = 1000000G lowered to 2G"));
	assert_non_null(strstr(l.capped, "disk = 1000000G lowered to 256M"));
	assert_non_null(strstr(l.capped, "output = 1000000G lowered to 16M"));
	assert_non_null(strstr(l.capped, "procs = 100000 lowered to 256"));
	lesson_free(&l);

	/* at the maxima and below: kept as asked, nothing said */
	static const char fair[] = "title = Fair\ncpu = 60\nwall = 12s\nmemory = 256M\n" OK_REST;
	assert_int_equal(lesson_parse(fair, strlen(fair), "f.lesson", "f", &l, err,
				      sizeof err), 0);
	assert_string_equal(l.capped, "");
	assert_int_equal(l.limits.cpu_ms, 60 * 1000);
	assert_int_equal(l.limits.wall_ms, 12 * 1000);
	lesson_free(&l);
}

/* A file name may hold any byte but '/' and NUL: the names a lesson is
 * shown by (its id, its source, its title) are kept made visible. */
static void test_a_lessons_names_are_kept_visible(void **state)
{
	static const char text[] = "title = A \xe2\x80\xae reversed\n" OK_REST;
	struct lesson l;
	char err[600];
	(void)state;

	assert_int_equal(lesson_parse(text, strlen(text), "d/\x1b]52;c;eA==\x07.lesson",
				      "d/\x1b]0;t\x07\xc2\x9b", &l, err, sizeof err), 0);
	assert_string_equal(l.id, "d/^[]0;t^G\\x9b");
	assert_string_equal(l.source, "d/^[]52;c;eA==^G.lesson");
	assert_string_equal(l.title, "A <U+202E> reversed");
	lesson_free(&l);

	/* a teacher's directory: the set's names and errors too */
	char *d = tmpdir(), path[600];
	struct lesson_set set;
	FILE *f;
	snprintf(path, sizeof path, "%s/\x1b]0;good\x07.lesson", d);
	assert_non_null(f = fopen(path, "w"));
	fputs("title = Mine\n" OK_REST, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/\x1b]0;bad\x07.lesson", d);
	assert_non_null(f = fopen(path, "w"));
	fputs("title = Broken\n", f);
	fclose(f);
	assert_int_equal(lesson_set_load(&set, d), 0);
	assert_int_equal(set.n_errors, 1);
	assert_null(strchr(set.errors[0], '\x1b'));
	assert_non_null(strstr(set.errors[0], "^[]0;bad^G.lesson:1: "));
	const struct lesson *mine = &set.v[set.n - 1];
	assert_null(strchr(mine->id, '\x1b'));
	assert_non_null(strstr(mine->id, "/^[]0;good^G"));
	assert_null(strchr(mine->source, '\x1b'));
	lesson_set_free(&set);
	rmtree(d);
	free(d);
}

static void test_a_teachers_dir_loads_beside_one_broken_file(void **state)
{
	char *d = tmpdir(), path[600];
	struct lesson_set s;
	FILE *f;
	(void)state;

	snprintf(path, sizeof path, "%s/good.lesson", d);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("title = Mine\n" OK_REST, f);
	fclose(f);
	snprintf(path, sizeof path, "%s/broken.lesson", d);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("title = Broken\n[goal]\ng\n[start]\ns\n[solution]\nx\n[check]\nstdout maybe\n", f);
	fclose(f);
	snprintf(path, sizeof path, "%s/notes.txt", d);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a lesson\n", f);
	fclose(f);

	/* a FIFO named like a lesson is refused at once, never waited on */
	snprintf(path, sizeof path, "%s/fifo.lesson", d);
	assert_int_equal(mkfifo(path, 0600), 0);

	assert_int_equal(lesson_set_load(&s, d), 0);
	assert_true(s.n >= 8);
	assert_int_equal(s.n_errors, 2);
	snprintf(path, sizeof path, "%s/fifo.lesson:1: not a regular file", d);
	assert_non_null(strstr(s.errors[1], path));
	snprintf(path, sizeof path, "%s/broken.lesson:9: not a condition", d);
	assert_non_null(strstr(s.errors[0], path));
	long i = lesson_set_find(&s, "good");
	assert_true(i < 0); /* ids are DIRNAME/NAME */
	const char *base = strrchr(d, '/') + 1;
	snprintf(path, sizeof path, "%s/good", base);
	i = lesson_set_find(&s, path);
	assert_true(i >= 7);
	assert_string_equal(s.v[i].title, "Mine");
	lesson_set_free(&s);

	/* a directory that is not there: an error, the shipped ones load */
	snprintf(path, sizeof path, "%s/nope", d);
	assert_int_equal(lesson_set_load(&s, path), -1);
	assert_true(s.n >= 7);
	assert_non_null(strstr(s.errors[0], "cannot read the lesson directory"));
	lesson_set_free(&s);
	rmtree(d);
	free(d);
}

static void test_the_shipped_lessons_parse_and_cover_every_wall(void **state)
{
	struct lesson_set s;
	static const char *const walls[] = { "network", "filesystem", "stateless",
					     "time", "memory", "files", "violations" };
	(void)state;

	assert_int_equal(lesson_set_load(&s, NULL), 0);
	for (size_t i = 0; i < s.n_errors; i++)
		print_error("%s\n", s.errors[i]);
	assert_int_equal(s.n_errors, 0);
	assert_true(s.n >= 7);
	for (size_t w = 0; w < sizeof walls / sizeof *walls; w++) {
		bool found = false;
		for (size_t i = 0; i < s.n; i++)
			found |= s.v[i].constraint && !strcmp(s.v[i].constraint, walls[w]);
		if (!found)
			fail_msg("no shipped lesson for %s", walls[w]);
	}
	for (size_t i = 0; i < s.n; i++)
		assert_true(s.v[i].n_hints >= 1);
	lesson_set_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_full_lesson_fills_every_field),
		cmocka_unit_test(test_each_mistake_names_its_file_and_line),
		cmocka_unit_test(test_each_condition_is_judged_from_the_result),
		cmocka_unit_test(test_checks_that_cannot_be_faked),
		cmocka_unit_test(test_a_fifo_as_progress_is_not_waited_on),
		cmocka_unit_test(test_progress_is_kept_and_a_bad_file_set_aside),
		cmocka_unit_test(test_a_teachers_dir_loads_beside_one_broken_file),
		cmocka_unit_test(test_limits_over_the_lesson_maxima_are_lowered_and_said),
		cmocka_unit_test(test_a_lessons_names_are_kept_visible),
		cmocka_unit_test(test_the_shipped_lessons_parse_and_cover_every_wall),
	};
	return cmocka_run_group_tests_name("unit/lesson", tests, NULL, NULL);
}
