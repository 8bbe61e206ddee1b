/*
 * lesson_try.c - run a lesson's program in the sandbox as a learner
 * would, and judge it: the lesson's limits and files, `runs` runs with
 * each run's carry_out merged into the next run's carry-in (what F2
 * does), stopping at the first run the check passes. `sandpit learn
 * --verify` and the integration tests use it to prove that a lesson's
 * starting program fails its check and its solution passes.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson.h"
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
 * (so "kept" conditions are judged the same). "" when none could be made. */
static void keep_dir_new(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, len, "%s/sandpit-lesson-keep.XXXXXX",
		 tmp && tmp[0] == '/' ? tmp : "/tmp");
	if (!mkdtemp(dir))
		dir[0] = '\0';
}

int lesson_try(const struct lesson *l, const char *program,
	       const struct sp_limits *base, const char *python,
	       bool *passed, unsigned *runs_done, char *verdict, size_t vlen,
	       struct sp_error *err)
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
		struct sp_config c;
		struct sp_result *r = NULL;
		char keep[4096];

		sp_config_init(&c);
		c.python = python;
		c.code = program;
		c.code_len = strlen(program);
		c.filename = "lesson.py";
		c.carry_in = carry;
		c.carry_in_len = carry ? strlen(carry) : 0;
		c.keep_output = true;
		c.limits = *base;
		lesson_apply_limits(l, &c.limits);
		c.files_in = st.in;
		c.n_files_in = st.n;
		keep_dir_new(keep, sizeof keep);
		c.keep_dir = keep[0] ? keep : NULL;
		int started = sp_run_blocking(&c, &r, err);
		if (keep[0])
			nftw(keep, remove_one, 16, FTW_DEPTH | FTW_PHYS);
		if (started < 0) {
			rc = -1;
			break;
		}
		*passed = lesson_judge(l, r, verdict, vlen);
		(*runs_done)++;
		if (r->carry_out) {
			char *merged = sp_carry_merge(carry, r->carry_out, NULL, err);
			if (merged) {
				free(carry);
				carry = merged;
			}
		}
		sp_result_free(r);
	}
	free(carry);
	lesson_stage_remove(&st);
	return rc;
}
