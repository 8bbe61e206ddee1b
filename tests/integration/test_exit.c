/* SPDX-License-Identifier: MIT */
/*
 * test_exit.c - a cold run ends as `python3 FILE` does, whatever the
 * prelude does around the program's end (docs/performance.md tells of an
 * early exit tried and not kept for what it would have broken). What a
 * program can see of its end: the exit status of every kind of
 * SystemExit; finalizers, atexit, threads, weakref.finalize, an object a
 * module holds and a file left open, in Python's order; a FILE the C
 * library buffers (flushed by exit()); a failed last flush of a replaced
 * stdout (status 120); an audit hook of the program's, which sees the
 * interpreter's clear; files left open through state only the
 * interpreter's teardown frees (a context variable, a fork handler, a
 * profile function) and a codec search function's finalizer; and what
 * an atexit function does last (ctypes loaded then, stdout replaced then).
 */
#include "itest.h"

static struct sp_result *run_named(const char *code, const char *tag)
{
	char *name = it_name(tag);
	struct sp_result *r = it_run(code, name);

	free(name);
	return r;
}

static uint64_t file_bytes(const struct sp_result *r, const char *path)
{
	const struct sp_file *f = it_file(r, path);

	if (!f)
		fail_msg("the run left no %s", path);
	return f ? f->bytes : 0;
}

