/* SPDX-License-Identifier: MIT */
/*
 * test_config.c - the playground's config file: every bad line reported
 * with its number, the good lines applied all the same, and a config
 * path that is not a regular file refused, never waited on; prewarm and
 * preload read, or named bad with the list kept.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/sandpit-config-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void test_every_bad_line_is_reported(void **state)
{
	char *path = write_tmp("# settings\n"
			       "cpu = lots\n"
			       "wall = 3\n"
			       "junk without equals\n"
			       "colour = red\n"
			       "[section]\n"
			       "memory = 64M\n");
	char arg[64], usage[256];
	char *argv[] = { "sandpit", "--config", NULL, NULL };
	struct pg_config cfg;
	char *line2;

	(void)state;
	snprintf(arg, sizeof arg, "%s", path);
	argv[2] = arg;
	assert_int_equal(config_load(&cfg, 3, argv, usage, sizeof usage), 0);
	/* each bad line, in order, one a line */
	line2 = strstr(cfg.error, ":2: ");
	assert_non_null(line2);
	assert_non_null(strstr(cfg.error, ":4: not 'key = value' or '[section]'"));
	assert_non_null(strstr(cfg.error, ":5: "));
	assert_non_null(strstr(cfg.error, ":7: sections are not used ([section])"));
	assert_null(strstr(cfg.error, ":3: "));
	assert_int_equal((int)(strchr(cfg.error, '\n') - cfg.error) < (int)strlen(cfg.error), 1);
	/* the good line applied */
	assert_int_equal(cfg.limits.wall_ms, 3000);
	unlink(path);
	free(path);
}

static void test_a_fifo_config_is_refused_at_once(void **state)
{
	char path[] = "/tmp/sandpit-config-fifo-XXXXXX";
	char *argv[] = { "sandpit", "--config", path, NULL };
	char usage[256];
	struct pg_config cfg;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	config_load(&cfg, 3, argv, usage, sizeof usage);
	assert_non_null(strstr(cfg.error, "not a regular file"));
	unlink(path);
}

/* Saving the F4 dialog's limits over a FIFO: refused at once (it used
 * to wait for a writer for ever), and the FIFO is left as it was. */
static void test_saving_limits_over_a_fifo_is_refused_at_once(void **state)
{
	char path[] = "/tmp/sandpit-config-fifo-XXXXXX", err[1300];
	struct sp_limits l;
	struct stat st;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	sp_limits_default(&l);
	alarm(5);
	assert_int_equal(config_save_limits(path, &l, err, sizeof err), -1);
	alarm(0);
	assert_non_null(strstr(err, "a FIFO"));
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	unlink(path);
}

static void test_prewarm_and_preload_are_read_or_named_bad(void **state)
{
	struct pg_config cfg;
	char err[512], usage[256];
	char *path = write_tmp("# nothing set\n");
	char *argv[] = { "sandpit", "--config", path, NULL };

	(void)state;
	assert_int_equal(config_load(&cfg, 3, argv, usage, sizeof usage), 0);
	unlink(path);
	free(path);
	/* the defaults: on, the three the demos and lessons use */
	assert_true(cfg.prewarm);
	assert_int_equal(cfg.n_preload, 3);
	assert_string_equal(cfg.preload[2], "matplotlib.pyplot");

	assert_int_equal(config_set(&cfg, "prewarm", "no", err, sizeof err), 0);
	assert_false(cfg.prewarm);
	assert_int_equal(config_set(&cfg, "prewarm", "maybe", err, sizeof err), -1);
	assert_non_null(strstr(err, "bad value 'maybe' for prewarm"));
	assert_false(cfg.prewarm);

	assert_int_equal(config_set(&cfg, "preload", " scipy.stats ,json,  _x1 ", err,
				    sizeof err), 0);
	assert_int_equal(cfg.n_preload, 3);
	assert_string_equal(cfg.preload[0], "scipy.stats");
	assert_string_equal(cfg.preload[1], "json");
	assert_string_equal(cfg.preload[2], "_x1");
	/* a bad name: said, and the list stays as it was */
	static const char *const bad[] = { "numpy, 9lives", "a..b", "os;rm", "numpy,,pandas",
					   "trailing.", ".lead", "p\u00e4nde" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(config_set(&cfg, "preload", bad[i], err, sizeof err), -1);
		assert_non_null(strstr(err, "for preload"));
		assert_int_equal(cfg.n_preload, 3);
	}
	assert_int_equal(config_set(&cfg, "preload", "", err, sizeof err), 0);
	assert_int_equal(cfg.n_preload, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_bad_line_is_reported),
		cmocka_unit_test(test_a_fifo_config_is_refused_at_once),
		cmocka_unit_test(test_saving_limits_over_a_fifo_is_refused_at_once),
		cmocka_unit_test(test_prewarm_and_preload_are_read_or_named_bad),
	};
	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
