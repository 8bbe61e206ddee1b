/* SPDX-License-Identifier: MIT */
/*
 * test_buf.c - the growable buffer and array growth of core/buf.h: bytes
 * appended stay NUL-terminated, a detached buffer is the caller's, and a
 * size that would overflow fails with EOVERFLOW, the buffer unchanged.
 */
#include "testlib.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

static void test_appends_stay_terminated_and_detach_hands_over(void **state)
{
	struct sp_buf b = SP_BUF_INIT;
	size_t len = 99;
	char *s;

	(void)state;
	for (int i = 0; i < 10000; i++)
		assert_int_equal(sp_buf_add(&b, "ab", 2), 0);
	assert_int_equal(b.len, 20000);
	assert_true(b.cap > b.len);
	assert_int_equal(b.data[b.len], '\0');
	assert_int_equal(sp_buf_adds(&b, "!"), 0);
	s = sp_buf_detach(&b, &len);
	assert_int_equal(len, 20001);
	assert_int_equal(strlen(s), 20001);
	assert_int_equal(s[20000], '!');
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	free(s);
	s = sp_buf_detach(&b, &len); /* empty: "", never NULL */
	assert_non_null(s);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
}

static void test_an_overflowing_size_fails_and_leaves_the_buffer(void **state)
{
	struct sp_buf b = SP_BUF_INIT;

	(void)state;
	assert_int_equal(sp_buf_adds(&b, "keep"), 0);
	errno = 0;
	assert_int_equal(sp_buf_reserve(&b, SIZE_MAX - 2), -1);
	assert_int_equal(errno, EOVERFLOW);
	assert_int_equal(b.len, 4);
	assert_string_equal(b.data, "keep");
	sp_buf_free(&b);
	assert_null(b.data);
}

static void test_grow_doubles_and_refuses_overflow(void **state)
{
	size_t cap = 0;
	uint64_t *a = NULL, *p;

	(void)state;
	a = sp_grow(a, &cap, 1, sizeof *a);
	assert_non_null(a);
	assert_true(cap >= 1);
	p = sp_grow(a, &cap, cap, sizeof *a); /* enough already: the same array */
	assert_ptr_equal(p, a);
	p = sp_grow(a, &cap, 1000, sizeof *a);
	assert_non_null(p);
	a = p;
	assert_true(cap >= 1000);
	a[999] = 7;
	errno = 0;
	size_t before = cap;
	assert_null(sp_grow(a, &cap, SIZE_MAX / 4, sizeof *a));
	assert_int_equal(errno, EOVERFLOW);
	assert_int_equal(cap, before);
	assert_int_equal(a[999], 7);
	free(a);
	assert_int_equal(SP_ARRAY_SIZE((int[7]){ 0 }), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_appends_stay_terminated_and_detach_hands_over),
		cmocka_unit_test(test_an_overflowing_size_fails_and_leaves_the_buffer),
		cmocka_unit_test(test_grow_doubles_and_refuses_overflow),
	};
	return cmocka_run_group_tests_name("buf", tests, NULL, NULL);
}
