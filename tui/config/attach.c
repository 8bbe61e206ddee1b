/* SPDX-License-Identifier: MIT */
/*
 * attach.c - the playground's attached files: a small list of absolute
 * host paths, checked on the way in with the engine's own rules
 * (sp_files_in_check: a readable regular file, a good name, no clash, it
 * fits the disk limit), so a bad path is refused at the prompt, not at
 * the next F5.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/attach.h"
#include "text/sanitize.h"
#include "banned.h"

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

int attach_add(struct attach_list *l, const char *path, uint64_t disk_bytes,
	       char *err, size_t errlen)
{
	char abs[PATH_MAX];
	struct sp_config cfg;
	struct sp_error e = { "" };

	if (l->n == SP_MAX_FILES_IN) {
		snprintf(err, errlen, "%d files are attached already: detach one first",
			 SP_MAX_FILES_IN);
		return -1;
	}
	if (!realpath(path, abs)) {
		snprintf(err, errlen, "'%s' cannot be attached: no such file", path);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->paths[i], abs)) {
			snprintf(err, errlen, "'%s' is attached already", path);
			return -1;
		}
	l->paths[l->n] = strdup(abs);
	if (!l->paths[l->n]) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	l->in[l->n].host_path = l->paths[l->n];
	l->in[l->n].name = NULL;
	sp_config_init(&cfg);
	cfg.limits.disk_bytes = disk_bytes; /* the run checks again, at its own limit */
	cfg.files_in = l->in;
	cfg.n_files_in = l->n + 1;
	if (sp_files_in_check(&cfg, &e) < 0) {
		char *clean = sanitize_dup(e.msg, true);
		snprintf(err, errlen, "not attached: %s", clean ? clean : "bad file");
		free(clean);
		free(l->paths[l->n]);
		l->paths[l->n] = NULL;
		return -1;
	}
	l->n++;
	return 0;
}

void attach_remove(struct attach_list *l, size_t i)
{
	if (i == (size_t)-1) {
		attach_free(l);
		return;
	}
	if (i >= l->n)
		return;
	free(l->paths[i]);
	memmove(&l->paths[i], &l->paths[i + 1], (l->n - i - 1) * sizeof l->paths[0]);
	memmove(&l->in[i], &l->in[i + 1], (l->n - i - 1) * sizeof l->in[0]);
	l->n--;
}

void attach_free(struct attach_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->paths[i]);
	l->n = 0;
}

void attach_names(const struct attach_list *l, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n && used + 1 < len; i++) {
		char *clean = sanitize_dup(base_name(l->paths[i]), true);
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 clean ? clean : "?");
		free(clean);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
}

void attach_dialog_text(const struct attach_list *l, char *buf, size_t len)
{
	size_t used = 0;
	int w;

	if (!l->n)
		w = snprintf(buf, len, "No files attached. Type a path: the file goes into "
			     "the work dir of every run until detached.");
	else
		w = snprintf(buf, len, "Attached (every run gets a copy):");
	used = w > 0 && (size_t)w < len ? (size_t)w : len - 1;
	for (size_t i = 0; i < l->n && used + 1 < len; i++) {
		char *clean = sanitize_dup(base_name(l->paths[i]), true);
		w = snprintf(buf + used, len - used, "  %zu %s", i + 1, clean ? clean : "?");
		free(clean);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	if (l->n && used + 1 < len)
		snprintf(buf + used, len - used, ". A path attaches one more; -N "
			 "detaches number N, - detaches all.");
}
