/* SPDX-License-Identifier: MIT */
/*
 * test_files.c - data in, files and charts out, through `sandpit run`:
 * --file copies host files in before the program starts (the host file
 * only read, the copy the program's own, counted against the disk limit),
 * bad input is exit 2 before anything runs, --keep copies out what the
 * program left (a new or empty dir only), plt.show() saves figure-N.png,
 * and what sandpit itself put there (inputs as they were, carry.json) is
 * not a file the program left. The chain: a CSV in, pandas, summary.csv
 * and a chart out, both kept, the CSV right and the PNG valid.
 */
#include "itest.h"

/* rm -r of what the tests make (two levels). */
static void rm_tree(const char *path)
{
	char *qpath = it_shq(path);
	char *cmd = it_fmt("rm -rf %s", qpath);

	free(qpath);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", path);
	free(cmd);
}

static int teardown(void **state)
{
	struct it_dir *f = *state;

	rm_tree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static char *write_in(struct it_dir *f, const char *name, const char *text)
{
	return it_write(f->dir, name, text, strlen(text));
}

static json_t *file_entry(json_t *result, const char *key, const char *path)
{
	size_t i;
	json_t *e;

	json_array_foreach(json_object_get(result, key), i, e)
		if (strcmp(it_jstr(e, "path"), path) == 0)
			return e;
	return NULL;
}

/* The PNG signature, then an IHDR chunk of length 13 with width and
 * height above 0: a real image, not just a file named .png. */
static bool png_valid(const char *path, unsigned *w, unsigned *h)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t len = 0;
	unsigned char *b = (unsigned char *)it_slurp(path, &len);
	bool ok;

	if (!b)
		return false;
	ok = len > 33 && memcmp(b, sig, 8) == 0 && b[8] == 0 && b[9] == 0 && b[10] == 0 &&
	     b[11] == 13 && memcmp(b + 12, "IHDR", 4) == 0;
	if (ok) {
		*w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
		*h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
		ok = *w > 0 && *h > 0;
	}
	free(b);
	return ok;
}

static void test_csv_in_summary_and_chart_out(void **state)
{
	struct it_dir *f = *state;
	char *data = write_in(f, "data.csv", "city,temp\nOslo,3\nRome,15\nOslo,5\nRome,17\n");
	char *prog = write_in(f, "chain.py",
		"import pandas as pd, matplotlib.pyplot as plt\n"
		"df = pd.read_csv('data.csv')\n"
		"s = df.groupby('city')['temp'].mean()\n"
		"s.to_csv('summary.csv')\n"
		"s.plot(kind='bar')\n"
		"plt.show()\n"
		"print('rows', len(df))\n");
	char *keep = it_fmt("%s/kept", f->dir);
	char *sum_path = it_fmt("%s/summary.csv", keep);
	char *png_path = it_fmt("%s/figure-1.png", keep);
	const char *args[] = { "run", "--json", "--wall", "120", "--file", data, "--keep", keep, prog, NULL };
	struct it_cli c;
	char *csv;
	unsigned w = 0, h = 0;
	json_t *e;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "ok") == 0);
	IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"), "rows 4"));
	/* what went in, and what came out (the input, unchanged, is not output) */
	e = file_entry(c.json, "files_in", "data.csv");
	IT_CLI_CHECK(&c, e && json_integer_value(json_object_get(e, "bytes")) == 40);
	IT_CLI_CHECK(&c, json_array_size(json_object_get(c.json, "files")) == 2);
	IT_CLI_CHECK(&c, !file_entry(c.json, "files", "data.csv"));
	e = file_entry(c.json, "files", "summary.csv");
	IT_CLI_CHECK(&c, e && strcmp(it_jstr(e, "kept"), sum_path) == 0);
	e = file_entry(c.json, "files", "figure-1.png");
	IT_CLI_CHECK(&c, e && strcmp(it_jstr(e, "kept"), png_path) == 0);
	csv = it_slurp(sum_path, NULL);
	IT_CLI_CHECK(&c, csv && strcmp(csv, "city,temp\nOslo,4.0\nRome,16.0\n") == 0);
	IT_CLI_CHECK(&c, png_valid(png_path, &w, &h));
	IT_CLI_CHECK(&c, w == 640 && h == 480);
	free(csv);
	it_cli_free(&c);
	free(data);
	free(prog);
	free(keep);
	free(sum_path);
	free(png_path);
}

