/* SPDX-License-Identifier: MIT */
/*
 * test_main_module.c - ordinary Python behaves as it does outside (issue
 * 25): the program is the real __main__ module, as `python3 FILE` and
 * runpy.run_path(FILE, run_name="__main__") make it, in a cold run and in
 * a prepared one alike. What depends on that: pickle of the program's
 * classes, multiprocessing with each start method (a spawn or forkserver
 * child imports __main__ again from its __file__), unittest.main(),
 * doctest.testmod(), timeit's `from __main__ import`, cProfile.run,
 * typing.get_type_hints, dataclasses under `from __future__ import
 * annotations`, inspect.getsource and tracebacks printed by the program;
 * the program's file beside the attached ones, as `python3 FILE` has it.
 *
 * Each program prints one line per check; the test wants every line, so a
 * failure shows which behaviour differs (the whole result is dumped).
 */
#include "prep.h"

/* Run cfg cold and prepared; each run's stdout must hold every line of
 * want, and its exit status must be status. */
static void both_hold(const struct sp_config *cfg, const char *const *want, size_t n,
		      int status)
{
	struct sp_result *cold = it_run_cfg(cfg);
	struct sp_run *run = pt_run_cfg(cfg, NULL, 0);
	const struct sp_result *rs[2] = { cold, sp_run_result(run) };

	for (int k = 0; k < 2; k++) {
		IT_CHECK(rs[k], rs[k]->exit_code == status);
		for (size_t i = 0; i < n; i++) {
			if (!it_contains(it_out(rs[k]), want[i])) {
				fprintf(stderr, "missing from the %s run's stdout: %s\n",
					k ? "prepared" : "cold", want[i]);
				IT_CHECK(rs[k], false);
			}
		}
		/* nothing of the sandbox's machinery speaks up */
		IT_CHECK(rs[k], !it_contains(it_err(rs[k]), "prelude"));
	}
	sp_result_free(cold);
	sp_run_free(run);
}

static void test_program_is_the_main_module(void **state)
{
	char *name = it_name("main");
	struct sp_config cfg = it_config(
		"import os, sys, runpy\n"
		"me = sys.modules['__main__']\n"
		"print('main', __name__, me.__dict__ is globals(), sys.modules[__name__] is me)\n"
		"print('file', os.path.isabs(__file__), os.path.basename(__file__))\n"
		"print('readable', open(__file__).readline().strip())\n"
		"print('spec', __spec__, 'package', __package__, 'loader', __loader__ is not None)\n"
		"print('cwd', os.getcwd())\n"
		/* the prelude again, as a child re-importing an old __main__ would:
		 * it defines its functions and does nothing else */
		"ns = runpy.run_path('/sandpit/prelude.py', run_name='__mp_main__')\n"
		"print('prelude inert', '_main' in ns, sys.modules['__main__'] is me)\n"
		/* a program started with exec never gets the channel */
		"import subprocess\n"
		"p = subprocess.run([sys.executable, '-c', 'import os; os.write(3, b\"{}\\\\n\")'],\n"
		"                   close_fds=False, capture_output=True)\n"
		"print('channel closed on exec', p.returncode != 0)\n", name);
	char *want_file = it_fmt("file True %s", name);
	const char *want[] = {
		"main __main__ True True", want_file, "readable import os, sys, runpy",
		"spec None package None loader True", "cwd /work", "prelude inert True True",
		"channel closed on exec True",
	};

	(void)state;
	both_hold(&cfg, want, sizeof want / sizeof want[0], 0);
	free(want_file);
	free(name);
}

/* forkserver's server installs a SIGCHLD handler; without a CPU cgroup
 * the sandbox refuses any change to SIGCHLD's action (a child the kernel
 * reaps itself would take its CPU time out of the count: see
 * core/seccomp_rules.c), so there it is a wall, not a bug. */
static bool sigchld_is_fixed(const struct sp_result *r)
{
	const struct sp_layer *l = it_layer(r, "cpu_tree");

	return l && strstr(l->detail, "SIGCHLD") != NULL;
}

