/*
 * testlib.h - shared helpers for the C test programs (cmocka).
 * Each test file includes this, then defines its tests and a main() that
 * calls cmocka_run_group_tests_name().
 */
#ifndef SP_TESTLIB_H
#define SP_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#endif
