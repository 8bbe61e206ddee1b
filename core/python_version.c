/* SPDX-License-Identifier: MIT */
/*
 * python_version.c - can sandpit drive this interpreter?
 *
 * The prelude needs Python 3.8 or newer: audit hooks (PEP 578, 3.8) tell
 * the supervisor which line did what, and -I (3.4) isolates the run from
 * the environment. An older interpreter would end in a traceback from the
 * prelude (3.4 to 3.7) or refuse -I (2.x), and that must never be shown
 * as the program's error. Two checks, each for what the other cannot see:
 *  - before the run, on the host, from the name the interpreter resolves
 *    to (/usr/bin/python3 -> python3.11, /usr/bin/python -> python2.7),
 *    without running anything;
 *  - in the sandbox, the prelude's first message on the channel says the
 *    version it runs under (a wrapper script's real one), and stops there
 *    when it is too old. No such message means the prelude never ran.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "interpreter.h"
#include "banned.h"

int sp_python_name_version(const char *python, unsigned *major, unsigned *minor)
{
	char real[PATH_MAX];
	const char *base;
	char tail;

	if (!realpath(python, real))
		return -1;
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	/* python3.11, python2.7, python3.6m; not python3 or pypy3 */
	if (sscanf(base, "python%u.%u%c", major, minor, &tail) < 2)
		return -1;
	return 0;
}

bool sp_python_supported(unsigned major, unsigned minor)
{
	return major > SP_PYTHON_MIN_MAJOR ||
	       (major == SP_PYTHON_MIN_MAJOR && minor >= SP_PYTHON_MIN_MINOR);
}

int sp_python_check_name(const char *python, struct sp_error *err)
{
	unsigned major, minor;

	if (sp_python_name_version(python, &major, &minor) < 0 ||
	    sp_python_supported(major, minor))
		return 0;
	return sp_fail(err, "%s is Python %u.%u; sandpit needs Python %d.%d or newer "
		       "(its prelude uses audit hooks, PEP 578): give --python a newer "
		       "interpreter", python, major, minor, SP_PYTHON_MIN_MAJOR, SP_PYTHON_MIN_MINOR);
}

size_t sp_python_etc_dirs(const char *python, char (*dirs)[32], size_t max)
{
	unsigned major, minor;
	size_t n = 0;
	DIR *d;
	struct dirent *de;

	if (max == 0)
		return 0;
	if (sp_python_name_version(python, &major, &minor) == 0) {
		snprintf(dirs[0], sizeof dirs[0], "/etc/python%u.%u", major, minor);
		return 1;
	}
	d = opendir("/etc");
	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		char tail;
		if (sscanf(de->d_name, "python3.%u%c", &minor, &tail) == 1)
			snprintf(dirs[n++], sizeof dirs[0], "/etc/%s", de->d_name);
	}
	closedir(d);
	return n;
}
