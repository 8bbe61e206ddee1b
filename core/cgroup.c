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
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>
#include <linux/magic.h>

#include "internal.h"
#include "banned.h"

struct sp_cgroup {
	int version;
	char mem[PATH_MAX], pids[PATH_MAX], cpu[PATH_MAX];
	bool has_mem, has_pids, has_cpu;
	bool has_pids_peak;  /* pids.peak: Linux 6.13, v1 and v2 */
};

/* names each run's cgroup uniquely within this process; runs may be set
 * up on several threads at once */
static atomic_uint run_counter;

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

static uint64_t read_u64(const char *dir, const char *file)
{
	char path[PATH_MAX + 64];
	char *text;
	uint64_t v;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	text = sp_read_file(path, 256, NULL);
	if (!text)
		return 0;
	v = strtoull(text, NULL, 10);
	free(text);
	return v;
}

/* "key value" lines, e.g. memory.events "oom_kill 1". */
static uint64_t read_key(const char *dir, const char *file, const char *key)
{
	char path[PATH_MAX + 64];
	char *text, *p;
	size_t klen = strlen(key);
	uint64_t v = 0;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	text = sp_read_file(path, 8192, NULL);
	if (!text)
		return 0;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, klen) == 0 && p[klen] == ' ') {
			v = strtoull(p + klen + 1, NULL, 10);
			break;
		}
	}
	free(text);
	return v;
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

static bool has_word(const char *dir, const char *file, const char *word)
{
	char path[PATH_MAX + 64];
	char *text;
	bool found = false;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	text = sp_read_file(path, 4096, NULL);
	if (!text)
		return false;
	for (char *tok = text, *save = NULL; (tok = strtok_r(tok, " \n", &save));
	     tok = NULL)
		if (strcmp(tok, word) == 0)
			found = true;
	free(text);
	return found;
}

/* init is in the cgroup too: the program's processes get the whole limit */
static unsigned long long pids_max(const struct sp_limits *l)
{
	return (unsigned long long)l->procs + 1;
}

static int setup_v2(struct sp_cgroup *cg, const struct sp_limits *l,
		    char *detail, size_t dlen)
{
	char self[PATH_MAX], base[PATH_MAX + 32];
	struct stat st;

	if (!is_cgroup2("/sys/fs/cgroup") || self_path("", self, sizeof self) < 0) {
		snprintf(detail, dlen, "no cgroup v2 hierarchy");
		return -1;
	}
	if (geteuid() == 0) {
		snprintf(base, sizeof base, "/sys/fs/cgroup/sandpit");
		if (mkdir(base, 0755) < 0 && errno != EEXIST) {
			snprintf(detail, dlen, "cgroup v2: mkdir %s: %s", base, strerror(errno));
			return -1;
		}
		write_at("/sys/fs/cgroup", "cgroup.subtree_control", "+memory +pids +cpu");
	} else {
		char sup[PATH_MAX + 64];
		snprintf(base, sizeof base, "/sys/fs/cgroup%s", strcmp(self, "/") ? self : "");
		/* delegated to us? then leave it to our runs */
		if (stat(base, &st) < 0 || st.st_uid != geteuid()) {
			snprintf(detail, dlen, "cgroup v2 not delegated to this user");
			return -1;
		}
		if (strlen(base) > 14 && strcmp(base + strlen(base) - 14, "/sandpit-super") == 0)
			base[strlen(base) - 14] = '\0';
		snprintf(sup, sizeof sup, "%s/sandpit-super", base);
		if (mkdir(sup, 0755) < 0 && errno != EEXIST) {
			snprintf(detail, dlen, "cgroup v2: mkdir: %s", strerror(errno));
			return -1;
		}
		if (write_at(sup, "cgroup.procs", "0") < 0) {
			snprintf(detail, dlen, "cgroup v2: move supervisor: %s", strerror(errno));
			return -1;
		}
	}
	write_at(base, "cgroup.subtree_control", "+memory +pids +cpu");
	snprintf(cg->mem, sizeof cg->mem, "%s/run-%d-%u", base, (int)getpid(),
		 atomic_fetch_add(&run_counter, 1));
	if (mkdir(cg->mem, 0755) < 0) {
		snprintf(detail, dlen, "cgroup v2: mkdir run: %s", strerror(errno));
		return -1;
	}
	snprintf(cg->pids, sizeof cg->pids, "%s", cg->mem);
	snprintf(cg->cpu, sizeof cg->cpu, "%s", cg->mem);
	cg->has_mem = has_word(cg->mem, "cgroup.controllers", "memory") &&
		      write_at(cg->mem, "memory.max", "%llu",
			       (unsigned long long)l->memory_bytes) == 0;
	if (cg->has_mem)
		write_at(cg->mem, "memory.swap.max", "0");
	cg->has_pids = has_word(cg->mem, "cgroup.controllers", "pids") &&
		       write_at(cg->mem, "pids.max", "%llu", pids_max(l)) == 0;
	cg->has_cpu = access(cg->mem, F_OK) == 0; /* cpu.stat is always there */
	cg->version = 2;
	if (!cg->has_mem && !cg->has_pids) {
		rmdir(cg->mem);
		snprintf(detail, dlen, "cgroup v2 without memory/pids controllers");
		return -1;
	}
	snprintf(detail, dlen, "cgroup v2%s%s", cg->has_mem ? " memory" : "",
		 cg->has_pids ? " pids" : "");
	return 0;
}

