/* SPDX-License-Identifier: MIT */
/*
 * cgroup.c - a cgroup per run, where the host grants one, for memory,
 * processes and CPU accounting of the whole process tree.
 *
 * Best first:
 *   v2  the unified hierarchy. As root: /sys/fs/cgroup/sandpit/run-*.
 *       As an ordinary user: only in a cgroup delegated to us (owned by
 *       our uid, e.g. `systemd-run --user --scope -p Delegate=yes`); the
 *       supervisor then moves itself into a leaf so the controllers can be
 *       enabled for its siblings (the "no internal processes" rule).
 *   v1  the legacy controllers (memory, pids, cpuacct), as root, below the
 *       cgroup the supervisor is already in.
 * Without either, limits fall back to rlimits and /proc sampling
 * (usage.c); the run's `layers` says which was used.
 *
 * Many sandpits share a parent cgroup: several on one host, some in pid
 * namespaces of their own (a CI job, a container, a test harness), where
 * a pid says nothing about who is alive and two sandpits can have the
 * same one. So a run's cgroup is named PREFIX-PID-TOKEN, TOKEN 64 bits of
 * getrandom (the PID, the sandpit's in its own namespace, only tells a
 * person whose it was), and it is held by a lock: flock on the
 * cgroup's own directory, which every sandpit on the host sees, in any
 * namespace, and which goes when its holder dies, however it dies. A
 * sweep removes only a cgroup that nobody holds. Between making a cgroup
 * and locking it (a mkdir, an open and a flock) a sandpit holds its
 * parent's lock shared, and a sweep runs only with the parent's lock
 * exclusive, so a cgroup that another sandpit has just made, still
 * empty, is never taken for abandoned. Each waits for the other only
 * that long: neither holds the parent's lock across anything slower.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "base.h"
#include "result.h"
#include "sandbox.h"
#include "cgroup_join.h"
#include "banned.h"

/* The files the run's figures are read from. A cgroup file is opened
 * once and read again from offset 0, which renders it afresh: an open of
 * a kernfs file costs far more than its read, and the end of every run
 * reads seven of them. */
enum cg_stat {
	CG_CPU, CG_MEM, CG_MEM_PEAK, CG_MEM_EVENTS, CG_MEM_HITS,
	CG_PIDS, CG_PIDS_PEAK, CG_PIDS_EVENTS, CG_STATS
};

static const struct {
	const char *v1, *v2;
} stat_files[CG_STATS] = {
	[CG_CPU] = { "cpuacct.usage", "cpu.stat" },
	[CG_MEM] = { "memory.usage_in_bytes", "memory.current" },
	[CG_MEM_PEAK] = { "memory.max_usage_in_bytes", "memory.peak" },
	[CG_MEM_EVENTS] = { "memory.oom_control", "memory.events" },
	[CG_MEM_HITS] = { "memory.failcnt", "memory.events" },
	[CG_PIDS] = { "pids.current", "pids.current" },
	[CG_PIDS_PEAK] = { "pids.peak", "pids.peak" },
	[CG_PIDS_EVENTS] = { "pids.events", "pids.events" },
};

struct sp_cgroup {
	int version;
	char mem[PATH_MAX], pids[PATH_MAX], cpu[PATH_MAX];
	bool has_mem, has_pids, has_cpu;
	bool has_pids_peak;  /* pids.peak: Linux 6.13, v1 and v2 */
	unsigned controllers;  /* v2: SP_CG_* the run's cgroup has */
	char why[512];         /* v2: why any other is missing, or "" */
	int fd;                /* v2: the run's directory (CLONE_INTO_CGROUP) and its lock, or -1 */
	int lock[3];           /* v1: the memory, pids and cpuacct directories, locked, or -1 */
	int join[SP_CGROUP_JOIN_MAX]; /* v1: each controller's `tasks` (cgroup_join.h) */
	int n_join;
	int stat_fd[CG_STATS];  /* the figures' files, open once (see stat_text), or -1 */
};