static void test_the_host_file_is_only_read_and_the_copy_is_the_programs(void **state)
{
	struct it_dir *f = *state;
	char *data = write_in(f, "orig.txt", "original\n");
	char *prog = write_in(f, "change.py",
		"import os\n"
		"print('mine', os.stat('input.txt').st_uid == os.getuid())\n"
		"with open('input.txt', 'a') as fh:\n"
		"    fh.write('changed\\n')\n"
		"os.rename('input.txt', 'moved.txt')\n");
	char *spec = it_fmt("input.txt=%s", data);
	char *keep = it_fmt("%s/out", f->dir);
	const char *args[] = { "run", "--json", "--file", spec, "--keep", keep, prog, NULL };
	struct it_cli c;
	struct stat before, after;
	char *host, *moved_path = it_fmt("%s/moved.txt", keep), *moved;

	assert_int_equal(stat(data, &before), 0);
	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"), "mine True"));
	host = it_slurp(data, NULL);
	assert_int_equal(stat(data, &after), 0);
	IT_CLI_CHECK(&c, strcmp(host, "original\n") == 0);
	IT_CLI_CHECK(&c, before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
			 before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
	/* a changed input is the program's output */
	IT_CLI_CHECK(&c, file_entry(c.json, "files", "moved.txt"));
	moved = it_slurp(moved_path, NULL);
	IT_CLI_CHECK(&c, moved && strcmp(moved, "original\nchanged\n") == 0);
	free(moved);
	free(host);
	free(moved_path);
	it_cli_free(&c);
	free(data);
	free(prog);
	free(spec);
	free(keep);
}

static void test_copies_count_against_the_disk_limit(void **state)
{
	struct it_dir *f = *state;
	char *big = malloc(600 * 1024);
	char *data, *prog;
	struct it_cli c;

	memset(big, 'x', 600 * 1024);
	data = it_write(f->dir, "big.bin", big, 600 * 1024);
	prog = write_in(f, "fill.py",
		"try:\n"
		"    open('more.bin', 'wb').write(b'y' * 600 * 1024)\n"
		"    print('wrote')\n"
		"except OSError as e:\n"
		"    print('full', e.errno)\n");
	{
		const char *args[] = { "run", "--json", "--disk", "1M", "--file", data, prog, NULL };
		it_cli(&c, true, args);
	}
	IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"), "full 28"));
	IT_CLI_CHECK(&c, json_integer_value(json_object_get(json_object_get(c.json, "usage"),
							  "disk_bytes")) >= 600 * 1024);
	it_cli_free(&c);
	free(big);
	free(data);
	free(prog);
}

/* Exit 2 with msg on stderr, nothing on stdout: nothing ran. */
static void expect_refused(const char *const *args, const char *msg)
{
	struct it_cli c;

	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 2);
	IT_CLI_CHECK(&c, it_contains(c.err, msg));
	IT_CLI_CHECK(&c, c.out_len == 0);
	IT_CLI_CHECK(&c, !it_contains(c.err, "sandpit: ok"));
	it_cli_free(&c);
}