/* A sandpit killed outright (SIGKILL, a crash) cannot remove its cgroups.
 * The first run of the next one removes those whose process is gone;
 * rmdir refuses any that still holds a task, and a live process of the
 * same pid keeps its own. */
static void sweep_stale(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX + 300], tail;
		unsigned n;
		int pid;

		if (sscanf(de->d_name, "sandpit-%d-%u%c", &pid, &n, &tail) != 2 ||
		    pid <= 0 || pid == (int)getpid() ||
		    kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof path, "%s/%s", parent, de->d_name);
		rmdir(path);
	}
	closedir(d);
}

/* Mount point of the v1 hierarchy carrying `controller`. */
static int v1_dir(const char *controller, unsigned id, char *out, size_t outlen)
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
	if (id == 0)
		sweep_stale(parent);
	snprintf(out, outlen, "%s/sandpit-%d-%u", parent, (int)getpid(), id);
	return mkdir(out, 0755) == 0 ? 0 : -1;
}

static int setup_v1(struct sp_cgroup *cg, const struct sp_limits *l,
		    char *detail, size_t dlen)
{
	unsigned id;

	if (geteuid() != 0) {
		snprintf(detail, dlen, "cgroup v1 needs root");
		return -1;
	}
	/* one name for the run in every controller */
	id = atomic_fetch_add(&run_counter, 1);
	if (v1_dir("memory", id, cg->mem, sizeof cg->mem) == 0) {
		cg->has_mem = write_at(cg->mem, "memory.limit_in_bytes", "%llu",
				       (unsigned long long)l->memory_bytes) == 0;
		/* no swapping around the limit, where swap accounting exists */
		write_at(cg->mem, "memory.memsw.limit_in_bytes", "%llu",
			 (unsigned long long)l->memory_bytes);
	}
	if (v1_dir("pids", id, cg->pids, sizeof cg->pids) == 0)
		cg->has_pids = write_at(cg->pids, "pids.max", "%llu", pids_max(l)) == 0;
	if (v1_dir("cpuacct", id, cg->cpu, sizeof cg->cpu) == 0)
		cg->has_cpu = true;
	cg->version = 1;
	if (!cg->has_mem && !cg->has_pids) {
		snprintf(detail, dlen, "cgroup v1 memory/pids not writable");
		return -1;
	}
	snprintf(detail, dlen, "cgroup v1%s%s%s", cg->has_mem ? " memory" : "",
		 cg->has_pids ? " pids" : "", cg->has_cpu ? " cpuacct" : "");
	return 0;
}

struct sp_cgroup *sp_cgroup_create(const struct sp_limits *l, char *detail,
				   size_t detail_len)
{
	struct sp_cgroup *cg = calloc(1, sizeof *cg);
	char why2[128] = "";

	if (!cg)
		return NULL;
	if (getenv("SANDPIT_NO_CGROUP")) {
		snprintf(detail, detail_len, "disabled by SANDPIT_NO_CGROUP");
		free(cg);
		return NULL;
	}
	if (setup_v2(cg, l, why2, sizeof why2) == 0) {
		snprintf(detail, detail_len, "%s", why2);
		goto made;
	}
	memset(cg, 0, sizeof *cg);
	if (setup_v1(cg, l, detail, detail_len) == 0)
		goto made;
	sp_cgroup_destroy(cg);
	snprintf(detail, detail_len, "%s; %s", why2, geteuid() ? "cgroup v1 needs root" : "no writable v1 controllers");
	return NULL;
made:
	if (cg->has_pids) {
		char path[PATH_MAX + 16];
		snprintf(path, sizeof path, "%s/pids.peak", cg->pids);
		cg->has_pids_peak = access(path, R_OK) == 0;
	}
	return cg;
}

