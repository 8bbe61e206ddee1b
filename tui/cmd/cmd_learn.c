/* SPDX-License-Identifier: MIT */
/*
 * cmd_learn.c - `sandpit learn`: the playground opened on the lessons,
 * and three headless forms for a teacher:
 *
 *   sandpit learn [--lessons DIR] [OPTIONS]   the playground, lesson view
 *   sandpit learn --reset                     forget the learner's progress
 *   sandpit learn --list   [--lessons DIR]    every lesson, and broken files
 *   sandpit learn --verify [--lessons DIR]    run each lesson's start (must
 *                                             fail its check) and solution
 *                                             (must pass) in the sandbox:
 *                                             DIR's lessons, else the shipped
 *   sandpit learn --check LESSON FILE...      judge learners' program
 *                 [--json]                    files (or a class folder)
 *                                             against one lesson, as the
 *                                             playground would (exit 0 all
 *                                             passed, 1 not yet, 2 usage or
 *                                             a file not judged)
 *
 * --list and --verify exit 1 when a lesson file is broken or a lesson
 * does not behave, so a teacher can check a new lesson in a second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "cmd/learn_grade.h"
#include "config/config.h"
#include "text/fileio.h"
#include "lesson/lesson.h"
#include "lesson/lesson_progress.h"
#include "app/playground.h"
#include "text/sanitize.h"
#include "banned.h"

/* --list: one line a lesson, [passed] beside those done. */
static int list_lessons(const struct lesson_set *s, const struct lesson_progress *p)
{
	size_t passed = 0;

	for (size_t i = 0; i < s->n; i++) {
		bool done = lesson_progress_passed(p, s->v[i].id);
		passed += done;
		printf("%2zu %s %-22s %s\n", i + 1, done ? "[passed]" : "        ",
		       s->v[i].id, s->v[i].title);
	}
	printf("%zu of %zu passed\n", passed, s->n);
	return 0;
}

/* A lesson that asked for more than the lesson maxima ran under them:
 * said, so a teacher knows the limits in force are not the file's. */
static void say_capped(const struct lesson *l, const char *indent)
{
	if (l->capped[0])
		printf("%slimits:   %s (the most a lesson may set)\n", indent, l->capped);
}

/* Both programs of every lesson through real sandboxed runs: the
 * teacher's only when --lessons names a directory (that is what they are
 * checking), else the shipped ones. */
static int verify_lessons(const struct lesson_set *s, const struct pg_config *cfg)
{
	int bad = 0;
	size_t shipped = 0;

	while (shipped < s->n && !strchr(s->v[shipped].id, '/'))
		shipped++;
	for (size_t i = cfg->lessons_dir ? shipped : 0; i < s->n; i++) {
		const struct lesson *l = &s->v[i];
		if (!cfg->lessons_dir && i >= shipped)
			break;
		char vs[600], vo[600];
		bool ps, po;
		unsigned ns, no;
		struct sp_error err = { { 0 } };
		const char *py = cfg->python[0] ? cfg->python : NULL;

		if (lesson_try(l, l->start, &cfg->limits, py, &ps, &ns, vs, sizeof vs, &err) < 0 ||
		    lesson_try(l, l->solution, &cfg->limits, py, &po, &no, vo, sizeof vo, &err) < 0) {
			char *why = sanitize_dup(err.msg, true); /* may name a lesson's file */
			printf("FAIL %s: a run did not start: %s\n", l->id, why ? why : "");
			free(why);
			bad = 1;
			continue;
		}
		/* verdicts quote the programs: never raw to the terminal */
		char *s1 = sanitize_dup(vs, true), *s2 = sanitize_dup(vo, true);
		printf("%s %s\n     start:    %s\n     solution: %s (%u run%s)\n",
		       !ps && po ? "ok  " : "FAIL", l->id,
		       ps ? "passes its check: it gives the lesson away" : s1 ? s1 : "",
		       s2 ? s2 : "", no, no == 1 ? "" : "s");
		free(s1);
		free(s2);
		say_capped(l, "     ");
		if (ps || !po)
			bad = 1;
	}
	return bad;
}

/* LESSON of --check: its number in the list, its id, or its file name
 * (with or without .lesson, with or without a directory). -1: none. */
static long find_lesson(const struct lesson_set *s, const char *name)
{
	char *end;
	unsigned long n = strtoul(name, &end, 10);
	const char *base = strrchr(name, '/');
	size_t bl;

	if (name[0] >= '1' && name[0] <= '9' && !*end)
		return n <= s->n ? (long)n - 1 : -1;
	base = base ? base + 1 : name;
	bl = strlen(base);
	if (bl > 7 && !strcmp(base + bl - 7, ".lesson"))
		bl -= 7;
	for (size_t i = 0; i < s->n; i++) {
		const char *id = s->v[i].id, *slash = strrchr(id, '/');
		if (!strcmp(id, name) || (strlen(slash ? slash + 1 : id) == bl &&
					  !strncmp(slash ? slash + 1 : id, base, bl)))
			return (long)i;
	}
	return -1;
}

/* --check LESSON FILE...: learners' programs judged headless, with the
 * lesson's runs (carry between them) and its [again]s (learn_grade.c). */
