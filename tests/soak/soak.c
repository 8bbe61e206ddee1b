/* SPDX-License-Identifier: MIT */
/*
 * soak.c - many runs back to back in one process, through the run API,
 * and nothing may pile up: open fds, child processes, mounts, cgroups,
 * temp entries and resident memory are counted before and after.
 *
 *   soak [RUNS]          (default: $SOAK_RUNS, else 1000)
 *
 * The runs cycle through clean programs (plain, carry in and out, stdin,
 * an exception) and bombs (fork, memory, output, CPU, sleep past the wall
 * limit, a daemon that outlives its program, a run cancelled midway).
 * Each is driven the way the playground drives it: poll the run's fd,
 * drain events, cancel when asked. Every kind also runs from a prepared
 * sandbox (sp_run_prepare, then sp_run_release), and every third cycle
 * one more is prepared and freed unreleased (before or after it is
 * ready), as the playground does when limits change or it quits. A run whose status is not the one its
 * kind must give is counted as wrong. Exit 0 when nothing leaked and no
 * run went wrong, 1 otherwise, 2 when the soak could not start.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sandpit.h"
#include "leaks.h"

#define RSS_SLACK_KB 2048   /* allocator noise, not a leak */
#define WARMUP 12           /* first runs fill caches (libseccomp, jansson) */

struct kind {
	const char *name;
	const char *code;
	enum sp_status want;
	void (*tune)(struct sp_config *c);
	bool cancel;            /* cancel it after its first usage sample */
};

static void t_fork(struct sp_config *c) { c->limits.procs = 16; c->limits.wall_ms = 500; }
static void t_mem(struct sp_config *c) { c->limits.memory_bytes = 64u << 20; }
static void t_out(struct sp_config *c) { c->limits.output_bytes = 64u << 10; }
static void t_cpu(struct sp_config *c) { c->limits.cpu_ms = 200; }
static void t_sleep(struct sp_config *c) { c->limits.wall_ms = 200; }
static void t_carry(struct sp_config *c)
{
	static const char in[] = "{\"n\": 41, \"rows\": [1, 2, 3]}";
	c->carry_in = in;
	c->carry_in_len = sizeof in - 1;
}
static void t_stdin(struct sp_config *c)
{
	static const char data[] = "3\n4\n";
	c->stdin_data = data;
	c->stdin_len = sizeof data - 1;
}

static const struct kind kinds[] = {
	{ "clean", "print(sum(range(1000)))\n", SP_STATUS_OK, NULL, false },
	{ "carry", "carry(n=n + 1, total=sum(rows))\n", SP_STATUS_OK, t_carry, false },
	{ "stdin", "import sys\nprint(sum(int(x) for x in sys.stdin))\n", SP_STATUS_OK, t_stdin, false },
	{ "error", "raise ValueError('on purpose')\n", SP_STATUS_ERROR, NULL, false },
	{ "files", "open('a.txt', 'w').write('x' * 1000)\nimport os\nos.mkdir('d')\n", SP_STATUS_OK, NULL, false },
	{ "forkbomb", "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
	  SP_STATUS_WALL_LIMIT, t_fork, false },
	{ "memory", "b = b'x' * (256 << 20)\n", SP_STATUS_MEMORY_LIMIT, t_mem, false },
	{ "flood", "while True:\n    print('y' * 1000)\n", SP_STATUS_OUTPUT_LIMIT, t_out, false },
	{ "cpu", "while True:\n    pass\n", SP_STATUS_CPU_LIMIT, t_cpu, false },
	{ "sleep", "import time\ntime.sleep(1e6)\n", SP_STATUS_WALL_LIMIT, t_sleep, false },
	{ "daemon",
	  "import os, time\n"
	  "if os.fork() == 0:\n"
	  "    os.setsid()\n"
	  "    if os.fork() == 0:\n"
	  "        time.sleep(600)\n"
	  "    os._exit(0)\n"
	  "print('parent leaves')\n", SP_STATUS_OK, NULL, false },
	{ "cancel", "import time\ntime.sleep(1e6)\n", SP_STATUS_KILLED, NULL, true },
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

/* ---- what is counted ---- */

struct counts {
	long fds, children, mounts, cgroups, tmp, rss_kb;
};

static long count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF)
		if (c == '\n')
			n++;
	fclose(f);
	return n;
}