int sp_cgroup_attach(struct sp_cgroup *cg, pid_t pid)
{
	int rc = 0;

	if (cg->has_mem)
		rc |= write_at(cg->mem, "cgroup.procs", "%d", (int)pid);
	if (cg->version == 1 && cg->has_pids)
		rc |= write_at(cg->pids, "cgroup.procs", "%d", (int)pid);
	if (cg->version == 1 && cg->has_cpu)
		rc |= write_at(cg->cpu, "cgroup.procs", "%d", (int)pid);
	if (cg->version == 2 && !cg->has_mem)
		rc |= write_at(cg->pids, "cgroup.procs", "%d", (int)pid);
	return rc ? -1 : 0;
}

bool sp_cgroup_has_memory(const struct sp_cgroup *cg) { return cg && cg->has_mem; }
bool sp_cgroup_has_pids(const struct sp_cgroup *cg) { return cg && cg->has_pids; }
bool sp_cgroup_has_cpu(const struct sp_cgroup *cg) { return cg && cg->has_cpu; }

uint64_t sp_cgroup_cpu_ms(struct sp_cgroup *cg)
{
	if (cg->version == 2)
		return read_key(cg->cpu, "cpu.stat", "usage_usec") / 1000u;
	return read_u64(cg->cpu, "cpuacct.usage") / 1000000u;
}

uint64_t sp_cgroup_memory(struct sp_cgroup *cg)
{
	return read_u64(cg->mem, cg->version == 2 ? "memory.current"
						  : "memory.usage_in_bytes");
}

uint64_t sp_cgroup_memory_peak(struct sp_cgroup *cg)
{
	return read_u64(cg->mem, cg->version == 2 ? "memory.peak"
						  : "memory.max_usage_in_bytes");
}

bool sp_cgroup_has_pids_peak(const struct sp_cgroup *cg) { return cg && cg->has_pids_peak; }

/* The counts leave init out: the limit is the program's. */
static uint32_t but_init(uint64_t n)
{
	return n > 0 ? (uint32_t)(n - 1) : 0;
}

uint32_t sp_cgroup_procs(struct sp_cgroup *cg)
{
	return but_init(read_u64(cg->pids, "pids.current"));
}

uint32_t sp_cgroup_procs_peak(struct sp_cgroup *cg)
{
	return cg->has_pids_peak ? but_init(read_u64(cg->pids, "pids.peak")) : 0;
}

/* v1 memory.failcnt, v2 memory.events "max": how often the cgroup's
 * usage hit its limit (the kernel then reclaimed, or refused). */
uint64_t sp_cgroup_memory_hits(struct sp_cgroup *cg)
{
	if (!cg || !cg->has_mem)
		return 0;
	if (cg->version == 2)
		return read_key(cg->mem, "memory.events", "max");
	return read_u64(cg->mem, "memory.failcnt");
}

bool sp_cgroup_oom_killed(struct sp_cgroup *cg)
{
	if (!cg || !cg->has_mem)
		return false;
	if (cg->version == 2)
		return read_key(cg->mem, "memory.events", "oom_kill") > 0;
	return read_key(cg->mem, "memory.oom_control", "oom_kill") > 0;
}

bool sp_cgroup_pids_hit(struct sp_cgroup *cg)
{
	return cg && cg->has_pids && read_key(cg->pids, "pids.events", "max") > 0;
}

void sp_cgroup_kill(struct sp_cgroup *cg)
{
	if (cg && cg->version == 2)
		write_at(cg->mem, "cgroup.kill", "1");
}

void sp_cgroup_destroy(struct sp_cgroup *cg)
{
	if (!cg)
		return;
	/* Processes leave a cgroup a moment after they are reaped. */
	for (int tries = 0; tries < 200; tries++) {
		bool busy = false;
		if (cg->mem[0] && rmdir(cg->mem) < 0 && errno == EBUSY)
			busy = true;
		if (cg->version == 1 && cg->pids[0] && rmdir(cg->pids) < 0 && errno == EBUSY)
			busy = true;
		if (cg->version == 1 && cg->cpu[0] && rmdir(cg->cpu) < 0 && errno == EBUSY)
			busy = true;
		if (!busy)
			break;
		usleep(1000);
	}
	free(cg);
}