static int check_programs(const struct lesson_set *s, const struct pg_config *cfg,
			  const char *which, char *const *files, size_t n, bool json)
{
	long i = find_lesson(s, which);

	if (i < 0) {
		fprintf(stderr, "sandpit: no lesson '%s' (a number from 1 to %zu, or "
			"a lesson's file name: sandpit learn --list)\n", which, s->n);
		return 2;
	}
	return learn_grade(&s->v[i], i + 1, cfg, files, n, json);
}

/* What `sandpit learn` was asked: its own flags, and the rest (argv[0]
 * first, NULL-ended) for the playground's options. */
struct learn_args {
	bool reset, list, verify, json;
	const char *check_lesson;
	char **check_files;         /* into argv */
	size_t n_check;
	char **rest;
	int nrest;
};

static void learn_help(void)
{
	printf("usage: sandpit learn [--lessons DIR] [--step] [OPTIONS]\n"
	       "                 the playground on the lessons\n"
	       "       sandpit learn --reset     forget the progress\n"
	       "       sandpit learn --list   [--lessons DIR]   the lessons, "
	       "and broken files\n"
	       "       sandpit learn --verify [--lessons DIR]   each start "
	       "must fail, each solution pass\n"
	       "       sandpit learn --check LESSON FILE... [--json] [--lessons DIR]\n"
	       "                 judge programs, or a class folder of *.py (exit 0 all "
	       "passed,\n                 1 one not yet, 2 one not judged)\n"
	       "OPTIONS are the playground's (sandpit --help); the lesson "
	       "format: docs/lessons.md\n");
}

/* Our own flags out of argv into a; the rest are the playground's.
 * Returns -1 to go on, else the exit status. */
static int split_args(struct learn_args *a, int argc, char **argv)
{
	a->rest[a->nrest++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--reset"))
			a->reset = true;
		else if (!strcmp(argv[i], "--list"))
			a->list = true;
		else if (!strcmp(argv[i], "--verify"))
			a->verify = true;
		else if (!strcmp(argv[i], "--json"))
			a->json = true;
		else if (!strcmp(argv[i], "--check")) {
			if (i + 2 >= argc || argv[i + 2][0] == '-') {
				fprintf(stderr, "sandpit: --check needs a LESSON (its number "
					"or file name) and program FILEs (or a class folder)\n");
				return 2;
			}
			a->check_lesson = argv[++i];
			a->check_files = argv + i + 1;
			/* every word up to the next option is a program or a folder */
			while (i + 1 < argc && argv[i + 1][0] != '-') {
				i++;
				a->n_check++;
			}
		}
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			learn_help();
			return 0;
		}
		else
			a->rest[a->nrest++] = argv[i];
	}
	a->rest[a->nrest] = NULL;
	return -1;
}

/* --reset */
static int reset_progress(void)
{
	char path[CONFIG_PATH_MAX], err[600];

	if (lesson_progress_reset(path, sizeof path, err, sizeof err) < 0) {
		fprintf(stderr, "sandpit: progress not reset: %s\n", err);
		return 1;
	}
	printf("lesson progress cleared (%s)\n", path);
	return 0;
}

/* A broken file of the teacher's is said, not fatal to the others. */
static void say_broken(const struct lesson_set *set)
{
	for (size_t i = 0; i < set->n_errors; i++)
		fprintf(stderr, "sandpit: lesson: %s\n", set->errors[i]);
}

/* --list and --verify over the lessons (loaded: lesson_set_load's
 * answer); 1 when the lessons did not load whole, a file is broken or a
 * lesson does not behave. */
static int list_and_verify(const struct learn_args *a, const struct lesson_set *set,
			   int loaded, const struct pg_config *cfg)
{
	struct lesson_progress prog;
	char err[600];
	int rc = loaded < 0 || set->n_errors ? 1 : 0;

	if (lesson_progress_load(&prog, err, sizeof err) < 0 && a->list)
		fprintf(stderr, "sandpit: %s\n", err);
	if (a->list)
		list_lessons(set, &prog);
	if (a->verify && verify_lessons(set, cfg))
		rc = 1;
	lesson_progress_free(&prog);
	return rc;
}

/* --list, --verify, --check: headless, over the config and the lessons. */
static int teach(const struct learn_args *a)
{
	struct pg_config cfg;
	struct lesson_set set;
	char usage[512];
	int loaded, rc;

	if (config_load(&cfg, a->nrest, a->rest, usage, sizeof usage) < 0) {
		fprintf(stderr, "sandpit: %s\n", usage);
		return 2;
	}
	loaded = lesson_set_load(&set, cfg.lessons_dir);
	say_broken(&set);
	if (a->check_lesson)
		rc = check_programs(&set, &cfg, a->check_lesson, a->check_files, a->n_check,
				    a->json);
	else
		rc = list_and_verify(a, &set, loaded, &cfg);
	lesson_set_free(&set);
	return rc;
}

int cmd_learn(int argc, char **argv)
{
	struct learn_args a = { .rest = calloc((size_t)argc + 1, sizeof *a.rest) };
	int rc;

	if (!a.rest) {
		fprintf(stderr, "sandpit: out of memory\n");
		return 1;
	}
	if ((rc = split_args(&a, argc, argv)) < 0) {
		if (a.reset)
			rc = reset_progress();
		else if (!a.list && !a.verify && !a.check_lesson)
			rc = playground_learn(a.nrest, a.rest);
		else
			rc = teach(&a);
	}
	free(a.rest);
	return rc;
}
