/* SPDX-License-Identifier: MIT */
/*
 * attach.h - the files attached to the playground's runs (F7 / Ctrl-T):
 * host paths that go into the work dir of every run until detached, as
 * `sandpit run --file` does. The list is always on screen (the Resources
 * pane's title) so that nothing goes into a run unseen.
 *
 * Invariants: at most SP_MAX_FILES_IN entries; every path is absolute
 * (made so when attached) and was a readable regular file then, all of
 * them within the disk limit of that moment; the run checks each again (core/files_in.c) and refuses to start otherwise.
 */
#ifndef ATTACH_H
#define ATTACH_H

#include <stddef.h>
#include <stdint.h>

#include "sandpit.h"

struct attach_list {
	char *paths[SP_MAX_FILES_IN];
	struct sp_file_in in[SP_MAX_FILES_IN];  /* for sp_config */
	size_t n;
};

/* Attach path (checked now, as a run will, against the disk limit the
 * runs have now: the files attached already and this one must fit it).
 * 0, or -1 with err, which gives the sizes when they do not fit. */
int attach_add(struct attach_list *l, const char *path, uint64_t disk_bytes,
	       char *err, size_t errlen);
/* Detach entry i (0-based); all when i is (size_t)-1. */
void attach_remove(struct attach_list *l, size_t i);
void attach_free(struct attach_list *l);
/* "data.csv, b.csv" (base names, sanitized, cut to len). */
void attach_names(const struct attach_list *l, char *buf, size_t len);
/* The dialog's text: the numbered list and what to type. */
void attach_dialog_text(const struct attach_list *l, char *buf, size_t len);

#endif
