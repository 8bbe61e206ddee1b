/* SPDX-License-Identifier: MIT */
/*
 * config_abi.c - a caller's struct sp_config read as this library's.
 *
 * The caller compiled against some sandpit.h and says in cfg->size how
 * long its struct is (sp_config_init). Fields are only appended, and a
 * new field's zero means the old behaviour, so an older caller's shorter
 * struct is read as if the missing tail were zero. A newer caller's longer
 * struct is taken only when everything this library does not know is
 * zero: a field it would ignore is a request it cannot keep, so refuse
 * (as clone3 and openat2 refuse E2BIG) rather than run without it.
 */
#include <stddef.h>
#include <string.h>

#include "base.h"
#include "banned.h"

/* The first published layout (0.1.0) ended with keep_dir. */
#define SIZE_FIRST (offsetof(struct sp_config, keep_dir) + sizeof(const char *))

int sp_config_take(const struct sp_config *in, struct sp_config *out,
		   struct sp_error *err)
{
	const unsigned char *tail = (const unsigned char *)in + sizeof *out;

	if (in->size == 0)
		return sp_fail(err, "the run's struct sp_config has size 0: start it "
			       "with sp_config_init() (see sandpit.h)");
	if (in->size < SIZE_FIRST)
		return sp_fail(err, "the run's struct sp_config is %zu bytes, shorter "
			       "than any sandpit.h made it: start it with sp_config_init()",
			       in->size);
	for (size_t i = sizeof *out; i < in->size; i++)
		if (tail[i - sizeof *out])
			return sp_fail(err, "the program was built against a newer "
				       "sandpit.h and sets a config field this libsandpit %s "
				       "does not know: install the matching libsandpit",
				       SP_VERSION);
	memset(out, 0, sizeof *out);
	memcpy(out, in, in->size < sizeof *out ? in->size : sizeof *out);
	out->size = sizeof *out;
	if (out->columns > SP_MAX_COLUMNS || out->lines > SP_MAX_LINES)
		return sp_fail(err, "a terminal of %u columns and %u lines: give at most %d "
			       "columns and %d lines (0 for none)", out->columns, out->lines,
			       SP_MAX_COLUMNS, SP_MAX_LINES);
	return 0;
}
