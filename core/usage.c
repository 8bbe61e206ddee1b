/* SPDX-License-Identifier: MIT */
/*
 * usage.c - CPU, memory and process counts of the whole sandbox, read from
 * its own /proc (the supervisor holds an fd to it), for hosts without
 * cgroups and for the live gauges.
 *
 * CPU of the tree = for every process still there (running or zombie) its
 * own utime+stime plus the cutime+cstime of the children it reaped. init
 * reaps orphans, so nothing that was waited for is lost. Processes count
 * threads, as the pids limit does.
 *
 * Memory: with one process, its resident set. With several, the sum of
 * their proportional sets (Pss), since forked children share pages that a
 * plain sum of resident sets would count once per child (a fork bomb of
 * 60 small pythons would look like 500 MiB).
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "observe.h"
#include "banned.h"

/* Fields after the ") " of /proc/PID/stat (proc(5) numbers them from 1:
 * state is 3, utime 14 ... rss 24); f[0] holds field 4. */
static int parse_stat(const char *text, uint64_t *ticks, uint64_t *rss_pages,
		      uint32_t *threads)
{
	const char *p = strrchr(text, ')');
	unsigned long long f[50];
	int n = 0;

	if (!p)
		return -1;
	p += 2;
	/* skip the state letter */
	while (*p && !isspace((unsigned char)*p))
		p++;
	while (*p && n < 50) {
		char *end;
		f[n++] = strtoull(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
	/* field numbers from proc(5), minus 4 (pid, comm, state, and 1-based) */
	if (n < 21)
		return -1;
	*ticks = f[14 - 4] + f[15 - 4] + f[16 - 4] + f[17 - 4];
	*threads = (uint32_t)f[20 - 4];
	*rss_pages = f[24 - 4];
	return 0;
}

/* What reading one task's stat found. */
enum task_stat {
	TASK_READ,              /* the fields are set */
	TASK_GONE,              /* gone (or unreadable) */
	TASK_UNPARSED,          /* there, but its stat does not parse */
};

/* Read and parse /proc/PID/stat of one task under procfd. */
static enum task_stat read_task_stat(int procfd, const char *pid, uint64_t *ticks,
				     uint64_t *rss_pages, uint32_t *threads)
{
	char path[64], buf[1024];
	ssize_t len;
	int fd;

	snprintf(path, sizeof path, "%s/stat", pid);
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return TASK_GONE;
	len = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (len <= 0)
		return TASK_GONE;
	buf[len] = '\0';
	return parse_stat(buf, ticks, rss_pages, threads) < 0 ? TASK_UNPARSED : TASK_READ;
}

/* Pss of one process in bytes, or -1 when it cannot be read. */
static long long pss_bytes(int procfd, const char *pid)
{
	char path[64], buf[2048];
	ssize_t n;
	int fd;
	const char *p;

	snprintf(path, sizeof path, "%s/smaps_rollup", pid);
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "\nPss:");
	if (!p)
		return -1;
	return strtoll(p + 5, NULL, 10) * 1024;
}

int sp_proc_sample(int procfd, long clk_tck, struct sp_proc_sample *out)
{
	DIR *d = sp_opendir_at(procfd, ".");
	struct dirent *de;
	uint64_t ticks = 0, pages = 0, pss = 0;
	long page = sysconf(_SC_PAGESIZE);
	/* the processes with memory, for the Pss pass: reading smaps_rollup
	 * walks a process's page tables, so it is done only when there are
	 * several processes to share pages */
	char pids[64][16];
	uint64_t rss[64];
	uint64_t unlisted = 0;
	unsigned nproc = 0, listed = 0;

	memset(out, 0, sizeof *out);
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		uint64_t t, r;
		uint32_t th;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (read_task_stat(procfd, de->d_name, &t, &r, &th) != TASK_READ)
			continue;
		/* pid 1 is sandpit's own init: its reaped children count, it does not */
		if (strcmp(de->d_name, "1") == 0) {
			ticks += t;
			continue;
		}
		ticks += t;
		pages += r;
		out->procs += th;
		nproc++;
		if (r > 0 && listed < 64) {
			snprintf(pids[listed], sizeof pids[listed], "%s", de->d_name);
			rss[listed++] = r * (uint64_t)page;
		} else {
			unlisted += r * (uint64_t)page; /* counted at resident size */
		}
	}
	closedir(d);
	if (nproc > 1) {
		pss = unlisted;
		for (unsigned i = 0; i < listed; i++) {
			long long ps = pss_bytes(procfd, pids[i]);
			pss += ps >= 0 ? (uint64_t)ps : rss[i];
		}
	}
	out->cpu_ms = clk_tck > 0 ? ticks * 1000u / (uint64_t)clk_tck : 0;
	out->rss_bytes = nproc > 1 ? pss : pages * (uint64_t)page;
	return 0;
}

uint32_t sp_proc_count_tasks(int procfd)
{
	DIR *d = sp_opendir_at(procfd, ".");
	struct dirent *de;
	uint32_t n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		uint64_t t, r;
		uint32_t th;

		/* pid 1 is sandpit's own init, outside the program's limit */
		if (!isdigit((unsigned char)de->d_name[0]) || strcmp(de->d_name, "1") == 0)
			continue;
		switch (read_task_stat(procfd, de->d_name, &t, &r, &th)) {
		case TASK_READ: n += th > 0 ? th : 1; break;
		case TASK_UNPARSED: n++; break; /* there all the same */
		case TASK_GONE: break;          /* gone meanwhile */
		}
	}
	closedir(d);
	return n;
}
