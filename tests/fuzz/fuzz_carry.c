/* SPDX-License-Identifier: MIT */
/* fuzz-sources: core/carry.c core/pykeywords.c core/json_dump.c core/util.c core/units.c core/buf.c */
/* fuzz-pkgs: jansson libutf8proc */
/*
 * fuzz_carry.c - random text through the carry buffer's two entry points.
 *
 * The input is split at its first NUL byte into a carry-in text and a
 * carry-out text. Whatever they hold:
 *  - sp_carry_validate must not crash, and must answer with a message
 *    when it refuses (an empty message would leave the person guessing);
 *  - sp_carry_merge must not crash; when it gives a buffer, that buffer
 *    must itself validate when both sides did (a merge must never
 *    produce a carry-in the next run refuses).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandpit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CARRY (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t in_len = nul ? (size_t)(nul - data) : size;
	char *in = malloc(in_len + 1), *out = NULL, *merged, **changed = NULL;
	struct sp_error err = { "" };
	int in_ok, out_ok = 0;

	if (!in)
		return 0;
	memcpy(in, data, in_len);
	in[in_len] = '\0';
	in_ok = sp_carry_validate(in, in_len, MAX_CARRY, &err) == 0;
	if (!in_ok && !err.msg[0])
		abort(); /* a refusal must say why */

	/* a small cap must refuse anything longer, with a message */
	err.msg[0] = '\0';
	if (in_len > 8 && sp_carry_validate(in, in_len, 8, &err) == 0)
		abort();

	if (nul) {
		size_t out_len = size - in_len - 1;
		out = malloc(out_len + 1);
		if (!out) {
			free(in);
			return 0;
		}
		memcpy(out, nul + 1, out_len);
		out[out_len] = '\0';
		/* strlen: jansson's json_loads stops at the first NUL anyway */
		out_ok = sp_carry_validate(out, strlen(out), MAX_CARRY, &err) == 0;
	}
	err.msg[0] = '\0';
	merged = sp_carry_merge(in, out, &changed, &err);
	if (!merged && !err.msg[0])
		abort();
	if (merged) {
		struct sp_error err2 = { "" };
		/* both sides valid: the merge must be a valid carry-in too */
		if (in_ok && (out_ok || !out) && strlen(merged) <= MAX_CARRY &&
		    sp_carry_validate(merged, strlen(merged), MAX_CARRY, &err2) != 0) {
			fprintf(stderr, "merge of two valid buffers does not validate: %s\n",
				err2.msg);
			abort();
		}
	}
	if (changed) {
		for (size_t i = 0; changed[i]; i++)
			free(changed[i]);
		free(changed);
	}
	free(merged);
	free(out);
	free(in);
	return 0;
}