static void test_bad_files_in_are_refused_before_anything_runs(void **state)
{
	struct it_dir *f = *state;
	char *prog = write_in(f, "p.py", "print('ran')\n");
	char *data = write_in(f, "d.csv", "a\n1\n");
	char *carry = write_in(f, "c.json", "{\"x\": 1}");
	char *missing = it_fmt("%s/nope.csv", f->dir);
	char *fifo = it_fmt("%s/fifo", f->dir);
	char *big = it_fmt("%s/big", f->dir);
	char *newline = it_fmt("a\nb=%s", data);
	char *renamed = it_fmt("carry.json=%s", data);
	char *clash = it_fmt("d.csv=%s", prog);
	char *as_program = it_fmt("p.py=%s", data);

	assert_int_equal(mkfifo(fifo, 0644), 0);
	{
		int fd = open(big, O_WRONLY | O_CREAT, 0644);
		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, 2 << 20), 0);
		close(fd);
	}
	{
		const char *a[] = { "run", "--file", missing, prog, NULL };
		expect_refused(a, "nope.csv' cannot be read: No such file");
	}
	{
		/* a FIFO must not hang the open: O_NONBLOCK, then fstat */
		const char *a[] = { "run", "--file", fifo, prog, NULL };
		expect_refused(a, "is a FIFO, not a regular file");
	}
	{
		const char *a[] = { "run", "--file", f->dir, prog, NULL };
		expect_refused(a, "is a directory, not a regular file");
	}
	{
		const char *a[] = { "run", "--disk", "1M", "--file", big, prog, NULL };
		expect_refused(a, "does not fit");
	}
	{
		const char *a[] = { "run", "--file", data, "--file", clash, prog, NULL };
		expect_refused(a, "the name 'd.csv' is taken");
	}
	{
		const char *a[] = { "run", "--file", newline, prog, NULL };
		expect_refused(a, "contains a control character");
	}
	{
		const char *a[] = { "run", "--carry", carry, "--file", renamed, prog, NULL };
		expect_refused(a, "carry.json is the carry-in's");
	}
	{
		/* the program is /work/p.py itself (its __file__) */
		const char *a[] = { "run", "--file", as_program, prog, NULL };
		expect_refused(a, "the name 'p.py' is the program's own");
	}
	if (geteuid() != 0) {
		/* root reads anything: this one runs as the CI's ordinary user */
		chmod(data, 0);
		const char *a[] = { "run", "--file", data, prog, NULL };
		expect_refused(a, "cannot be read: Permission denied");
		chmod(data, 0644);
	}
	free(prog);
	free(data);
	free(carry);
	free(as_program);
	free(missing);
	free(fifo);
	free(big);
	free(newline);
	free(renamed);
	free(clash);
}

static void test_keep_refuses_a_dir_that_is_not_empty(void **state)
{
	struct it_dir *f = *state;
	char *prog = write_in(f, "k.py", "open('a.txt', 'w').write('a')\n");
	const char *args[] = { "run", "--keep", f->dir, prog, NULL };

	expect_refused(args, "is not empty");
	free(prog);
}

static void test_carry_json_and_unchanged_inputs_are_not_files_left(void **state)
{
	struct it_dir *f = *state;
	char *prog = write_in(f, "cj.py", "print(open('carry.json').read())\n");
	char *carry = write_in(f, "c.json", "{\"n\": 7}");
	char *data = write_in(f, "in.txt", "x");
	const char *args[] = { "run", "--json", "--carry", carry, "--file", data, prog, NULL };
	struct it_cli c;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"), "\"n\""));
	IT_CLI_CHECK(&c, json_array_size(json_object_get(c.json, "files")) == 0);
	IT_CLI_CHECK(&c, json_array_size(json_object_get(c.json, "files_in")) == 1);
	it_cli_free(&c);
	free(prog);
	free(carry);
	free(data);
}

static void test_plain_run_names_the_kept_files(void **state)
{
	struct it_dir *f = *state;
	char *prog = write_in(f, "plain.py",
		"import matplotlib.pyplot as plt, os\n"
		"plt.plot([1, 2]); plt.show()\n"
		"os.symlink('/etc/passwd', 'pw')\n");
	char *keep = it_fmt("%s/k", f->dir);
	const char *args[] = { "run", "--wall", "120", "--keep", keep, prog, NULL };
	struct it_cli c;

	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(c.err, "sandpit: kept 1 of 2 files in "));
	IT_CLI_CHECK(&c, it_contains(c.err, "(the work dir itself is gone): figure-1.png ("));
	IT_CLI_CHECK(&c, it_contains(c.err, "sandpit: not kept: pw (symlink)"));
	it_cli_free(&c);
	free(prog);
	free(keep);
}