static void test_pickle_and_every_start_method(void **state)
{
	char *name = it_name("pools");
	struct sp_config cfg = it_config(
		"import enum, pickle, multiprocessing as mp\n"
		"from concurrent.futures import ProcessPoolExecutor\n"
		"class Colour(enum.Enum):\n"
		"    RED = 1\n"
		"class Point:\n"
		"    def __init__(self, x): self.x = x\n"
		"def square(x):\n"
		"    return x * x\n"
		"if __name__ == '__main__':\n"
		"    p = pickle.loads(pickle.dumps(Point(3)))\n"
		"    print('pickle', p.x, pickle.loads(pickle.dumps(Colour.RED)) is Colour.RED)\n"
		"    for method in ('fork', 'spawn', 'forkserver'):\n"
		"        try:\n"
		"            with mp.get_context(method).Pool(2) as pool:\n"
		"                print(method, pool.map(square, range(5)))\n"
		"        except Exception as e:\n"
		"            print(method, 'failed:', type(e).__name__)\n"
		"    with ProcessPoolExecutor(2) as ex:\n"
		"        print('executor', list(ex.map(square, range(4))))\n", name);
	const char *want[] = {
		"pickle 3 True", "fork [0, 1, 4, 9, 16]", "spawn [0, 1, 4, 9, 16]",
		"executor [0, 1, 4, 9]",
	};
	struct sp_result *r;

	(void)state;
	cfg.limits.wall_ms = 30000;
	cfg.limits.cpu_ms = 20000;
	both_hold(&cfg, want, sizeof want / sizeof want[0], 0);
	r = it_run_cfg(&cfg);
	if (sigchld_is_fixed(r))
		IT_CHECK(r, it_contains(it_out(r), "forkserver failed:"));
	else
		IT_CHECK(r, it_contains(it_out(r), "forkserver [0, 1, 4, 9, 16]"));
	sp_result_free(r);
	free(name);
}

/* unittest.main() runs the program's tests (one fails: status 1), and
 * doctest.testmod() tries its examples. */
static void test_unittest_and_doctest_find_the_tests(void **state)
{
	char *name = it_name("unittest");
	struct sp_config cfg = it_config(
		"import doctest, sys, unittest\n"
		"def half(x):\n"
		"    '''\n"
		"    >>> half(8)\n"
		"    4.0\n"
		"    '''\n"
		"    return x / 2\n"
		"class Tests(unittest.TestCase):\n"
		"    def test_good(self):\n"
		"        self.assertEqual(half(2), 1)\n"
		"    def test_bad(self):\n"
		"        self.assertEqual(half(2), 3)\n"
		"print('doctest', doctest.testmod())\n"
		"sys.stdout.flush()\n"
		"sys.stderr = sys.stdout\n"
		"unittest.main()\n", name);
	const char *want[] = {
		"doctest TestResults(failed=0, attempted=1)", "Ran 2 tests",
		"FAILED (failures=1)", "test_bad",
	};

	(void)state;
	both_hold(&cfg, want, sizeof want / sizeof want[0], 1);
	free(name);
}

static void test_tools_that_import_main(void **state)
{
	char *name = it_name("tools");
	struct sp_config cfg = it_config(
		"from __future__ import annotations\n"
		"import cProfile, contextlib, dataclasses, inspect, io, logging, sys\n"
		"import timeit, traceback, typing\n"
		"def f(n):\n"
		"    return n + 1\n"
		"@dataclasses.dataclass\n"
		"class Config:\n"
		"    size: int\n"
		"    count: typing.ClassVar[int] = 0\n"
		"print('fields', [x.name for x in dataclasses.fields(Config)])\n"
		"print('hints', typing.get_type_hints(Config)['size'].__name__)\n"
		"print('timeit', timeit.timeit('f(1)', 'from __main__ import f', number=3) >= 0)\n"
		"out = io.StringIO()\n"
		"with contextlib.redirect_stdout(out):\n"
		"    cProfile.run('f(2)')\n"
		"print('cprofile', 'function calls' in out.getvalue())\n"
		"print('getsource', inspect.getsource(f).splitlines()[1].strip())\n"
		"try:\n"
		"    {}['missing']\n"
		"except KeyError:\n"
		"    traceback.print_exc(file=sys.stdout)\n"
		"    logging.basicConfig(stream=sys.stdout)\n"
		"    logging.exception('logged')\n", name);
	const char *want[] = {
		"fields ['size']", "hints int", "timeit True", "cprofile True",
		"getsource return n + 1", "    {}['missing']\n", "ERROR:root:logged",
	};

	(void)state;
	both_hold(&cfg, want, sizeof want / sizeof want[0], 0);
	free(name);
}

/*
 * The program's file is in the work dir, beside the files attached to it,
 * as for `python3 FILE` run there (issue 42): the usual idioms find data
 * beside the program, __loader__ is a SourceFileLoader of that path, and
 * sys.path[0] is its directory. Left as it was, the file is not one the
 * run left; changed, it is, even when its size and mtime are put back.
 */
