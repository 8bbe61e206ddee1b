/* SPDX-License-Identifier: MIT */
/*
 * prelude_pyc.c - may this run use the prelude compiled at build time?
 *
 * Compiling the prelude costs a fresh interpreter about 6 ms, every run
 * (runs are stateless and the root is read-only, so Python keeps no .pyc).
 * The build compiles it once with /usr/bin/python3 (tools/embed_pyc.py).
 * Bytecode is only good for interpreters with the same magic number, which
 * every .pyc of the interpreter's own standard library carries in its
 * first four bytes: pythonX.Y's lib/pythonX.Y/__pycache__/os.cpython-XY.pyc.
 * When it cannot be read or differs, the run compiles the source instead.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interpreter.h"
#include "banned.h"

bool sp_prelude_pyc_fits(const char *python)
{
	char real[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 64];
	unsigned char magic[4];
	const char *base;
	char *slash;
	unsigned major, minor;
	int fd;
	ssize_t n;

	if (sp_prelude_pyc_len < 16 || !realpath(python, real))
		return false;
	base = strrchr(real, '/');
	if (!base || sscanf(base + 1, "python%u.%u", &major, &minor) != 2)
		return false;
	/* /prefix/bin/pythonX.Y -> /prefix */
	snprintf(dir, sizeof dir, "%s", real);
	slash = strrchr(dir, '/');
	if (!slash)
		return false;
	*slash = '\0';
	slash = strrchr(dir, '/');
	if (!slash)
		return false;
	*slash = '\0';
	snprintf(path, sizeof path, "%s/lib/python%u.%u/__pycache__/os.cpython-%u%u.pyc",
		 dir, major, minor, major, minor);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, magic, sizeof magic);
	close(fd);
	return n == (ssize_t)sizeof magic && memcmp(magic, sp_prelude_pyc, 4) == 0;
}
