/* SPDX-License-Identifier: MIT */
/*
 * lesson_progress.h - which lessons a learner has passed, and where they
 * were: $XDG_STATE_HOME/sandpit/lessons.json, replaced atomically (a
 * temporary file, fsync, rename, fsync of the directory) so a crash
 * never leaves half a file.
 *
 *   { "version": 1, "current": "03_carry", "passed": ["01_network", ...] }
 *
 * Invariants: ids are the lessons' ids (lesson.h); a missing file is no
 * progress; an unreadable one is set aside as lessons.json.bad, never
 * written over, and said in err.
 */
#ifndef LESSON_PROGRESS_H
#define LESSON_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#define LESSON_PROGRESS_FILE "lessons.json"

struct lesson_progress {
	char **passed;
	size_t n, cap;
	char current[256];
	char path[1024];        /* "" when there is no state directory */
};

/* Load (a missing file is empty progress). 0, or -1 with err (progress
 * then empty, and saving still works). */
int lesson_progress_load(struct lesson_progress *p, char *err, size_t errlen);
void lesson_progress_free(struct lesson_progress *p);
bool lesson_progress_passed(const struct lesson_progress *p, const char *id);
/* Record a pass (if new) and save. 0, or -1 with err. */
int lesson_progress_pass(struct lesson_progress *p, const char *id,
			 char *err, size_t errlen);
/* Remember the lesson open now and save. 0, or -1 with err. */
int lesson_progress_set_current(struct lesson_progress *p, const char *id,
				char *err, size_t errlen);
/* Delete the progress file (`sandpit learn --reset`). 0, or -1 with err;
 * path gets the file's path. */
int lesson_progress_reset(char *path, size_t pathlen, char *err, size_t errlen);

#endif
