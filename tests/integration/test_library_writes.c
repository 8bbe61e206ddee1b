/* SPDX-License-Identifier: MIT */
/*
 * test_library_writes.c - a write or read outside the work dir made by
 * a library on the program's behalf (fig.savefig, df.to_csv, np.save,
 * shutil.copy) is a filesystem violation, attributed to the program's
 * line that called the library; its error's hint says it was a write
 * ("write in the work dir"), a read's says to attach the file. A
 * library loading itself at import is not the program's doing.
 */
#include "itest.h"

/* Run code; every filesystem record must be at line and one must name
 * path; the hint at line must be of topic. */
static void expect_at(const char *what, const char *code, int line,
		      const char *path, const char *topic)
{
	char *name = it_name(what);
	struct sp_result *r = it_run(code, name);
	size_t fs = 0;
	bool named = false, hinted = false;

	if (r->err && it_contains(it_err(r), "ModuleNotFoundError")) {
		sp_result_free(r);
		free(name);
		skip(); /* the stack is not installed here */
	}
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		if (v->kind != SP_VIOL_FILESYSTEM)
			continue;
		fs++;
		IT_CHECK(r, v->line == line);
		named |= it_contains(v->what, path);
	}
	IT_CHECK(r, fs >= 1);
	IT_CHECK(r, named);
	for (size_t i = 0; i < r->n_hints; i++)
		hinted |= r->hints[i].line == line && !strcmp(r->hints[i].topic, topic);
	IT_CHECK(r, hinted);
	sp_result_free(r);
	free(name);
}

static void test_savefig_outside(void **state)
{
	(void)state;
	expect_at("savefig",
		  "import matplotlib.pyplot as plt\n"
		  "fig, ax = plt.subplots()\n"
		  "ax.bar(['a', 'b'], [1, 2])\n"
		  "fig.savefig('/home/me/Desktop/chart.png')\n",
		  4, "/home/me/Desktop/chart.png", "write");
}

static void test_to_csv_outside(void **state)
{
	(void)state;
	expect_at("to_csv",
		  "import pandas as pd\n"
		  "df = pd.DataFrame({'month': ['Jan'], 'rain': [78]})\n"
		  "\n"
		  "df.to_csv('/home/me/Desktop/summary.csv')\n",
		  4, "/home/me/Desktop", "write");
}

static void test_np_save_outside(void **state)
{
	(void)state;
	expect_at("np_save",
		  "import numpy as np\n"
		  "a = np.arange(10)\n"
		  "np.save('/results/a.npy', a)\n",
		  3, "/results/a.npy", "write");
}

static void test_shutil_copy_outside(void **state)
{
	(void)state;
	expect_at("shutil_copy",
		  "import shutil\n"
		  "with open('report.txt', 'w') as f:\n"
		  "    f.write('done')\n"
		  "shutil.copy('report.txt', '/results/report.txt')\n",
		  4, "/results/report.txt", "write");
}

static void test_a_read_outside_says_attach(void **state)
{
	(void)state;
	expect_at("read_outside",
		  "import csv\n"
		  "rows = list(csv.reader(open('/home/teacher/marks.csv')))\n",
		  2, "/home/teacher/marks.csv", "file");
}

/* Importing the stack (which looks for its own config and caches) and
 * saving in the work dir leave no record at all. */
static void test_library_work_in_the_work_dir_is_clean(void **state)
{
	struct sp_result *r;
	(void)state;

	r = it_run("import numpy as np, pandas as pd\n"
		   "import matplotlib.pyplot as plt\n"
		   "fig, ax = plt.subplots()\n"
		   "fig.savefig('chart.png')\n"
		   "pd.DataFrame({'a': [1]}).to_csv('a.csv')\n"
		   "np.save('a.npy', np.arange(3))\n", "clean.py");
	if (r->err && it_contains(it_err(r), "ModuleNotFoundError")) {
		sp_result_free(r);
		skip();
	}
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->n_violations == 0);
	sp_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_savefig_outside),
		cmocka_unit_test(test_to_csv_outside),
		cmocka_unit_test(test_np_save_outside),
		cmocka_unit_test(test_shutil_copy_outside),
		cmocka_unit_test(test_a_read_outside_says_attach),
		cmocka_unit_test(test_library_work_in_the_work_dir_is_clean),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