static void test_every_kind_of_exit_has_pythons_status(void **state)
{
	static const struct { const char *code; int status; } cases[] = {
		{ "print('end')\n", 0 },
		{ "import sys\nsys.exit()\n", 0 },
		{ "import sys\nsys.exit(None)\n", 0 },
		{ "import sys\nsys.exit(3)\n", 3 },
		{ "raise SystemExit(7)\n", 7 },
		{ "import sys\nsys.exit(256 + 4)\n", 4 },
		{ "import sys\nsys.exit(-1)\n", 255 },
		{ "import sys\nsys.exit(2 ** 70)\n", 255 },
		{ "import sys\nsys.exit(True)\n", 1 },
		{ "import sys\nsys.exit('a message')\n", 1 },
		{ "class Code(int):\n    def __and__(self, o): return 0\n"
		  "import sys\nsys.exit(Code(9))\n", 9 },
		{ "1 / 0\n", 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sp_result *r = run_named(cases[i].code, "exit");
		if (r->exit_code != cases[i].status) {
			it_dump(r);
			fail_msg("%s: exit %d, Python gives %d", cases[i].code, r->exit_code,
				 cases[i].status);
		}
		if (strstr(cases[i].code, "a message"))
			IT_CHECK(r, it_contains(it_err(r), "a message"));
		sp_result_free(r);
	}
}

static void test_finalizers_atexit_and_threads_run_in_pythons_order(void **state)
{
	struct sp_result *r = run_named(
		"import atexit, threading, time, weakref, json\n"
		"class Loud:\n"
		"    def __init__(s, n): s.n = n\n"
		"    def __del__(s): print('del', s.n)\n"
		"a = Loud('global')\n"
		"b = Loud('cycle'); b.me = b\n"
		"atexit.register(print, 'atexit')\n"
		"def late(): time.sleep(0.1); print('thread done')\n"
		"threading.Thread(target=late).start()\n"
		"class K: pass\n"
		"k = K(); weakref.finalize(k, print, 'finalize')\n"
		"json.held = Loud('in a module')\n"
		"f = open('unclosed.txt', 'w'); f.write('x' * 100)\n"
		"print('end of program')\n", "fin");

	(void)state;
	/* what python3 FILE prints, in its order */
	IT_CHECK(r, strcmp(it_out(r), "end of program\nthread done\nfinalize\natexit\n"
				    "del global\ndel cycle\ndel in a module\n") == 0);
	IT_CHECK(r, r->exit_code == 0);
	IT_CHECK(r, file_bytes(r, "unclosed.txt") == 100);
	sp_result_free(r);
}

static void test_a_file_the_c_library_buffers_is_flushed(void **state)
{
	struct sp_result *r = run_named(
		"import ctypes\n"
		"libc = ctypes.CDLL(None)\n"
		"libc.fopen.restype = ctypes.c_void_p\n"
		"libc.fputs.argtypes = [ctypes.c_char_p, ctypes.c_void_p]\n"
		"f = libc.fopen(b'cfile.txt', b'w')\n"
		"libc.fputs(b'written by C, flushed by exit()\\n', f)\n", "cfile");

	(void)state;
	IT_CHECK(r, r->exit_code == 0);
	IT_CHECK(r, file_bytes(r, "cfile.txt") == 32);
	sp_result_free(r);
}

static void test_a_failed_last_flush_is_status_120(void **state)
{
	struct sp_result *r = run_named("import sys\nsys.stdout = open('/dev/full', 'w')\n"
					"print('x')\n", "full");

	(void)state;
	IT_CHECK(r, r->exit_code == 120);
	IT_CHECK(r, it_contains(it_err(r), "No space left on device"));
	sp_result_free(r);
}

static void test_a_programs_audit_hook_sees_the_interpreters_clear(void **state)
{
	struct sp_result *r = run_named(
		"import sys, os\n"
		"def hook(event, args, write=os.write):\n"
		"    if event.startswith('cpython.'):\n"
		"        write(1, event.encode() + b'\\n')\n"
		"sys.addaudithook(hook)\n"
		"print('hooked')\n", "hook");

	(void)state;
	IT_CHECK(r, strcmp(it_out(r), "hooked\ncpython.PyInterpreterState_Clear\n") == 0);
	IT_CHECK(r, r->exit_code == 0);
	sp_result_free(r);
}

static void test_files_only_the_interpreters_teardown_frees_are_flushed(void **state)
{
	struct sp_result *r = run_named(
		"import contextvars, os, sys\n"
		"var = contextvars.ContextVar('log')\n"
		"var.set(open('context.txt', 'w'))\n"
		"var.get().write('c' * 10)\n"
		"class Reopen:\n"
		"    def __init__(self):\n"
		"        self.f = open('fork.txt', 'w'); self.f.write('f' * 20)\n"
		"    def child(self): pass\n"
		"os.register_at_fork(after_in_child=Reopen().child)\n"
		"class Profile:\n"
		"    def __init__(self):\n"
		"        self.f = open('profile.txt', 'w'); self.f.write('p' * 30)\n"
		"    def __call__(self, frame, event, arg): pass\n"
		"sys.setprofile(Profile())\n", "held");

	(void)state;
	IT_CHECK(r, r->exit_code == 0);
	IT_CHECK(r, file_bytes(r, "context.txt") == 10);
	IT_CHECK(r, file_bytes(r, "fork.txt") == 20);
	IT_CHECK(r, file_bytes(r, "profile.txt") == 30);
	sp_result_free(r);
}

static void test_what_atexit_and_the_teardown_do_late_still_counts(void **state)
{
	struct sp_result *r = run_named(
		"import atexit, codecs, os\n"
		"class Search:\n"
		"    def __call__(self, name): return None\n"
		"    def __del__(self, write=os.write): write(1, b'codec search gone\\n')\n"
		"codecs.register(Search())\n"
		"def later():\n"
		"    import ctypes\n"
		"    libc = ctypes.CDLL(None)\n"
		"    libc.fopen.restype = ctypes.c_void_p\n"
		"    libc.fputs.argtypes = [ctypes.c_char_p, ctypes.c_void_p]\n"
		"    libc.fputs(b'late C\\n', libc.fopen(b'late.txt', b'w'))\n"
		"atexit.register(later)\n"
		"print('registered')\n", "late");
	struct sp_result *full = run_named(
		"import atexit, sys\n"
		"def later():\n"
		"    sys.stdout = open('/dev/full', 'w')\n"
		"    print('x')\n"
		"atexit.register(later)\n", "late120");

	(void)state;
	IT_CHECK(r, strcmp(it_out(r), "registered\ncodec search gone\n") == 0);
	IT_CHECK(r, file_bytes(r, "late.txt") == 7);
	IT_CHECK(full, full->exit_code == 120);
	sp_result_free(r);
	sp_result_free(full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_of_exit_has_pythons_status),
		cmocka_unit_test(test_finalizers_atexit_and_threads_run_in_pythons_order),
		cmocka_unit_test(test_a_file_the_c_library_buffers_is_flushed),
		cmocka_unit_test(test_a_failed_last_flush_is_status_120),
		cmocka_unit_test(test_a_programs_audit_hook_sees_the_interpreters_clear),
		cmocka_unit_test(test_files_only_the_interpreters_teardown_frees_are_flushed),
		cmocka_unit_test(test_what_atexit_and_the_teardown_do_late_still_counts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
