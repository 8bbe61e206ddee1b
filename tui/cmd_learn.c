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
 *
 * --list and --verify exit 1 when a lesson file is broken or a lesson
 * does not behave, so a teacher can check a new lesson in a second.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "lesson.h"
#include "lesson_progress.h"
#include "playground.h"
#include "sanitize.h"
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
			printf("FAIL %s: a run did not start: %s\n", l->id, err.msg);
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
		if (ps || !po)
			bad = 1;
	}
	return bad;
}

int cmd_learn(int argc, char **argv)
{
	bool reset = false, list = false, verify = false;
	char **rest = calloc((size_t)argc + 1, sizeof *rest);
	int nrest = 0, rc;

	if (!rest) {
		fprintf(stderr, "sandpit: out of memory\n");
		return 1;
	}
	/* our own flags out; the rest are the playground's */
	rest[nrest++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--reset"))
			reset = true;
		else if (!strcmp(argv[i], "--list"))
			list = true;
		else if (!strcmp(argv[i], "--verify"))
			verify = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			free(rest);
			printf("usage: sandpit learn [--lessons DIR] [--step] [OPTIONS]\n"
			       "                 the playground on the lessons\n"
			       "       sandpit learn --reset     forget the progress\n"
			       "       sandpit learn --list   [--lessons DIR]   the lessons, "
			       "and broken files\n"
			       "       sandpit learn --verify [--lessons DIR]   each start "
			       "must fail, each solution pass\n"
			       "OPTIONS are the playground's (sandpit --help); the lesson "
			       "format: docs/lessons.md\n");
			return 0;
		}
		else
			rest[nrest++] = argv[i];
	}
	rest[nrest] = NULL;

	if (reset) {
		char path[CONFIG_PATH_MAX], err[600];
		free(rest);
		if (lesson_progress_reset(path, sizeof path, err, sizeof err) < 0) {
			fprintf(stderr, "sandpit: progress not reset: %s\n", err);
			return 1;
		}
		printf("lesson progress cleared (%s)\n", path);
		return 0;
	}
	if (!list && !verify) {
		rc = playground_learn(nrest, rest);
		free(rest);
		return rc;
	}

	struct pg_config cfg;
	struct lesson_set set;
	struct lesson_progress prog;
	char usage[512], err[600];

	if (config_load(&cfg, nrest, rest, usage, sizeof usage) < 0) {
		fprintf(stderr, "sandpit: %s\n", usage);
		free(rest);
		return 2;
	}
	free(rest);
	rc = lesson_set_load(&set, cfg.lessons_dir);
	for (size_t i = 0; i < set.n_errors; i++)
		fprintf(stderr, "sandpit: lesson: %s\n", set.errors[i]);
	if (set.n_errors)
		rc = -1;
	if (lesson_progress_load(&prog, err, sizeof err) < 0 && list)
		fprintf(stderr, "sandpit: %s\n", err);
	if (list)
		list_lessons(&set, &prog);
	if (verify && verify_lessons(&set, &cfg))
		rc = -1;
	lesson_progress_free(&prog);
	lesson_set_free(&set);
	return rc < 0 ? 1 : 0;
}