static void test_file_is_beside_the_attached_files(void **state)
{
	char *dir = it_tmpdir();
	char *data = it_write(dir, "data.txt", "beside\n", 7);
	char *name = it_name("beside"), *rewriter = it_name("rewrite");
	struct sp_file_in in = { data, NULL };
	struct sp_config cfg = it_config(
		"import importlib.machinery, os, pathlib, sys\n"
		"print('path', (pathlib.Path(__file__).parent / 'data.txt').read_text().strip())\n"
		"print('dirname', open(os.path.join(os.path.dirname(__file__), 'data.txt')).read().strip())\n"
		"print('loader', isinstance(__loader__, importlib.machinery.SourceFileLoader),\n"
		"      __loader__.get_filename() == __file__)\n"
		"print('file', __file__ == os.path.join(os.getcwd(), sys.argv[0]),\n"
		"      sys.path[0] == os.path.dirname(__file__))\n"
		"print('text', open(__file__).read() == __loader__.get_source('__main__'))\n", name);
	/* the same size, the mtime put back: only the ctime tells */
	struct sp_config changed = it_config(
		"import os\n"
		"st = os.stat(__file__)\n"
		"text = open(__file__).read()\n"
		"with open(__file__, 'w') as f:\n"
		"    f.write(text.replace('import os', 'import so'))\n"
		"os.utime(__file__, ns=(st.st_atime_ns, st.st_mtime_ns))\n"
		"print('rewritten', os.stat(__file__).st_size == st.st_size)\n", rewriter);
	const char *want[] = {
		"path beside", "dirname beside", "loader True True", "file True True", "text True",
	};

	(void)state;
	cfg.files_in = &in;
	cfg.n_files_in = 1;
	both_hold(&cfg, want, sizeof want / sizeof want[0], 0);
	for (int k = 0; k < 2; k++) {
		const struct sp_config *c = k ? &changed : &cfg;
		struct sp_result *cold = it_run_cfg(c);
		struct sp_run *run = pt_run_cfg(c, NULL, 0);
		const struct sp_result *rs[2] = { cold, sp_run_result(run) };
		for (int j = 0; j < 2; j++) {
			IT_CHECK(rs[j], rs[j]->status == SP_STATUS_OK);
			if (k) {
				IT_CHECK(rs[j], it_contains(it_out(rs[j]), "rewritten True"));
				IT_CHECK(rs[j], it_has_file(rs[j], rewriter));
			} else {
				/* neither the program nor what sandpit copied in */
				IT_CHECK(rs[j], rs[j]->n_files == 0);
			}
		}
		sp_result_free(cold);
		sp_run_free(run);
	}
	unlink(data);
	free(data);
	rmdir(dir);
	free(dir);
	free(name);
	free(rewriter);
}

/* A child forked while another thread holds the prelude's lock (here the
 * forking thread itself, by an audit hook) can still carry: the lock is
 * fresh after fork. */
static void test_fork_while_the_prelude_is_locked(void **state)
{
	char *name = it_name("forklock");
	struct sp_config cfg = it_config(
		"import os, sys, time\n"
		"pre = sys.modules.get('_sandpit_prelude') or sys.modules['__main__']\n"
		/* a hook of the program's, called after the prelude's own: the
		 * lock is taken between the prelude's report and the fork */
		"def grab(event, args):\n"
		"    if event == 'os.fork':\n"
		"        pre._lock.acquire()\n"
		"sys.addaudithook(grab)\n"
		"pid = os.fork()\n"
		"if pid == 0:\n"
		"    carry(from_child=1)\n"
		"    os._exit(0)\n"
		"pre._lock.release()\n"
		"for _ in range(100):\n"
		"    if os.waitpid(pid, os.WNOHANG)[0]:\n"
		"        print('child done')\n"
		"        break\n"
		"    time.sleep(0.05)\n"
		"else:\n"
		"    print('child stuck')\n"
		"    os.kill(pid, 9)\n", name);
	const char *want[] = { "child done" };

	(void)state;
	cfg.limits.wall_ms = 30000;
	both_hold(&cfg, want, sizeof want / sizeof want[0], 0);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_program_is_the_main_module),
		cmocka_unit_test(test_pickle_and_every_start_method),
		cmocka_unit_test(test_unittest_and_doctest_find_the_tests),
		cmocka_unit_test(test_tools_that_import_main),
		cmocka_unit_test(test_fork_while_the_prelude_is_locked),
		cmocka_unit_test(test_file_is_beside_the_attached_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
