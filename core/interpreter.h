/* SPDX-License-Identifier: MIT */
/*
 * interpreter.h - the interpreter a run drives, and what the build gives
 * it: the oldest Python the prelude runs on, the interpreter's /etc
 * directories, the prelude (its text, and compiled once by the build),
 * and matplotlib's font list. Layer: above base.h.
 *
 * Invariants: nothing here runs the interpreter (a version is read from
 * its name and its files); the embedded arrays are the build's (build/gen)
 * and never change at run time; a length of 0 means the build had none,
 * and every user then does without.
 */
#ifndef SP_INTERPRETER_H
#define SP_INTERPRETER_H

#include "base.h"

/* python_version.c: the oldest Python the prelude runs on (see there).
 * name_version: X.Y from the name python resolves to, -1 when it does not
 * say; check_name: -1 with err set when that name is too old. */
#define SP_PYTHON_MIN_MAJOR 3
#define SP_PYTHON_MIN_MINOR 8
int sp_python_name_version(const char *python, unsigned *major, unsigned *minor);
bool sp_python_supported(unsigned major, unsigned minor);
int sp_python_check_name(const char *python, struct sp_error *err);
/* The interpreter's /etc/python3.N directories (Debian keeps its
 * sitecustomize there): the one its name says, or every one /etc has
 * when the name says none (a wrapper script). Up to max; how many. */
size_t sp_python_etc_dirs(const char *python, char (*dirs)[32], size_t max);

extern const char sp_prelude_py[];
extern const unsigned long sp_prelude_py_len;
extern const unsigned char sp_prelude_pyc[];
extern const unsigned long sp_prelude_pyc_len;
/* prelude_pyc.c: true when python can run the build's precompiled prelude. */
bool sp_prelude_pyc_fits(const char *python);

/* build/gen/mpl_fontlist.c: matplotlib's font list for /cache/matplotlib
 * (length 0 when the build had no matplotlib). */
extern const char sp_mpl_fontlist_name[];
extern const unsigned char sp_mpl_fontlist[];
extern const unsigned long sp_mpl_fontlist_len;

#endif
