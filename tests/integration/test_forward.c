/* SPDX-License-Identifier: MIT */
/*
 * test_forward.c - output forwarded straight to the caller's fds
 * (sp_config.forward, what `sandpit run` uses): byte-exact into files, a
 * file in append mode (where splice is refused), a slow non-blocking pipe
 * and a terminal; cut exactly at the output limit;
 * a reader that is gone neither kills the caller (SIGPIPE) nor the run;
 * and nothing arrives as output events meanwhile.
 */
#include "itest.h"

/* stdout: bytes 0..255 over and over, n of them; stderr: 'E' * e. */
static char *flood_program(size_t n, size_t e)
{
	return it_fmt("import sys\n"
		      "pattern = bytes(range(256)) * 4096\n"
		      "left = %zu\n"
		      "while left:\n"
		      "    chunk = pattern[:min(left, len(pattern))]\n"
		      "    sys.stdout.buffer.write(chunk)\n"
		      "    left -= len(chunk)\n"
		      "sys.stdout.flush()\n"
		      "sys.stderr.write('E' * %zu)\n",
		      n, e);
}

static bool is_pattern(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != (unsigned char)(i & 255))
			return false;
	return true;
}

/* Drive a forwarding run to the end (the caller frees it); how many
 * output events it sent. */
static struct sp_run *drive(struct sp_config *cfg, size_t *output_events)
{
	struct sp_run *run = it_start(cfg);
	struct sp_event ev;
	size_t n = 0;

	while (!sp_run_finished(run)) {
		struct pollfd p = { sp_run_fd(run), POLLIN, 0 };
		int t = sp_run_timeout_ms(run);
		if (t != 0)
			poll(&p, 1, t);
		while (sp_run_next_event(run, &ev) > 0)
			if (ev.type == SP_EVENT_STDOUT || ev.type == SP_EVENT_STDERR)
				n++;
	}
	while (sp_run_next_event(run, &ev) > 0)
		if (ev.type == SP_EVENT_STDOUT || ev.type == SP_EVENT_STDERR)
			n++;
	*output_events = n;
	return run;
}

static int open_file(const char *dir, const char *name, char **path)
{
	int fd;

	*path = it_fmt("%s/%s", dir, name);
	fd = open(*path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	return fd;
}

static void test_forward_into_files_is_byte_exact(void **state)
{
	const size_t n = (3u << 20) + 1, e = 100000;
	char *dir = it_tmpdir(), *out_path, *err_path, *name = it_name("fwd_files");
	char *code = flood_program(n, e), *got_out, *got_err;
	struct sp_config cfg = it_config(code, name);
	struct sp_run *run;
	const struct sp_result *r;
	size_t events, out_len = 0, err_len = 0;

	(void)state;
	cfg.keep_output = false;
	cfg.forward = true;
	cfg.limits.output_bytes = 8u << 20;
	cfg.forward_out = open_file(dir, "out", &out_path);
	cfg.forward_err = open_file(dir, "err", &err_path);
	run = drive(&cfg, &events);
	r = sp_run_result(run);
	close(cfg.forward_out);
	close(cfg.forward_err);

	IT_CHECK(r, r->status == SP_STATUS_OK && r->exit_code == 0);
	IT_CHECK(r, r->usage.output_bytes == n + e);
	IT_CHECK(r, !r->truncated);
	IT_CHECK(r, events == 0);
	got_out = it_slurp(out_path, &out_len);
	got_err = it_slurp(err_path, &err_len);
	IT_CHECK(r, out_len == n && is_pattern((unsigned char *)got_out, n));
	IT_CHECK(r, err_len == e && got_err[0] == 'E' && got_err[e - 1] == 'E');
	free(got_out);
	free(got_err);
	free(out_path);
	free(err_path);
	sp_run_free(run);
	free(code);
	free(name);
	it_rmdir(dir);
}

static void test_forward_into_a_slow_nonblocking_pipe(void **state)
{
	const size_t n = 4u << 20;
	char *name = it_name("fwd_slow"), *code = flood_program(n, 0);
	struct sp_config cfg = it_config(code, name);
	struct sp_run *run;
	const struct sp_result *r;
	size_t events;
	int p[2], st = 0;
	pid_t reader;

	(void)state;
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	reader = fork();
	assert_true(reader >= 0);
	if (reader == 0) {
		/* reads 64 KiB at a time with pauses, checks every byte */
		unsigned char *all = malloc(n + 1);
		size_t got = 0;
		ssize_t k;
		close(p[1]);
		while (all && (k = read(p[0], all + got, got + 65536 > n + 1 ? n + 1 - got : 65536)) > 0) {
			got += (size_t)k;
			usleep(2000);
		}
		_exit(all && got == n && is_pattern(all, n) ? 0 : 1);
	}
	close(p[0]);
	fcntl(p[1], F_SETFL, O_NONBLOCK); /* the caller's fd may be non-blocking */
	cfg.keep_output = false;
	cfg.forward = true;
	cfg.limits.output_bytes = 8u << 20;
	cfg.forward_out = p[1];
	cfg.forward_err = p[1];
	run = drive(&cfg, &events);
	r = sp_run_result(run);
	close(p[1]);
	assert_int_equal(waitpid(reader, &st, 0), reader);

	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->usage.output_bytes == n);
	IT_CHECK(r, events == 0);
	IT_CHECK(r, WIFEXITED(st) && WEXITSTATUS(st) == 0);
	sp_run_free(run);
	free(code);
	free(name);
}

