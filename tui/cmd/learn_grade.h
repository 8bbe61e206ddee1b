/* SPDX-License-Identifier: MIT */
/*
 * learn_grade.h - `sandpit learn --check LESSON FILE...`: learners'
 * programs judged against one lesson, headless, as the playground would,
 * for a teacher with a class folder.
 *
 * Each FILE is a program, or a directory whose *.py files (sorted by
 * name, not its subdirectories) are each one. One file alone prints the
 * verdict as it always did ("lesson 4 (04_time): passed"); several print
 * one line a file and a closing "N passed, M not yet" line; with --json
 * each file is one JSON object a line on stdout (the closing line goes
 * to stderr), with each condition's verdict. The exit status is the
 * worst: 0 all passed, 1 one not yet, 2 a file that could not be judged
 * (unreadable, not a program, a run that did not start).
 */
#ifndef LEARN_GRADE_H
#define LEARN_GRADE_H

#include <stdbool.h>
#include <stddef.h>

struct lesson;
struct pg_config;

/* Judge files[0..n) against lesson number no (1-based) l. */
int learn_grade(const struct lesson *l, long no, const struct pg_config *cfg,
		char *const *files, size_t n, bool json);

#endif
