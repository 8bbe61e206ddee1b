/* SPDX-License-Identifier: MIT */
/*
 * recovery.h - the recovery file: the Editor's unsaved text, written when
 * typing pauses and when sandpit is stopped (a signal, a lost terminal, a
 * crash), and offered at the next start.
 *
 * recovery.py holds the text, byte for byte; recovery.py.info beside it
 * says whose text it is: the buffer's file path, or its name when it had
 * none (a demo, "untitled"). The offer names that file and the time the
 * text was kept, restoring gives the buffer its file back, and a text
 * equal to what that file holds now is not offered at all.
 *
 * Invariants: nothing here deletes a recovery file except
 * recovery_remove(), which only an explicit, confirmed choice calls (or a
 * text equal to its saved file); moving aside never overwrites (link()).
 */
#ifndef RECOVERY_H
#define RECOVERY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

struct recovery_info {
	char path[4096];      /* the buffer's file, or "" */
	char name[256];       /* its name (the path's last part, or a demo's) */
	time_t when;          /* when the text was last kept (its mtime) */
};

/* Records whose text rec holds (writes rec.info; path may be NULL). 0 or
 * -1 (errno). A path with a newline is not recorded (the name still is). */
int recovery_note(const char *rec, const char *path, const char *name);

/* What rec holds: false when rec is missing or empty. An info file that
 * is missing or unreadable leaves path and name empty. */
bool recovery_read(const char *rec, struct recovery_info *ri);

/* True when rec's bytes are those of the file it came from, as saved. */
bool recovery_matches_saved(const char *rec, const struct recovery_info *ri);

/* Keeps rec (and its info) under a name of its own beside it:
 * recovery-YYYYmmdd-HHMMSS[-N].py. 0 with kept filled, or -1 (errno) with
 * nothing moved. */
int recovery_move_aside(const char *rec, char *kept, size_t keptlen);

/* How many texts recovery_move_aside() kept beside rec; the newest one's
 * path into newest ("" when none). */
size_t recovery_kept(const char *rec, char *newest, size_t len);

/* Deletes rec and its info. 0 or -1 (errno). */
int recovery_remove(const char *rec);

/* "loop.py (/home/ann/loop.py), kept at 09:12 on 1 Dec" into buf. */
void recovery_describe(const struct recovery_info *ri, char *buf, size_t len);

#endif
