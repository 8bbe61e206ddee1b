/*
 * lesson_try.c - run a lesson's program in the sandbox as a learner
 * would, and judge it: the lesson's limits and files, `runs` runs with
 * each run's carry_out merged into the next run's carry-in (what F2
 * does), stopping at the first run the check passes. `sandpit learn
 * --verify` and the integration tests use it to prove that a lesson's
 * starting program fails its check and its solution passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "banned.h"

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

		memset(&c, 0, sizeof c);
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
		if (sp_run_blocking(&c, &r, err) < 0) {
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
