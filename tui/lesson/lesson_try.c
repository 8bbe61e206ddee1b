/* SPDX-License-Identifier: MIT */
/*
 * lesson_try.c - run a lesson's program in the sandbox as a learner
 * would, and judge it: the lesson's limits and files, `runs` runs with
 * each run's carry_out merged into the next run's carry-in (what F2
 * does), stopping at the first run the check passes; then each [again]
 * once, on its own inputs. `sandpit learn --verify` and `--check`, the
 * playground's [again] runs and the integration tests use it.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson/lesson.h"
#include "banned.h"

/* nftw: remove what the keep dir holds, deepest first. */
static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* A fresh keep dir for one run, as the playground keeps a run's files
 * (so "kept" and "picture" conditions are judged the same). "" when none
 * could be made. */
static void keep_dir_new(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, len, "%s/sandpit-lesson-keep.XXXXXX",
		 tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir))
		dir[0] = '\0';
}

/* One run of program with the lesson's limits over base, the staged
 * files, carry-in and stdin; judged (main check when again < 0, else
 * [again] again) while its kept files still exist. 0, or -1 with err. */
static int run_judged(const struct lesson *l, long again, const char *program,
		      const struct sp_limits *base, const char *python,
		      const struct lesson_stage *st, const char *carry,
		      const char *in, size_t in_len, bool *passed, char **carry_out,
		      char *verdict, size_t vlen, struct lesson_checks *rec,
		      struct sp_error *err)
{
	struct sp_config c;
	struct sp_result *r = NULL;
	struct lesson_seen seen = { .program = program, .carry_in = carry, .rec = rec };
	char keep[4096];

	sp_config_init(&c);
	c.python = python;
	c.code = program;
	c.code_len = strlen(program);
	c.filename = "lesson.py";
	c.carry_in = carry;
	c.carry_in_len = carry ? strlen(carry) : 0;
	c.stdin_data = in;
	c.stdin_len = in ? in_len : 0;
	c.keep_output = true;
	c.limits = *base;
	lesson_apply_limits(l, &c.limits);
	c.files_in = st->in;
	c.n_files_in = st->n;
	keep_dir_new(keep, sizeof keep);
	c.keep_dir = keep[0] ? keep : NULL;
	int started = sp_run_blocking(&c, &r, err);
	if (started >= 0) {
		*passed = again < 0 ? lesson_judge_seen(l, &seen, r, verdict, vlen)
				    : lesson_again_judge(l, (size_t)again, &seen, r,
							 verdict, vlen);
		if (carry_out)
			*carry_out = r->carry_out ? strdup(r->carry_out) : NULL;
		sp_result_free(r);
	}
	if (keep[0])
		nftw(keep, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return started < 0 ? -1 : 0;
}

static int again_run(const struct lesson *l, size_t k, const char *program,
		     const struct sp_limits *base, const char *python,
		     bool *passed, char *verdict, size_t vlen, struct lesson_checks *rec,
		     struct sp_error *err)
{
	const struct lesson_again *g = &l->again[k];
	struct lesson_stage st;
	int rc;

	*passed = false;
	if (lesson_stage_again(l, k, &st, err->msg, sizeof err->msg) < 0)
		return -1;
	rc = run_judged(l, (long)k, program, base, python, &st, g->carry,
			g->stdin_text, g->stdin_len, passed, NULL, verdict, vlen, rec, err);
	lesson_stage_remove(&st);
	return rc;
}

int lesson_again_run(const struct lesson *l, size_t k, const char *program,
		     const struct sp_limits *base, const char *python,
		     bool *passed, char *verdict, size_t vlen, struct sp_error *err)
{
	return again_run(l, k, program, base, python, passed, verdict, vlen, NULL, err);
}

int lesson_try(const struct lesson *l, const char *program,
	       const struct sp_limits *base, const char *python,
	       bool *passed, unsigned *runs_done, char *verdict, size_t vlen,
	       struct sp_error *err)
{
	return lesson_try_checks(l, program, base, python, passed, runs_done, verdict,
				 vlen, NULL, err);
}

int lesson_try_checks(const struct lesson *l, const char *program,
		      const struct sp_limits *base, const char *python,
		      bool *passed, unsigned *runs_done, char *verdict, size_t vlen,
		      struct lesson_checks *rec, struct sp_error *err)
{
	struct lesson_stage st;
	char *carry = NULL;
	int rc = 0;

	*passed = false;
	*runs_done = 0;
	verdict[0] = '\0';
	if (lesson_stage_files(l, &st, err->msg, sizeof err->msg) < 0)
		return -1;
	for (unsigned i = 0; i < l->runs && !*passed; i++) {
		char *out = NULL;
		if (rec)
			rec->n = 0;           /* the main check's last run only */
		if (run_judged(l, -1, program, base, python, &st, carry, NULL, 0,
			       passed, &out, verdict, vlen, rec, err) < 0) {
			rc = -1;
			break;
		}
		(*runs_done)++;
		if (out) {
			char *merged = sp_carry_merge(carry, out, NULL, err);
			if (merged) {
				free(carry);
				carry = merged;
			}
			free(out);
		}
	}
	free(carry);
	lesson_stage_remove(&st);
	/* the fixed answer passes the main check at most: the [again]s tell */
	for (size_t k = 0; rc == 0 && *passed && k < l->n_again; k++)
		if (again_run(l, k, program, base, python, passed, verdict, vlen, rec,
			      err) < 0)
			rc = -1;
	return rc;
}
