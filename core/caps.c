/* SPDX-License-Identifier: MIT */
/*
 * caps.c - drop every capability, for good.
 *
 * The bounding set is cleared first, while CAP_SETPCAP is still held; the
 * ambient set is cleared; then effective, permitted and inheritable become
 * empty, and no_new_privs makes sure no exec can give any of it back
 * (setuid binaries, file capabilities).
 */
#include <errno.h>
#include <sys/capability.h>
#include <sys/prctl.h>

#include "base.h"
#include "sandbox.h"
#include "banned.h"

int sp_caps_drop_all(struct sp_error *err)
{
	cap_t none;
	int last = (int)cap_max_bits();

	for (int c = 0; c < last; c++) {
		if (cap_get_bound((cap_value_t)c) <= 0)
			continue;
		if (cap_drop_bound((cap_value_t)c) < 0)
			return sp_fail_errno(err, "caps: drop %s from the bounding set",
					     cap_to_name((cap_value_t)c));
	}
	if (cap_reset_ambient() < 0 && errno != EINVAL)
		return sp_fail_errno(err, "caps: clear the ambient set");
	none = cap_init();
	if (!none)
		return sp_fail_errno(err, "caps: cap_init");
	if (cap_set_proc(none) < 0) {
		cap_free(none);
		return sp_fail_errno(err, "caps: clear all capability sets");
	}
	cap_free(none);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return sp_fail_errno(err, "caps: no_new_privs");
	return 0;
}