static void test_the_library_api_keeps_files(void **state)
{
	struct it_dir *f = *state;
	char *keep = it_fmt("%s/api", f->dir);
	char *name = it_name("api");
	struct sp_config cfg = it_config("open('r.txt', 'w').write('result')\n", name);
	struct sp_file_in in = { "/etc/hostname", "host.txt" };
	struct sp_result *r;

	cfg.keep_dir = keep;
	cfg.files_in = &in;
	cfg.n_files_in = access("/etc/hostname", R_OK) == 0 ? 1 : 0;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->n_files == 1 && r->files[0].kept &&
		    strcmp(r->files[0].kept + strlen(keep), "/r.txt") == 0);
	IT_CHECK(r, r->n_files_in == cfg.n_files_in);
	sp_result_free(r);
	free(keep);
	free(name);
}

/* Files in as bytes (a service's request): in the work dir beside a host
 * file, counted against the disk limit with it, checked as names are. */
static void test_the_library_takes_files_as_bytes(void **state)
{
	struct it_dir *f = *state;
	char *name = it_name("bytes");
	char *host = write_in(f, "host.txt", "from a path");
	struct sp_config cfg = it_config("print(open('a.txt').read(), open('b.bin', 'rb').read(), "
					 "open('host.txt').read())\n", name);
	struct sp_file_in in = { host, NULL };
	struct sp_file_bytes bytes[2] = { { "a.txt", "alpha", 5 }, { "b.bin", "\0\1", 2 } };
	struct sp_error err = { "" };
	struct sp_result *r;

	cfg.files_in = &in;
	cfg.n_files_in = 1;
	cfg.files_bytes = bytes;
	cfg.n_files_bytes = 2;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "alpha b'\\x00\\x01' from a path"));
	IT_CHECK(r, r->n_files_in == 3 && r->n_files == 0);
	sp_result_free(r);

	bytes[1].name = "host.txt"; /* taken by the host file */
	assert_int_equal(sp_files_in_check(&cfg, &err), -1);
	assert_true(it_contains(err.msg, "file 'host.txt': the name is given twice"));
	bytes[1].name = "b.bin";
	cfg.limits.disk_bytes = 15; /* the host file's 11 bytes fit, a.txt's 5 more do not */
	assert_int_equal(sp_files_in_check(&cfg, &err), -1);
	assert_true(it_contains(err.msg, "file 'a.txt' is ") &&
		    it_contains(err.msg, "(5 bytes) and does not fit"));
	free(host);
	free(name);
}

static void test_the_library_refuses_bad_files_before_starting(void **state)
{
	struct it_dir *f = *state;
	char *name = it_name("apibad");
	struct sp_config cfg = it_config("print('ran')\n", name);
	struct sp_file_in in = { "/nonexistent/data.csv", NULL };
	struct sp_run *run = NULL;
	struct sp_error err = { "" };
	char *taken = write_in(f, "already.txt", "x");

	cfg.files_in = &in;
	cfg.n_files_in = 1;
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_null(run);
	assert_true(it_contains(err.msg, "data.csv' cannot be read"));
	cfg.n_files_in = 0;
	cfg.keep_dir = f->dir; /* holds already.txt */
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_null(run);
	assert_true(it_contains(err.msg, "is not empty"));
	free(taken);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_csv_in_summary_and_chart_out, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_host_file_is_only_read_and_the_copy_is_the_programs, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_copies_count_against_the_disk_limit, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_files_in_are_refused_before_anything_runs, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_refuses_a_dir_that_is_not_empty, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_carry_json_and_unchanged_inputs_are_not_files_left, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_plain_run_names_the_kept_files, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_library_api_keeps_files, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_library_takes_files_as_bytes, it_dir_setup, teardown),
		cmocka_unit_test_setup_teardown(test_the_library_refuses_bad_files_before_starting, it_dir_setup, teardown),
	};

	return cmocka_run_group_tests_name("integration/files", tests, NULL, NULL);
}