/* Processes (zombies too) whose parent is us. */
static long count_children(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	long n = 0;
	pid_t me = getpid();

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[300], buf[512], *rp;
		FILE *f;
		int ppid;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof buf, f) && (rp = strrchr(buf, ')')) &&
		    sscanf(rp + 2, "%*c %d", &ppid) == 1 && ppid == me)
			n++;
		fclose(f);
	}
	closedir(d);
	return n;
}

/* Entries of /tmp and /dev/shm owned by a sandbox's host uid (a run's
 * own when started as root), or named sandpit*: the soak runs alone. */
static long count_tmp(void)
{
	return leak_count_tmp("/tmp", "sandpit") + leak_count_tmp("/dev/shm", "sandpit");
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static void take(struct counts *c)
{
	c->fds = leak_count_fds();
	c->children = count_children();
	c->mounts = count_lines("/proc/self/mountinfo");
	c->cgroups = leak_count_cgroups();
	c->tmp = count_tmp();
	c->rss_kb = rss_kb();
}

/* ---- one run, driven like the playground drives it ---- */

/* A prepared sandbox for cfg's limits, waited for when ready is set;
 * NULL when preparing failed (why says). */
static struct sp_run *prepare(const struct sp_limits *l, bool ready, char *why, size_t wlen)
{
	struct sp_prepare p;
	struct sp_run *run;
	struct sp_error err;
	struct sp_event ev;

	memset(&p, 0, sizeof p);
	p.limits = *l;
	if (sp_run_prepare(&p, &run, &err) < 0) {
		snprintf(why, wlen, "prepare: %.400s", err.msg);
		return NULL;
	}
	while (ready && !sp_run_ready(run) && !sp_run_finished(run)) {
		struct pollfd pfd = { .fd = sp_run_fd(run), .events = POLLIN };
		poll(&pfd, 1, sp_run_timeout_ms(run));
		while (sp_run_next_event(run, &ev) > 0)
			;
	}
	if (ready && !sp_run_ready(run)) {
		snprintf(why, wlen, "prepare: %.400s", sp_run_result(run)->error);
		sp_run_free(run);
		return NULL;
	}
	return run;
}

static enum sp_status one_run(const struct kind *k, int mode, bool *start_failed,
			      char *why, size_t wlen)
{
	struct sp_config cfg;
	struct sp_error err;
	struct sp_run *run;
	struct sp_event ev;
	enum sp_status st;
	bool cancelled = false;

	sp_config_init(&cfg);
	cfg.code = k->code;
	cfg.code_len = strlen(k->code);
	cfg.keep_output = true;
	if (k->tune)
		k->tune(&cfg);
	*start_failed = false;
	if (mode == 2) {
		/* prepared and thrown away, half of them before they are ready */
		static unsigned flip;
		run = prepare(&cfg.limits, flip++ % 2, why, wlen);
		if (!run) {
			*start_failed = true;
			return SP_STATUS_SANDBOX_ERROR;
		}
		sp_run_free(run);
	}
	if (mode == 0 && sp_run_start(&cfg, &run, &err) < 0) {
		*start_failed = true;
		snprintf(why, wlen, "%s", err.msg);
		return SP_STATUS_SANDBOX_ERROR;
	}
	if (mode != 0) {
		run = prepare(&cfg.limits, true, why, wlen);
		if (!run) {
			*start_failed = true;
			return SP_STATUS_SANDBOX_ERROR;
		}
		if (sp_run_release(run, &cfg, &err) < 0) {
			*start_failed = true;
			snprintf(why, wlen, "release: %.400s", err.msg);
			sp_run_free(run);
			return SP_STATUS_SANDBOX_ERROR;
		}
	}
	while (!sp_run_finished(run)) {
		struct pollfd pfd = { .fd = sp_run_fd(run), .events = POLLIN };
		int t = sp_run_timeout_ms(run);
		if (t != 0)
			poll(&pfd, 1, t);
		while (sp_run_next_event(run, &ev) > 0) {
			if (k->cancel && !cancelled && ev.type == SP_EVENT_USAGE) {
				sp_run_cancel(run);
				cancelled = true;
			}
		}
	}
	st = sp_run_result(run)->status;
	snprintf(why, wlen, "%s", sp_run_result(run)->error);
	sp_run_free(run);
	return st;
}

static void row(const char *what, long before, long after, long slack, int *leaks)
{
	bool ok = after - before <= slack;
	if (!ok)
		(*leaks)++;
	printf("%-26s %10ld %10ld %+10ld   %s\n", what, before, after, after - before,
	       ok ? "ok" : "LEAK");
}

int main(int argc, char **argv)
{
	const char *env = getenv("SOAK_RUNS");
	long runs = argc > 1 ? atol(argv[1]) : env ? atol(env) : 1000;
	struct counts before, after;
	long wrong[NKINDS] = { 0 }, done[NKINDS] = { 0 }, start_fail = 0, prepared = 0;
	int leaks = 0;
	struct timespec t0, t1;
	char why[512];

	if (runs < 1) {
		fprintf(stderr, "usage: soak [RUNS]  (or SOAK_RUNS)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* warm up: the first runs fill caches that stay, leaks or not */
	for (int i = 0; i < WARMUP; i++) {
		bool sf;
		one_run(&kinds[i % NKINDS], i % 3, &sf, why, sizeof why);
		if (sf) {
			fprintf(stderr, "soak: a run could not start: %s\n", why);
			return 2;
		}
	}
	take(&before);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long i = 0; i < runs; i++) {
		const struct kind *k = &kinds[i % NKINDS];
		bool sf;
		/* cold, prepared, prepared after one thrown away: by cycle */
		int mode = (int)((i / (long)NKINDS) % 3);
		enum sp_status st = one_run(k, mode, &sf, why, sizeof why);
		done[i % NKINDS]++;
		prepared += mode != 0;
		if (sf) {
			start_fail++;
			if (start_fail <= 5)
				printf("run %ld (%s) could not start: %s\n", i, k->name, why);
		} else if (st != k->want) {
			wrong[i % NKINDS]++;
			if (wrong[i % NKINDS] <= 3)
				printf("run %ld (%s): status %s, expected %s%s%s\n", i, k->name,
				       sp_status_name(st), sp_status_name(k->want),
				       why[0] ? ": " : "", why);
		}
		if ((i + 1) % 100 == 0)
			printf("... %ld runs, %ld fds open, RSS %ld KiB\n", i + 1,
			       leak_count_fds(), rss_kb());
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* a killed tree's cgroup empties a moment after the run returns */
	for (int i = 0; i < 50; i++) {
		take(&after);
		if (after.children <= before.children && after.cgroups <= before.cgroups)
			break;
		usleep(100000);
	}

	printf("\nsoak: %ld runs (%ld from prepared sandboxes) in %.1f s (%.1f runs/s)\n\n",
	       runs, prepared,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	       (double)runs / ((double)(t1.tv_sec - t0.tv_sec) +
			       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9));
	printf("%-26s %10s %10s %10s   %s\n", "counted", "before", "after", "delta", "verdict");
	row("open fds", before.fds, after.fds, 0, &leaks);
	row("child processes", before.children, after.children, 0, &leaks);
	row("mounts (mountinfo lines)", before.mounts, after.mounts, 0, &leaks);
	row("cgroups of this process", before.cgroups, after.cgroups, 0, &leaks);
	row("temp entries (/tmp, shm)", before.tmp, after.tmp, 0, &leaks);
	row("RSS (KiB)", before.rss_kb, after.rss_kb, RSS_SLACK_KB, &leaks);

	printf("\n%-10s %8s %8s\n", "kind", "runs", "wrong");
	long total_wrong = 0;
	for (size_t k = 0; k < NKINDS; k++) {
		printf("%-10s %8ld %8ld\n", kinds[k].name, done[k], wrong[k]);
		total_wrong += wrong[k];
	}
	if (start_fail)
		printf("%ld run(s) could not start\n", start_fail);
	printf("\n%s\n", leaks || total_wrong || start_fail ? "soak: FAILED" : "soak: nothing leaked");
	return leaks || total_wrong || start_fail ? 1 : 0;
}
