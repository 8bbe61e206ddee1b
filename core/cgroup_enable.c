/* SPDX-License-Identifier: MIT */
/*
 * cgroup_enable.c - which controllers a cgroup v2 directory hands to its
 * children.
 *
 * In the unified hierarchy a cgroup's children get a controller only when
 * the cgroup lists it in cgroup.subtree_control, and it can list only what
 * its own parent gave it (cgroup.controllers). The kernel refuses a write
 * there while the cgroup holds processes of its own (EBUSY, the "no
 * internal processes" rule), where the file is not ours (EACCES: not
 * delegated), and for cpu while a real-time thread is inside (EINVAL).
 * One write of "+memory +pids +cpu" is all or nothing, so each controller
 * is written on its own: a missing cpu then costs cpu alone, and each one
 * missing comes with its reason.
 *
 * The writes go through the caller's function, so a test can run this
 * against a plain directory and make any write fail (tests/unit).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "base.h"
#include "sandbox.h"
#include "banned.h"

static const struct {
	unsigned bit;
	const char *name;
} controllers[] = {
	{ SP_CG_MEMORY, "memory" },
	{ SP_CG_PIDS, "pids" },
	{ SP_CG_CPU, "cpu" },
};

/* The SP_CG_* bits named in a space-separated list such as
 * cgroup.controllers; 0 for a file that cannot be read. */
unsigned sp_cgroup_list_bits(const char *dir, const char *file, bool *readable)
{
	char path[PATH_MAX + 64];
	char *text, *save = NULL;
	unsigned bits = 0;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	text = sp_read_file(path, 4096, NULL);
	if (readable)
		*readable = text != NULL;
	if (!text)
		return 0;
	for (char *tok = text; (tok = strtok_r(tok, " \n", &save)); tok = NULL)
		for (size_t i = 0; i < SP_ARRAY_SIZE(controllers); i++)
			if (strcmp(tok, controllers[i].name) == 0)
				bits |= controllers[i].bit;
	free(text);
	return bits;
}

void sp_cgroup_bits_text(unsigned bits, char *out, size_t len)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < SP_ARRAY_SIZE(controllers) && n < len; i++)
		if (bits & controllers[i].bit)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? " " : "",
					      controllers[i].name);
}

/* Appends "; " and the text to why (always NUL-terminated). */
static void note(char *why, size_t len, const char *name, const char *text)
{
	size_t n = strlen(why);

	if (n < len)
		snprintf(why + n, len - n, "%s%s: %s", n ? "; " : "", name, text);
}

static const char *refusal(int e)
{
	switch (e) {
	case EBUSY:
		return "refused: the cgroup holds processes of its own (the kernel gives "
		       "controllers only to a cgroup without them)";
	case EACCES:
	case EPERM:
		return "refused: cgroup.subtree_control is not this user's (not delegated)";
	case ENOENT:
		return "refused: the kernel has no such controller here";
	case EINVAL:
		return "refused (EINVAL; for cpu: a real-time thread in the cgroup)";
	default:
		return strerror(e);
	}
}

unsigned sp_cgroup_enable(const char *dir, unsigned want, sp_cg_write_fn write_fn,
			  char *why, size_t why_len)
{
	char path[PATH_MAX + 64];
	bool readable;
	unsigned avail, on, got = 0;

	why[0] = '\0';
	avail = sp_cgroup_list_bits(dir, "cgroup.controllers", &readable);
	if (!readable) {
		snprintf(why, why_len, "cannot read %s/cgroup.controllers", dir);
		return 0;
	}
	on = sp_cgroup_list_bits(dir, "cgroup.subtree_control", &readable);
	if (!readable) {
		snprintf(why, why_len, "cannot read %s/cgroup.subtree_control", dir);
		return 0;
	}
	snprintf(path, sizeof path, "%s/cgroup.subtree_control", dir);
	for (size_t i = 0; i < SP_ARRAY_SIZE(controllers); i++) {
		unsigned bit = controllers[i].bit;
		char word[16];

		if (!(want & bit))
			continue;
		if (on & bit) {
			got |= bit;
			continue;
		}
		if (!(avail & bit)) {
			note(why, why_len, controllers[i].name, "not delegated (the parent cgroup does not give it)");
			continue;
		}
		snprintf(word, sizeof word, "+%s", controllers[i].name);
		errno = 0;
		if (write_fn(path, word) == 0)
			got |= bit;
		else
			note(why, why_len, controllers[i].name, refusal(errno ? errno : EIO));
	}
	return got;
}
