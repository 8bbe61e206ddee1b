/* SPDX-License-Identifier: MIT */
/*
 * version.c - the library's own version. A program built against one
 * sandpit.h may run with a newer libsandpit.so.0: SP_VERSION is what it
 * was compiled with, sp_version() what it runs with.
 */
#include "sandpit.h"
#include "banned.h"

/* The version of this library as "MAJOR.MINOR.PATCH"; static storage. */
const char *sp_version(void)
{
	return SP_VERSION;
}