static int write_at(const char *dir, const char *file, const char *fmt, ...)
	SP_PRINTF(3, 4);
static int write_at(const char *dir, const char *file, const char *fmt, ...)
{
	char path[PATH_MAX + 64], text[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	snprintf(path, sizeof path, "%s/%s", dir, file);
	return sp_write_file(path, text);
}

static const char *stat_dir(const struct sp_cgroup *cg, enum cg_stat st)
{
	return st == CG_CPU ? cg->cpu : st >= CG_PIDS ? cg->pids : cg->mem;
}

/* The text of one figure's file, read from its start into buf; NULL when
 * it cannot be read. */
static const char *stat_text(struct sp_cgroup *cg, enum cg_stat st, char *buf, size_t len)
{
	ssize_t n;

	if (cg->stat_fd[st] < 0) {
		char path[PATH_MAX + 64];
		snprintf(path, sizeof path, "%s/%s", stat_dir(cg, st),
			 cg->version == 2 ? stat_files[st].v2 : stat_files[st].v1);
		cg->stat_fd[st] = open(path, O_RDONLY | O_CLOEXEC);
		if (cg->stat_fd[st] < 0)
			return NULL;
	}
	do
		n = pread(cg->stat_fd[st], buf, len - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

static uint64_t read_u64(struct sp_cgroup *cg, enum cg_stat st)
{
	char buf[64];
	const char *text = stat_text(cg, st, buf, sizeof buf);

	return text ? strtoull(text, NULL, 10) : 0;
}

/* The value of "key N" among the file's lines. */
static uint64_t read_key(struct sp_cgroup *cg, enum cg_stat st, const char *key)
{
	char buf[4096];
	const char *p = stat_text(cg, st, buf, sizeof buf);
	size_t klen = strlen(key);

	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (strncmp(p, key, klen) == 0 && p[klen] == ' ')
			return strtoull(p + klen + 1, NULL, 10);
	return 0;
}

/* Whether the cgroup has the controller a figure's file belongs to. */
static bool stat_present(const struct sp_cgroup *cg, enum cg_stat st)
{
	switch (st) {
	case CG_CPU: return cg->has_cpu;
	case CG_PIDS_PEAK: return cg->has_pids_peak;
	case CG_PIDS: case CG_PIDS_EVENTS: return cg->has_pids;
	default: return cg->has_mem;
	}
}

/* Open every figure's file now, while nothing waits on the supervisor. */
static void open_stats(struct sp_cgroup *cg)
{
	char buf[4096];

	for (enum cg_stat st = 0; st < CG_STATS; st++)
		if (stat_present(cg, st))
			stat_text(cg, st, buf, sizeof buf);
}

static struct sp_cgroup *cgroup_new(void)
{
	struct sp_cgroup *cg = calloc(1, sizeof *cg);

	if (!cg)
		return NULL;
	cg->fd = -1;
	for (int i = 0; i < 3; i++)
		cg->lock[i] = -1;
	for (int st = 0; st < CG_STATS; st++)
		cg->stat_fd[st] = -1;
	return cg;
}

/* Our own cgroup path in hierarchy `controller` ("" = the v2 line). */
static int self_path(const char *controller, char *out, size_t outlen)
{
	char *text = sp_read_file("/proc/self/cgroup", 65536, NULL);
	int rc = -1;

	if (!text)
		return -1;
	for (char *line = text, *next; line && *line; line = next) {
		char *c1, *c2;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		bool match = false;
		if (!*controller) {
			match = c1[1] == '\0';
		} else {
			for (char *tok = c1 + 1, *save = NULL;
			     (tok = strtok_r(tok, ",", &save)); tok = NULL)
				if (strcmp(tok, controller) == 0)
					match = true;
		}
		if (match) {
			snprintf(out, outlen, "%s", c2 + 1);
			rc = 0;
			break;
		}
	}
	free(text);
	return rc;
}

static bool is_cgroup2(const char *path)
{
	struct statfs sf;
	return statfs(path, &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC;
}

/* ---- names, locks and the sweep ---- */

/* The TOKEN of a run's cgroup names, the host's only: 64 random bits as
 * 16 letters a-p, a nibble each. Never a digit: an older sandpit's sweep
 * read a number there (PREFIX-PID-N) and would take it for its own. */
#define TOKEN_LEN 16
static int run_token(char out[TOKEN_LEN + 1])
{
	uint64_t r;

	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
		return -1;
	for (int i = 0; i < TOKEN_LEN; i++, r >>= 4)
		out[i] = (char)('a' + (r & 15));
	out[TOKEN_LEN] = '\0';
	return 0;
}

/* Whether name is PREFIX-PID-TOKEN, as make_locked names a run's cgroup.
 * Older names (PREFIX-PID-N, never locked) are not: what holds them
 * cannot be told, so they are left alone. */
static bool is_run_name(const char *name, const char *prefix)
{
	size_t plen = strlen(prefix), digits;
	const char *p = name + plen + 1;

	if (strncmp(name, prefix, plen) != 0 || name[plen] != '-')
		return false;
	digits = strspn(p, "0123456789");
	if (digits == 0 || p[digits] != '-')
		return false;
	p += digits + 1;
	return strlen(p) == TOKEN_LEN && strspn(p, "abcdefghijklmnop") == TOKEN_LEN;
}

/* Removes the run cgroups below the parent (pfd) that no sandpit holds:
 * those of a sandpit killed outright (SIGKILL, a crash), which could
 * not remove them. The caller holds the parent's lock exclusive, so no
 * sandpit is between making one and locking it; rmdir refuses any that
 * still holds a process. */
static void sweep_stale(int pfd, const char *prefix)
{
	int dfd = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *de;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		int fd;

		if (!is_run_name(de->d_name, prefix))
			continue;
		fd = openat(pfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlinkat(pfd, de->d_name, AT_REMOVEDIR);
		close(fd);
	}
	closedir(d);
}

static void flock_wait(int fd, int how)
{
	while (flock(fd, how) < 0 && errno == EINTR)
		;
}

/* Makes parent/PREFIX-PID-TOKEN (its path into out) and locks it: the
 * locked directory's fd, which holds the lock for as long as it is open,
 * or -1 with errno. Abandoned cgroups of the same prefix are swept first. */
static int make_locked(const char *parent, const char *prefix, const char *token,
		       char *out, size_t outlen)
{
	char name[80];
	int pfd, fd = -1, e;

	snprintf(name, sizeof name, "%s-%d-%s", prefix, (int)getpid(), token);
	snprintf(out, outlen, "%s/%s", parent, name);
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -1;
	flock_wait(pfd, LOCK_EX);      /* no sandpit between its mkdir and its lock */
	sweep_stale(pfd, prefix);
	flock_wait(pfd, LOCK_SH);      /* no sweep until ours is locked */
	if (mkdirat(pfd, name, 0755) == 0) {
		fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) < 0) {
			e = errno;
			unlinkat(pfd, name, AT_REMOVEDIR);
			if (fd >= 0)
				close(fd);
			fd = -1;
			errno = e;
		}
	}
	e = errno;
	flock(pfd, LOCK_UN);           /* explicit: a fork meanwhile holds pfd too */
	close(pfd);
	errno = e;
	return fd;
}

/* init is in the cgroup too: the program's processes get the whole limit */
static unsigned long long pids_max(const struct sp_limits *l)
{
	return (unsigned long long)l->procs + 1;
}

/* Appends text to a "; "-separated list of reasons. */
static void add_why(char *why, size_t len, const char *text)
{
	size_t n = strlen(why);

	if (n < len && *text)
		snprintf(why + n, len - n, "%s%s", n ? "; " : "", text);
}

/* The delegated case: our own cgroup becomes the parent of the runs. The
 * kernel gives controllers only to a cgroup without processes of its
 * own, so every process in it (sandpit, and a shell that started it in
 * the same scope) moves into the leaf sandpit-super first, as container
 * runtimes do with their init group; the leaf sits inside the same
 * delegated cgroup, so its limits still hold for all of them. Returns 0,
 * or -1 with why naming what the kernel refused. */
static int leave_for_leaf(const char *base, char *why, size_t len)
{
	char sup[PATH_MAX + 32], path[PATH_MAX + 64];
	char *text, *save = NULL;
	int stuck = 0, stuck_errno = 0;
	long first_stuck = 0;

	snprintf(sup, sizeof sup, "%s/sandpit-super", base);
	if (mkdir(sup, 0755) < 0 && errno != EEXIST) {
		snprintf(why, len, "cannot make the leaf %s: %s", sup, strerror(errno));
		return -1;
	}
	if (write_at(sup, "cgroup.procs", "0") < 0) {
		snprintf(why, len, "cannot move sandpit into %s: %s", sup, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof path, "%s/cgroup.procs", base);
	text = sp_read_file(path, 65536, NULL);
	for (char *tok = text; text && (tok = strtok_r(tok, "\n", &save)); tok = NULL) {
		long pid = strtol(tok, NULL, 10);
		if (pid > 0 && write_at(sup, "cgroup.procs", "%ld", pid) < 0 && errno != ESRCH) {
			if (!stuck++) {
				first_stuck = pid;
				stuck_errno = errno;
			}
		}
	}
	free(text);
	if (stuck) {
		snprintf(why, len, "pid %ld%s stays in %s (%s), and the kernel gives controllers "
			 "only to a cgroup without processes: start sandpit in a scope of its own",
			 first_stuck, stuck > 1 ? " and others" : "", base, strerror(stuck_errno));
		return -1;
	}
	return 0;
}

/* Where the runs' cgroups go, and the controllers they get: as root on the
 * host's own hierarchy /sys/fs/cgroup/sandpit; else (an ordinary user, or
 * root in a container's cgroup namespace, whose top holds the container's
 * processes) the cgroup we are in, if it is ours to write. */
static int v2_parent(char *base, size_t blen, unsigned *got, char *why, size_t wlen)
{
	char self[PATH_MAX], whyr[256] = "";
	size_t n;

	if (self_path("", self, sizeof self) < 0) {
		snprintf(why, wlen, "no cgroup v2 line in /proc/self/cgroup");
		return -1;
	}
	/* only the real top of the hierarchy lacks cgroup.type */
	if (geteuid() == 0 && access("/sys/fs/cgroup/cgroup.type", F_OK) < 0) {
		unsigned top = sp_cgroup_enable("/sys/fs/cgroup", SP_CG_ALL, sp_write_file,
						whyr, sizeof whyr);
		snprintf(base, blen, "/sys/fs/cgroup/sandpit");
		if (mkdir(base, 0755) < 0 && errno != EEXIST) {
			snprintf(why, wlen, "mkdir %s: %s", base, strerror(errno));
			return -1;
		}
		*got = sp_cgroup_enable(base, top, sp_write_file, why, wlen);
		add_why(why, wlen, whyr);
		return 0;
	}
	snprintf(base, blen, "/sys/fs/cgroup%s", strcmp(self, "/") ? self : "");
	n = strlen(base);
	if (n > 14 && strcmp(base + n - 14, "/sandpit-super") == 0)
		base[n - 14] = '\0';   /* a run before this one moved us there */
	{
		char procs[PATH_MAX + 32], sub[PATH_MAX + 32];
		snprintf(procs, sizeof procs, "%s/cgroup.procs", base);
		snprintf(sub, sizeof sub, "%s/cgroup.subtree_control", base);
		if (access(base, W_OK) < 0 || access(procs, W_OK) < 0 || access(sub, W_OK) < 0) {
			if (errno == EROFS)   /* a container's cgroup, as runtimes mount it */
				snprintf(why, wlen, "%s is mounted read-only (in a container: "
					 "docs/deploy.md says how to give it a writable cgroup)", base);
			else
				snprintf(why, wlen, "%s is not delegated to this user (uid %u): "
					 "run sandpit in a delegated scope (sandpit doctor says how)",
					 base, (unsigned)geteuid());
			return -1;
		}
	}
	if (leave_for_leaf(base, why, wlen) < 0)
		return -1;
	*got = sp_cgroup_enable(base, SP_CG_ALL, sp_write_file, why, wlen);
	return 0;
}

static int setup_v2(struct sp_cgroup *cg, const struct sp_limits *l,
		    char *detail, size_t dlen)
{
	char base[PATH_MAX + 32], why[512] = "", names[32], token[TOKEN_LEN + 1];
	unsigned got = 0, have;

	if (!is_cgroup2("/sys/fs/cgroup")) {
		snprintf(detail, dlen, "no cgroup v2 hierarchy");
		return -1;
	}
	if (v2_parent(base, sizeof base, &got, why, sizeof why) < 0) {
		snprintf(detail, dlen, "cgroup v2: %s", why);
		return -1;
	}
	if (run_token(token) < 0) {
		snprintf(detail, dlen, "cgroup v2: no random name (getrandom: %s)", strerror(errno));
		return -1;
	}
	cg->fd = make_locked(base, "run", token, cg->mem, sizeof cg->mem);
	if (cg->fd < 0) {
		snprintf(detail, dlen, "cgroup v2: mkdir %s: %s", cg->mem, strerror(errno));
		cg->mem[0] = '\0';
		return -1;
	}
	snprintf(cg->pids, sizeof cg->pids, "%s", cg->mem);
	snprintf(cg->cpu, sizeof cg->cpu, "%s", cg->mem);
	cg->version = 2;
	/* what the run's cgroup really has, whatever the writes said */
	have = got & sp_cgroup_list_bits(cg->mem, "cgroup.controllers", NULL);
	if (have & SP_CG_MEMORY) {
		if (write_at(cg->mem, "memory.max", "%llu", (unsigned long long)l->memory_bytes) == 0) {
			cg->has_mem = true;
			/* no swapping around the limit, where swap is accounted */
			write_at(cg->mem, "memory.swap.max", "0");
		} else {
			have &= ~SP_CG_MEMORY;
			add_why(why, sizeof why, "memory: memory.max not writable");
		}
	}
	if (have & SP_CG_PIDS) {
		if (write_at(cg->mem, "pids.max", "%llu", pids_max(l)) == 0)
			cg->has_pids = true;
		else {
			have &= ~SP_CG_PIDS;
			add_why(why, sizeof why, "pids: pids.max not writable");
		}
	}
	/* cpu.stat is in every v2 cgroup, with or without the cpu controller
	 * (which only throttles): the run's CPU total is always the cgroup's */
	cg->has_cpu = true;
	cg->controllers = have;
	snprintf(cg->why, sizeof cg->why, "%s", why);
	if (!cg->has_mem && !cg->has_pids) {
		snprintf(detail, dlen, "cgroup v2 without memory and pids: %s", why);
		rmdir(cg->mem);
		cg->mem[0] = '\0';
		close(cg->fd);
		cg->fd = -1;
		return -1;
	}
	sp_cgroup_bits_text(have, names, sizeof names);
	snprintf(detail, dlen, "cgroup v2 %s%s%s", names, why[0] ? "; " : "", why);
	return 0;
}

/* The run's cgroup in the v1 hierarchy carrying `controller`, below the
 * cgroup we are in: made, its path into out; its lock's fd, or -1. */
static int v1_dir(const char *controller, const char *token, char *out, size_t outlen)
{
	char self[PATH_MAX], mnt[PATH_MAX], parent[2 * PATH_MAX];

	if (self_path(controller, self, sizeof self) < 0)
		return -1;
	snprintf(mnt, sizeof mnt, "/sys/fs/cgroup/%s", controller);
	if (access(mnt, W_OK) < 0) {
		snprintf(mnt, sizeof mnt, "/sys/fs/cgroup/%s", strcmp(controller, "cpuacct") ? controller : "cpu,cpuacct");
		if (access(mnt, W_OK) < 0)
			return -1;
	}
	snprintf(parent, sizeof parent, "%s%s", mnt, strcmp(self, "/") ? self : "");
	return make_locked(parent, "sandpit", token, out, outlen);
}

static int setup_v1(struct sp_cgroup *cg, const struct sp_limits *l,
		    char *detail, size_t dlen)
{
	char token[TOKEN_LEN + 1];

	if (geteuid() != 0) {
		snprintf(detail, dlen, "cgroup v1 needs root");
		return -1;
	}
	/* one name for the run in every controller */
	if (run_token(token) < 0) {
		snprintf(detail, dlen, "cgroup v1: no random name (getrandom: %s)", strerror(errno));
		return -1;
	}
	if ((cg->lock[0] = v1_dir("memory", token, cg->mem, sizeof cg->mem)) >= 0) {
		cg->has_mem = write_at(cg->mem, "memory.limit_in_bytes", "%llu",
				       (unsigned long long)l->memory_bytes) == 0;
		/* no swapping around the limit, where swap accounting exists */
		write_at(cg->mem, "memory.memsw.limit_in_bytes", "%llu",
			 (unsigned long long)l->memory_bytes);
	}
	if ((cg->lock[1] = v1_dir("pids", token, cg->pids, sizeof cg->pids)) >= 0)
		cg->has_pids = write_at(cg->pids, "pids.max", "%llu", pids_max(l)) == 0;
	if ((cg->lock[2] = v1_dir("cpuacct", token, cg->cpu, sizeof cg->cpu)) >= 0)
		cg->has_cpu = true;
	cg->version = 1;
	/* init joins them itself (cgroup_join.h); a file that will not open
	 * leaves init to be moved the old way, by sp_cgroup_attach */
	{
		const char *dirs[SP_CGROUP_JOIN_MAX] = {
			cg->has_mem ? cg->mem : NULL, cg->has_pids ? cg->pids : NULL,
			cg->has_cpu ? cg->cpu : NULL,
		};
		for (int i = 0; i < SP_CGROUP_JOIN_MAX && cg->n_join >= 0; i++) {
			char path[PATH_MAX + 16];
			int fd;
			if (!dirs[i])
				continue;
			snprintf(path, sizeof path, "%s/tasks", dirs[i]);
			fd = open(path, O_WRONLY | O_CLOEXEC);
			if (fd < 0) {
				while (cg->n_join > 0)
					close(cg->join[--cg->n_join]);
				cg->n_join = -1;
				break;
			}
			cg->join[cg->n_join++] = fd;
		}
		if (cg->n_join < 0)
			cg->n_join = 0;
	}
	if (!cg->has_mem && !cg->has_pids) {
		snprintf(detail, dlen, "cgroup v1 memory/pids not writable");
		return -1;
	}
	snprintf(detail, dlen, "cgroup v1%s%s%s", cg->has_mem ? " memory" : "",
		 cg->has_pids ? " pids" : "", cg->has_cpu ? " cpuacct" : "");
	return 0;
}

static struct sp_cgroup *made(struct sp_cgroup *cg)
{
	if (cg->has_pids) {
		char path[PATH_MAX + 16];
		snprintf(path, sizeof path, "%s/pids.peak", cg->pids);
		cg->has_pids_peak = access(path, R_OK) == 0;
	}
	return cg;
}

struct sp_cgroup *sp_cgroup_create_early(const struct sp_limits *l, char *detail,
					 size_t detail_len, bool *late)
{
	struct sp_cgroup *cg;
	char why2[600] = "";

	*late = false;
	if (getenv("SANDPIT_NO_CGROUP")) {
		snprintf(detail, detail_len, "disabled by SANDPIT_NO_CGROUP");
		return NULL;
	}
	cg = cgroup_new();
	if (!cg)
		return NULL;
	if (setup_v2(cg, l, why2, sizeof why2) == 0) {
		snprintf(detail, detail_len, "%s", why2);
		return made(cg);
	}
	free(cg);
	snprintf(detail, detail_len, "%s", why2);
	/* a pure v2 host has no v1 controllers: its reason is the one */
	*late = !is_cgroup2("/sys/fs/cgroup");
	return NULL;
}

struct sp_cgroup *sp_cgroup_create_late(const struct sp_limits *l, char *detail,
					size_t detail_len)
{
	struct sp_cgroup *cg = cgroup_new();
	char why2[600];

	if (!cg)
		return NULL;
	snprintf(why2, sizeof why2, "%s", detail);  /* v2's reason, from the early step */
	if (setup_v1(cg, l, detail, detail_len) == 0) {
		made(cg);
		open_stats(cg);
		return cg;
	}
	sp_cgroup_destroy(cg);
	snprintf(detail, detail_len, "%s; %s", why2, geteuid() ? "cgroup v1 needs root" : "no writable v1 controllers");
	return NULL;
}

struct sp_cgroup *sp_cgroup_create(const struct sp_limits *l, char *detail,
				   size_t detail_len)
{
	bool late;
	struct sp_cgroup *cg = sp_cgroup_create_early(l, detail, detail_len, &late);

	return late ? sp_cgroup_create_late(l, detail, detail_len) : cg;
}

int sp_cgroup_fd(const struct sp_cgroup *cg) { return cg ? cg->fd : -1; }

int sp_cgroup_join_fds(const struct sp_cgroup *cg, int fds[SP_CGROUP_JOIN_MAX])
{
	int n = cg && cg->version == 1 ? cg->n_join : 0;

	for (int i = 0; i < n; i++)
		fds[i] = cg->join[i];
	return n;
}

int sp_cgroup_join_self(const int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (write(fds[i], "0", 1) != 1)
			return -1;
	return 0;
}

const char *sp_cgroup_path(const struct sp_cgroup *cg) { return cg ? cg->mem : ""; }
int sp_cgroup_version(const struct sp_cgroup *cg) { return cg ? cg->version : 0; }

const char *sp_cgroup_missing(const struct sp_cgroup *cg)
{
	return cg && cg->version == 2 ? cg->why : "";
}

unsigned sp_cgroup_controllers(const struct sp_cgroup *cg)
{
	if (!cg)
		return 0;
	if (cg->version == 2)
		return cg->controllers;
	return (cg->has_mem ? SP_CG_MEMORY : 0) | (cg->has_pids ? SP_CG_PIDS : 0) |
	       (cg->has_cpu ? SP_CG_CPU : 0);
}

int sp_cgroup_attach(struct sp_cgroup *cg, pid_t pid)
{
	int rc = 0;

	if (cg->version == 2)
		return write_at(cg->mem, "cgroup.procs", "%d", (int)pid);
	if (cg->has_mem)
		rc |= write_at(cg->mem, "cgroup.procs", "%d", (int)pid);
	if (cg->version == 1 && cg->has_pids)
		rc |= write_at(cg->pids, "cgroup.procs", "%d", (int)pid);
	if (cg->version == 1 && cg->has_cpu)
		rc |= write_at(cg->cpu, "cgroup.procs", "%d", (int)pid);
	return rc ? -1 : 0;
}

bool sp_cgroup_has_memory(const struct sp_cgroup *cg) { return cg && cg->has_mem; }
bool sp_cgroup_has_pids(const struct sp_cgroup *cg) { return cg && cg->has_pids; }
bool sp_cgroup_has_cpu(const struct sp_cgroup *cg) { return cg && cg->has_cpu; }

uint64_t sp_cgroup_cpu_ms(struct sp_cgroup *cg)
{
	if (cg->version == 2)
		return read_key(cg, CG_CPU, "usage_usec") / 1000u;
	return read_u64(cg, CG_CPU) / 1000000u;
}

uint64_t sp_cgroup_memory(struct sp_cgroup *cg)
{
	return read_u64(cg, CG_MEM);
}

uint64_t sp_cgroup_memory_peak(struct sp_cgroup *cg)
{
	return read_u64(cg, CG_MEM_PEAK);
}

bool sp_cgroup_has_pids_peak(const struct sp_cgroup *cg) { return cg && cg->has_pids_peak; }

/* The counts leave init out: the limit is the program's. */
static uint32_t but_init(uint64_t n)
{
	return n > 0 ? (uint32_t)(n - 1) : 0;
}

uint32_t sp_cgroup_procs(struct sp_cgroup *cg)
{
	return but_init(read_u64(cg, CG_PIDS));
}

uint32_t sp_cgroup_procs_peak(struct sp_cgroup *cg)
{
	return cg->has_pids_peak ? but_init(read_u64(cg, CG_PIDS_PEAK)) : 0;
}

/* v1 memory.failcnt, v2 memory.events "max": how often the cgroup's
 * usage hit its limit (the kernel then reclaimed, or refused). */
uint64_t sp_cgroup_memory_hits(struct sp_cgroup *cg)
{
	if (!cg || !cg->has_mem)
		return 0;
	if (cg->version == 2)
		return read_key(cg, CG_MEM_HITS, "max");
	return read_u64(cg, CG_MEM_HITS);
}

bool sp_cgroup_oom_killed(struct sp_cgroup *cg)
{
	if (!cg || !cg->has_mem)
		return false;
	return read_key(cg, CG_MEM_EVENTS, "oom_kill") > 0;
}

bool sp_cgroup_pids_hit(struct sp_cgroup *cg)
{
	return cg && cg->has_pids && read_key(cg, CG_PIDS_EVENTS, "max") > 0;
}

void sp_cgroup_kill(struct sp_cgroup *cg)
{
	if (cg && cg->version == 2)
		write_at(cg->mem, "cgroup.kill", "1");
}

void sp_cgroup_destroy(struct sp_cgroup *cg)
{
	const char *dirs[3];
	int *locks[3];

	if (!cg)
		return;
	/* the directories this run made: each one's lock is open */
	dirs[0] = cg->mem;
	dirs[1] = cg->pids;
	dirs[2] = cg->cpu;
	locks[0] = cg->version == 2 ? &cg->fd : &cg->lock[0];
	locks[1] = &cg->lock[1];
	locks[2] = &cg->lock[2];
	for (int i = 0; i < cg->n_join; i++)
		close(cg->join[i]);
	for (int st = 0; st < CG_STATS; st++)
		if (cg->stat_fd[st] >= 0)
			close(cg->stat_fd[st]);
	/* Processes leave a cgroup a moment after they are reaped. Each is
	 * removed while it is still locked; one that stays (a process that
	 * would not leave) is unlocked, for a later sweep. */
	for (int tries = 0; tries < 200; tries++) {
		bool busy = false;
		for (int i = 0; i < 3; i++)
			if (*locks[i] >= 0 && rmdir(dirs[i]) < 0 && errno == EBUSY)
				busy = true;
		if (!busy)
			break;
		usleep(1000);
	}
	for (int i = 0; i < 3; i++)
		if (*locks[i] >= 0)
			close(*locks[i]);
	free(cg);
}
