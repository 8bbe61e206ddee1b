/* SPDX-License-Identifier: MIT */
/*
 * prepared_run.c - the hostile suite's way into prepared runs (the CLI's
 * `sandpit run` stays cold): test_prepared.sh builds it against the
 * build's libsandpit.a.
 *
 *   prepared_run OUT.json PROG.py [PRELOAD] [VICTIM.py VICTIM.json SECRET_FILE]
 *
 * Prepares a sandbox (PRELOAD: comma-separated modules, which may name a
 * marker module that does not exist, so that host_clean finds the
 * interpreter by its command line), releases PROG.py into it and writes
 * the JSON result to OUT.json. With a victim: a second sandbox is
 * prepared beside the first, and 0.5 s after the first program started,
 * VICTIM.py is released into it with the secret (SECRET_FILE's first
 * line: not on the command line, which the sandbox's init, a copy of this
 * process, shows as its own) in its stdin and carry-in; its result goes
 * to VICTIM.json. Exit 0 when both ran (whatever their status), 2 if not.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sandpit.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n + 4096 > cap) {
			char *b = realloc(buf, cap = cap * 2 + 8192);
			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return buf;
}

static struct sp_run *prepare(const char *list)
{
	static char copy[1024];
	static const char *names[32];
	struct sp_prepare p;
	struct sp_run *run;
	struct sp_error err;
	struct sp_event ev;
	size_t n = 0;

	memset(&p, 0, sizeof p);
	sp_limits_default(&p.limits);
	snprintf(copy, sizeof copy, "%s", list ? list : "");
	for (char *s = strtok(copy, ","); s && n < 32; s = strtok(NULL, ","))
		names[n++] = s;
	p.preload = names;
	p.n_preload = n;
	if (sp_run_prepare(&p, &run, &err) < 0) {
		fprintf(stderr, "prepared_run: %s\n", err.msg);
		exit(2);
	}
	while (!sp_run_ready(run) && !sp_run_finished(run)) {
		struct pollfd pfd = { sp_run_fd(run), POLLIN, 0 };
		poll(&pfd, 1, sp_run_timeout_ms(run));
		while (sp_run_next_event(run, &ev) > 0)
			;
	}
	if (!sp_run_ready(run)) {
		fprintf(stderr, "prepared_run: preparing failed: %s\n", sp_run_result(run)->error);
		exit(2);
	}
	return run;
}

static void release(struct sp_run *run, const char *path, const char *secret)
{
	static char carry[512];
	struct sp_config cfg;
	struct sp_error err;
	const char *base = strrchr(path, '/');
	size_t len = 0;
	char *code = slurp(path, &len);

	if (!code) {
		fprintf(stderr, "prepared_run: cannot read %s\n", path);
		exit(2);
	}
	sp_config_init(&cfg);
	cfg.code = code;
	cfg.code_len = len;
	cfg.filename = base ? base + 1 : path;
	cfg.keep_output = true;
	if (secret) {
		snprintf(carry, sizeof carry, "{\"secret\": \"%s\"}", secret);
		cfg.carry_in = carry;
		cfg.carry_in_len = strlen(carry);
		cfg.stdin_data = secret;
		cfg.stdin_len = strlen(secret);
	}
	if (sp_run_release(run, &cfg, &err) < 0) {
		fprintf(stderr, "prepared_run: release: %s\n", err.msg);
		exit(2);
	}
	free(code);
}

static void write_result(struct sp_run *run, const char *out)
{
	char *json = sp_result_to_json(sp_run_result(run));
	FILE *f = fopen(out, "w");

	if (!json || !f) {
		fprintf(stderr, "prepared_run: cannot write %s\n", out);
		exit(2);
	}
	fputs(json, f);
	fclose(f);
	free(json);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct sp_run *a, *b = NULL;
	bool b_released = false;
	double t0;

	if (argc != 3 && argc != 4 && argc != 7) {
		fprintf(stderr, "usage: prepared_run OUT.json PROG.py [PRELOAD] "
			"[VICTIM.py VICTIM.json SECRET_FILE]\n");
		return 2;
	}
	a = prepare(argc > 3 ? argv[3] : NULL);
	if (argc == 7) {
		size_t n = 0;
		char *s = slurp(argv[6], &n);
		if (!s || n == 0) {
			fprintf(stderr, "prepared_run: no secret in %s\n", argv[6]);
			return 2;
		}
		s[strcspn(s, "\n")] = '\0';
		argv[6] = s;
		b = prepare(argv[3]);
	}
	release(a, argv[2], NULL);
	t0 = now_ms();
	while (!sp_run_finished(a) || (b && (!b_released || !sp_run_finished(b)))) {
		struct pollfd pfd[2] = { { sp_run_fd(a), POLLIN, 0 },
					 { b ? sp_run_fd(b) : -1, POLLIN, 0 } };
		struct sp_event ev;
		poll(pfd, 2, 50);
		while (sp_run_next_event(a, &ev) > 0)
			;
		if (b && !b_released && now_ms() - t0 > 500) {
			release(b, argv[4], argv[6]);
			b_released = true;
		}
		while (b && sp_run_next_event(b, &ev) > 0)
			;
	}
	write_result(a, argv[1]);
	if (b)
		write_result(b, argv[5]);
	sp_run_free(a);
	sp_run_free(b);
	return 0;
}
