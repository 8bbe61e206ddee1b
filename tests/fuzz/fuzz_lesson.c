/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/lesson/lesson_parse.c tui/lesson/lesson_check.c tui/config/limit_fields.c tui/text/sanitize.c core/limits.c core/violations.c core/util.c core/buf.c tui/image/image_decode.c */
/* fuzz-pkgs: libpng libjpeg */
/*
 * fuzz_lesson.c - random lesson files through the parser and the check.
 *
 * Whatever the text, parsing must not crash or leak; an error is one
 * message "fuzz.lesson:LINE: ..." with LINE inside the text; a lesson
 * that parses has every required part, and its check can be judged
 * against an empty result and a busy one without crashing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lesson l;
	char err[600], msg[700];
	int rc = lesson_parse((const char *)data, size, "fuzz.lesson", "fuzz", &l,
			      err, sizeof err);

	if (rc != 0) {
		int line = 0;
		size_t lines = 1;
		CHECK(rc == -1);
		CHECK(sscanf(err, "fuzz.lesson:%d:", &line) == 1);
		for (size_t i = 0; i < size; i++)
			lines += data[i] == '\n';
		CHECK(line >= 1 && (size_t)line <= lines);
		return 0;
	}
	CHECK(l.title && l.goal && l.start && l.solution && l.n_conds > 0);
	CHECK(l.runs >= 1 && l.runs <= LESSON_MAX_RUNS);

	struct sp_result r;
	memset(&r, 0, sizeof r);
	sp_limits_default(&r.limits);
	(void)lesson_judge(&l, &r, msg, sizeof msg);
	CHECK(strlen(msg) < sizeof msg);

	struct sp_violation v = { .kind = SP_VIOL_NETWORK, .what = "x", .line = 3 };
	struct sp_file f = { .path = "chart.png", .bytes = 1, .kept = "k/chart.png" };
	r.status = SP_STATUS_ERROR;
	r.out = (char *)data;
	r.out_len = size;
	r.err = (char *)data;
	r.err_len = size;
	r.violations = &v;
	r.n_violations = 1;
	r.files = &f;
	r.n_files = 1;
	r.carry_out = "{\"total\": 60, \"batch\": [1, {\"a\": null}]}";
	(void)lesson_judge(&l, &r, msg, sizeof msg);
	lesson_free(&l);
	return 0;
}
