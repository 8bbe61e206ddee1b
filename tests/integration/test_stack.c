/* SPDX-License-Identifier: MIT */
/*
 * test_stack.c - the scientific stack is the sandbox's default image:
 * numpy, pandas, matplotlib and scipy import and do real work under the
 * default limits, but for the wall clock, which a busy machine stretches
 * (itest.h gives 120 s) (as root with cgroups, and as an ordinary user on the
 * rlimit path: CI runs this suite both ways), OpenBLAS starts no thread
 * per CPU, the caches the libraries write are not "files left", and
 * `sandpit doctor` reports the stack (the four, scikit-learn, statsmodels,
 * seaborn, sympy, openpyxl) with their versions. The packages are
 * required (.ci/deps.sh installs them): a missing one fails, never skips.
 * A virtual environment given as the interpreter brings its own packages
 * (how a machine's owner adds one that Debian does not package).
 */
#include "itest.h"

static void test_the_four_packages_do_real_work_under_the_default_limits(void **state)
{
	char *name = it_name("stack");
	struct sp_result *r;

	(void)state;
	r = it_run("import numpy as np, pandas as pd, scipy.stats as st\n"
		   "import matplotlib.pyplot as plt\n"
		   "a = np.random.default_rng(1).normal(size=200000)\n"
		   "df = pd.DataFrame({'x': a[:1000], 'g': np.arange(1000) % 4})\n"
		   "m = np.ones((400, 400)) @ np.ones((400, 400))\n"
		   "fig, ax = plt.subplots(); ax.plot(a[:100]); fig.canvas.draw()\n"
		   "print('groups', len(df.groupby('g').mean()), 'm', int(m[0, 0]),\n"
		   "      'normal', st.normaltest(a).pvalue > 0.001)\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "groups 4 m 400 normal True"));
	IT_CHECK(r, r->n_violations == 0);
	sp_result_free(r);
	free(name);
}

static void test_openblas_starts_no_thread_per_cpu(void **state)
{
	char *name = it_name("blas");
	struct sp_result *r;

	(void)state;
	/* without OPENBLAS_NUM_THREADS=1 in the clean environment, OpenBLAS
	 * starts ncpu - 1 threads at import: 63 on a 64-CPU host, the whole
	 * default process limit (Debian's numpy uses OpenBLAS when
	 * libopenblas0 is installed, the reference BLAS otherwise: the
	 * environment is checked as well as the thread count) */
	r = it_run("import numpy, os\n"
		   "numpy.ones((200, 200)) @ numpy.ones((200, 200))\n"
		   "t = [l.split()[1] for l in open('/proc/self/status') if l.startswith('Threads')]\n"
		   "print('threads', t[0], os.environ.get('OPENBLAS_NUM_THREADS'),\n"
		   "      os.environ.get('OMP_NUM_THREADS'))\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "threads 1 1 1\n"));
	sp_result_free(r);
	free(name);
}

static void test_library_caches_are_not_files_left(void **state)
{
	char *name = it_name("caches");
	struct sp_result *r;

	(void)state;
	/* matplotlib builds its font list and calls fc-list; both used to
	 * leave seven cache files under the work dir's .cache */
	r = it_run("import matplotlib.pyplot as plt, os\n"
		   "fig, ax = plt.subplots(); ax.set_title('x'); fig.canvas.draw()\n"
		   "print('cache', os.environ['XDG_CACHE_HOME'], os.environ['MPLCONFIGDIR'])\n"
		   "open('mine.txt', 'w').write('kept')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->n_files == 1 && it_has_file(r, "mine.txt"));
	sp_result_free(r);
	free(name);
}

static void test_matplotlib_starts_with_the_builds_font_list(void **state)
{
	char *name = it_name("fontlist");
	struct sp_result *r;

	(void)state;
	/* a run without it scans every font again (matplotlib logs this) */
	r = it_run("import logging, os\n"
		   "logging.basicConfig(level=logging.INFO)\n"
		   "print('cached', sorted(os.listdir('/cache/matplotlib')))\n"
		   "import matplotlib.pyplot as plt\n"
		   "plt.plot([1, 2]); plt.title('fonts'); plt.gcf().canvas.draw()\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "cached ['fontlist-v"));
	IT_CHECK(r, !it_contains(it_err(r), "generated new fontManager"));
	IT_CHECK(r, r->n_files == 0);
	sp_result_free(r);
	free(name);
}

static void test_a_big_numpy_array_is_a_memory_error_not_a_crash(void **state)
{
	char *name = it_name("bigarray");
	struct sp_result *r;

	(void)state;
	r = it_run("import numpy as np\n"
		   "try:\n"
		   "    a = np.ones(2 * 1024**3 // 8)\n"
		   "    print('allocated', a.nbytes)\n"
		   "except MemoryError as e:\n"
		   "    print('MemoryError')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK || r->status == SP_STATUS_MEMORY_LIMIT);
	IT_CHECK(r, !it_contains(it_out(r), "allocated"));
	sp_result_free(r);
	free(name);
}

static void test_doctor_reports_the_stack_with_versions(void **state)
{
	struct it_cli c;
	const char *args[] = { "doctor", NULL };

	(void)state;
	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(c.out, "Python packages (imported in a sandboxed run"));
	{
		static const char *const pkgs[] = { "numpy", "pandas", "matplotlib", "scipy",
			"sklearn", "statsmodels", "seaborn", "sympy", "openpyxl" };
		for (size_t i = 0; i < sizeof pkgs / sizeof pkgs[0]; i++) {
			char *want = it_fmt("  %-18s yes  ", pkgs[i]);
			IT_CLI_CHECK(&c, it_contains(c.out, want));
			free(want);
		}
	}
	it_cli_free(&c);
}

/* --python VENV/bin/python3: the venv's site-packages (read-only) and,
 * made with --system-site-packages, Debian's stack too. */
static void test_a_virtual_environment_brings_its_packages(void **state)
{
	char *dir = it_python_dir("sandpit-venv");
	char *cmd, *code, *pkg, *python, *name = it_name("venv");
	struct sp_config cfg;
	struct sp_result *r;

	(void)state;
	cmd = it_fmt("/usr/bin/python3 -m venv --system-site-packages --without-pip %s/env", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	cmd = it_fmt("mkdir -p $(echo %s/env/lib/python3*/site-packages)/owners_pkg", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	pkg = it_fmt("$(echo %s/env/lib/python3*/site-packages)/owners_pkg/__init__.py", dir);
	cmd = it_fmt("echo 'WHO = \"the owner\"' > %s", pkg);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(pkg);
	python = it_fmt("%s/env/bin/python3", dir);
	code = it_fmt("import owners_pkg, statsmodels, sys\n"
		      "print(owners_pkg.WHO, sys.prefix.startswith('%s'))\n", dir);
	cfg = it_config(code, name);
	cfg.python = python;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "the owner True"));
	sp_result_free(r);
	cmd = it_fmt("rm -rf %s", dir);
	if (system(cmd) != 0)
		print_message("could not remove %s\n", dir);
	free(cmd);
	free(code);
	free(dir);
	free(python);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_four_packages_do_real_work_under_the_default_limits),
		cmocka_unit_test(test_openblas_starts_no_thread_per_cpu),
		cmocka_unit_test(test_library_caches_are_not_files_left),
		cmocka_unit_test(test_matplotlib_starts_with_the_builds_font_list),
		cmocka_unit_test(test_a_big_numpy_array_is_a_memory_error_not_a_crash),
		cmocka_unit_test(test_doctor_reports_the_stack_with_versions),
		cmocka_unit_test(test_a_virtual_environment_brings_its_packages),
	};

	return cmocka_run_group_tests_name("integration/stack", tests, NULL, NULL);
}
