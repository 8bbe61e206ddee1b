/* SPDX-License-Identifier: MIT */
/*
 * seccomp_names.h - the flags and requests the filter denies by value,
 * listed once: seccomp_rules.c makes one rule of each, seccomp.c names
 * them in a record ("clone(CLONE_NEWUSER|CLONE_NEWNS)", "ioctl(TIOCSTI)").
 * Each list is an X-macro: X(NAME) for every entry, so a flag added here
 * is both denied and named.
 *
 * Included by seccomp.c and seccomp_rules.c only.
 */
#ifndef SP_SECCOMP_NAMES_H
#define SP_SECCOMP_NAMES_H

#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>

/* older headers lack these two */
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif
#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* clone's namespace flags: every one denied (unshare and setns with
 * them too, as whole calls) */
#define SP_CLONE_NS_LIST(X) \
	X(CLONE_NEWUSER) X(CLONE_NEWNS) X(CLONE_NEWPID) X(CLONE_NEWNET) \
	X(CLONE_NEWUTS) X(CLONE_NEWIPC) X(CLONE_NEWCGROUP) X(CLONE_NEWTIME)

#define SP_FLAG_OR_(f) | (uint64_t)(f)
#define SP_CLONE_NS_FLAGS (0 SP_CLONE_NS_LIST(SP_FLAG_OR_))

/* ioctl requests that reach outside the program's terminal: TIOCSTI
 * types into it (CVE-2017-5226 in bubblewrap), TIOCLINUX reads and
 * pastes the Linux console's selection */
#define SP_DENIED_IOCTL_LIST(X) X(TIOCSTI) X(TIOCLINUX)

#endif