static void test_forward_cuts_exactly_at_the_output_limit(void **state)
{
	const size_t limit = 1u << 20;
	char *dir = it_tmpdir(), *out_path, *err_path, *name = it_name("fwd_limit");
	char *code = flood_program(3u << 20, 0), *got;
	struct sp_config cfg = it_config(code, name);
	struct sp_run *run;
	const struct sp_result *r;
	size_t events, len = 0;

	(void)state;
	cfg.keep_output = false;
	cfg.forward = true;
	cfg.limits.output_bytes = limit;
	cfg.forward_out = open_file(dir, "out", &out_path);
	cfg.forward_err = open_file(dir, "err", &err_path);
	run = drive(&cfg, &events);
	r = sp_run_result(run);
	close(cfg.forward_out);
	close(cfg.forward_err);

	IT_CHECK(r, r->status == SP_STATUS_OUTPUT_LIMIT);
	IT_CHECK(r, r->truncated);
	IT_CHECK(r, r->usage.output_bytes == limit);
	IT_CHECK(r, it_viol(r, SP_VIOL_OUTPUT, NULL) != NULL);
	got = it_slurp(out_path, &len);
	IT_CHECK(r, len == limit && is_pattern((unsigned char *)got, len));
	free(got);
	free(out_path);
	free(err_path);
	sp_run_free(run);
	free(code);
	free(name);
	it_rmdir(dir);
}

static void test_a_reader_gone_kills_neither_caller_nor_run(void **state)
{
	char *name = it_name("fwd_gone"), *code = flood_program(300000, 10);
	struct sp_config cfg = it_config(code, name);
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
	struct sp_run *run;
	const struct sp_result *r;
	size_t events;
	int p[2];

	(void)state;
	/* a library user who never touched SIGPIPE: its default kills */
	sigaction(SIGPIPE, &dfl, &old);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	close(p[0]);
	cfg.keep_output = false;
	cfg.forward = true;
	cfg.forward_out = p[1];
	cfg.forward_err = p[1];
	run = drive(&cfg, &events);
	r = sp_run_result(run);
	close(p[1]);
	sigaction(SIGPIPE, &old, NULL);

	IT_CHECK(r, r->status == SP_STATUS_OK && r->exit_code == 0);
	IT_CHECK(r, r->usage.output_bytes == 300010);
	sp_run_free(run);
	free(code);
	free(name);
}

/* splice(2) refuses a target in append mode (`sandpit run p >> log`):
 * the engine copies instead, and nothing is lost or reordered. */
static void test_forward_appends_to_a_file_in_append_mode(void **state)
{
	const size_t n = (1u << 20) + 7;
	char *dir = it_tmpdir(), *name = it_name("fwd_append");
	char *code = flood_program(n, 0), *path = it_fmt("%s/log", dir), *got;
	struct sp_config cfg = it_config(code, name);
	struct sp_run *run;
	const struct sp_result *r;
	size_t events, len = 0;
	int fd;

	(void)state;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "HEAD", 4), 4);
	close(fd);
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	assert_true(fd >= 0);
	cfg.keep_output = false;
	cfg.forward = true;
	cfg.limits.output_bytes = 8u << 20;
	cfg.forward_out = fd;
	cfg.forward_err = fd;
	run = drive(&cfg, &events);
	r = sp_run_result(run);
	close(fd);

	IT_CHECK(r, r->status == SP_STATUS_OK);
	got = it_slurp(path, &len);
	IT_CHECK(r, len == n + 4 && memcmp(got, "HEAD", 4) == 0 &&
		    is_pattern((unsigned char *)got + 4, n));
	free(got);
	sp_run_free(run);
	free(path);
	free(code);
	free(name);
	it_rmdir(dir);
}

static void test_forward_into_a_terminal(void **state)
{
	char *name = it_name("fwd_tty");
	struct sp_config cfg = it_config("print('hello, terminal')\n", name);
	struct sp_run *run;
	const struct sp_result *r;
	char buf[256] = "";
	size_t events, have = 0;
	int master, slave;

	(void)state;
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(master >= 0);
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	assert_true(slave >= 0);
	cfg.keep_output = false;
	cfg.forward = true;
	cfg.forward_out = slave;
	cfg.forward_err = slave;
	run = drive(&cfg, &events);
	r = sp_run_result(run);
	for (;;) {
		struct pollfd p = { master, POLLIN, 0 };
		ssize_t k;
		if (poll(&p, 1, 1000) != 1 || have >= sizeof buf - 1)
			break;
		k = read(master, buf + have, sizeof buf - 1 - have);
		if (k <= 0)
			break;
		have += (size_t)k;
		buf[have] = '\0';
		if (strstr(buf, "hello, terminal"))
			break;
	}
	close(slave);
	close(master);

	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(buf, "hello, terminal"));
	sp_run_free(run);
	free(name);
}

/* A target nobody reads for a while must not hold the wall limit back:
 * the deadline fires on time, and the rest is delivered once the reader
 * comes back (wall_ms is the sandbox's time, not the reader's). */
static void test_a_stalled_reader_does_not_stop_the_deadline(void **state)
{
	const size_t n = 6u << 20;
	char *name = it_name("fwd_stall"), *code = flood_program(n, 0), *prog;
	struct sp_config cfg;
	struct sp_run *run;
	const struct sp_result *r;
	size_t events;
	int p[2], st = 0;
	pid_t reader;

	(void)state;
	prog = it_fmt("%simport time\ntime.sleep(30)\n", code);
	cfg = it_config(prog, name);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	reader = fork();
	assert_true(reader >= 0);
	if (reader == 0) {
		char buf[65536];
		close(p[1]);
		sleep(4); /* well past the 1 s wall limit */
		while (read(p[0], buf, sizeof buf) > 0)
			;
		_exit(0);
	}
	close(p[0]);
	cfg.keep_output = false;
	cfg.forward = true;
	cfg.limits.output_bytes = 8u << 20;
	cfg.limits.wall_ms = 1000;
	cfg.forward_out = p[1];
	cfg.forward_err = p[1];
	run = drive(&cfg, &events);
	r = sp_run_result(run);
	close(p[1]);
	assert_int_equal(waitpid(reader, &st, 0), reader);

	IT_CHECK(r, r->status == SP_STATUS_WALL_LIMIT);
	IT_CHECK(r, it_viol(r, SP_VIOL_WALL, NULL) != NULL);
	/* before the reader came back (4 s) */
	SP_TIMING(r->usage.wall_ms < 3500, "1,150 ms", "the wall-limited run took %llu ms",
		  (unsigned long long)r->usage.wall_ms);
	sp_run_free(run);
	free(prog);
	free(code);
	free(name);
}

static void test_forward_and_keep_output_are_refused_together(void **state)
{
	struct sp_config cfg = it_config("print(1)\n", "both.py");
	struct sp_run *run = NULL;
	struct sp_error err = { "" };

	(void)state;
	cfg.forward = true;
	cfg.forward_out = 1;
	cfg.forward_err = 2;
	cfg.keep_output = true;
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_null(run);
	assert_true(it_contains(err.msg, "forward and keep_output"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forward_into_files_is_byte_exact),
		cmocka_unit_test(test_forward_into_a_slow_nonblocking_pipe),
		cmocka_unit_test(test_forward_cuts_exactly_at_the_output_limit),
		cmocka_unit_test(test_a_reader_gone_kills_neither_caller_nor_run),
		cmocka_unit_test(test_forward_appends_to_a_file_in_append_mode),
		cmocka_unit_test(test_forward_into_a_terminal),
		cmocka_unit_test(test_a_stalled_reader_does_not_stop_the_deadline),
		cmocka_unit_test(test_forward_and_keep_output_are_refused_together),
	};

	return cmocka_run_group_tests_name("integration/forward", tests, NULL, NULL);
}
