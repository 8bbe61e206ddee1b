/* SPDX-License-Identifier: MIT */
/*
 * doctor.c - which isolation layers this host has, and how to get a
 * missing one. Also the helper that records a layer in a run's result.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <seccomp.h>

#include "base.h"
#include "result.h"
#include "sandbox.h"
#include "cgroup_join.h"
#include "fd.h"
#include "banned.h"

void sp_layer_set(struct sp_result *r, const char *name, bool active,
		  const char *fmt, ...)
{
	struct sp_layer *l = NULL;
	va_list ap;

	for (size_t i = 0; i < r->n_layers; i++)
		if (strcmp(r->layers[i].name, name) == 0)
			l = &r->layers[i];
	if (!l) {
		/* grown one at a time: a run records about a dozen */
		struct sp_layer *grown = realloc(r->layers, (r->n_layers + 1) * sizeof *grown);

		if (!grown)
			return;  /* the result then lacks this layer, as a cap would */
		r->layers = grown;
		l = &r->layers[r->n_layers++];
	}
	l->name = name;
	l->active = active;
	va_start(ap, fmt);
	vsnprintf(l->detail, sizeof l->detail, fmt, ap);
	va_end(ap);
}

static void add(struct sp_layer *ls, size_t *n, size_t max, const char *name,
		bool ok, const char *fmt, ...) SP_PRINTF(6, 7);
static void add(struct sp_layer *ls, size_t *n, size_t max, const char *name,
		bool ok, const char *fmt, ...)
{
	va_list ap;

	if (*n >= max)
		return;
	ls[*n].name = name;
	ls[*n].active = ok;
	va_start(ap, fmt);
	vsnprintf(ls[*n].detail, sizeof ls[*n].detail, fmt, ap);
	va_end(ap);
	(*n)++;
}

/* Try the namespaces for real: a child that unshares and exits. */
static int try_userns(char *why, size_t len)
{
	pid_t pid = fork();
	int st;

	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return 0;
	}
	if (pid == 0) {
		if (unshare(CLONE_NEWUSER) < 0)
			_exit(1);
		if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC |
			    CLONE_NEWUTS) < 0)
			_exit(2);
		/* what init does first: a container's seccomp profile may refuse it */
		if (sethostname("sandpit", 7) < 0)
			_exit(3);
		_exit(0);
	}
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st)) {
		snprintf(why, len, "the probe failed");
		return 0;
	}
	if (WEXITSTATUS(st) == 1)
		snprintf(why, len, "creating a user namespace is not allowed here");
	else if (WEXITSTATUS(st) == 2)
		snprintf(why, len, "user namespace ok, but no mount/net/pid namespaces in it");
	else if (WEXITSTATUS(st) == 3)
		snprintf(why, len, "namespaces ok, but sethostname in a new UTS namespace is "
			 "refused (a container's seccomp profile)");
	else
		snprintf(why, len, "unprivileged user namespaces work");
	return WEXITSTATUS(st) == 0;
}

/* The cgroup as a run has it: the run's cgroup made, a child cloned into
 * it as init is (or moved in where the kernel cannot clone into it), and
 * the cgroup seen to hold the child. Returns the cgroup's controllers
 * (SP_CG_*) with detail and missing (why any is not there) filled in, or
 * -1 with detail saying why there is no cgroup. */
static int try_cgroup(char *detail, size_t len, char *missing, size_t mlen)
{
	struct sp_limits lim;
	struct sp_cgroup *cg;
	char made[512], procs[PATH_MAX + 16], pidtext[16], *held;
	int pidfd = -1, gate[2] = { -1, -1 }, rc = -1;
	bool placed = false, inside;
	int join[SP_CGROUP_JOIN_MAX], n_join, joined[2] = { -1, -1 };
	pid_t pid;

	missing[0] = '\0';
	sp_limits_default(&lim);
	cg = sp_cgroup_create(&lim, made, sizeof made);
	if (!cg) {
		snprintf(detail, len, "%s", made);
		return -1;
	}
	if (pipe2(gate, O_CLOEXEC) < 0 || pipe2(joined, O_CLOEXEC) < 0) {
		snprintf(detail, len, "%s; pipe: %s", made, strerror(errno));
		SP_FDS_CLOSE(&gate[0], &gate[1], &joined[0], &joined[1]);
		sp_cgroup_destroy(cg);
		return -1;
	}
	n_join = sp_cgroup_join_fds(cg, join);
	pid = sp_clone_into(0, sp_cgroup_fd(cg), &pidfd, &placed);
	if (pid == 0) {
		char c;
		close(gate[1]);
		/* v1: joins as a run's init does (cgroup_join.h), then says
		 * so by closing its end of the gate's other pipe */
		if (sp_cgroup_join_self(join, n_join) < 0)
			_exit(1);
		close(joined[1]);
		/* waits until doctor has looked, then leaves the cgroup empty */
		while (read(gate[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(gate[0]);
	close(joined[1]);
	{
		char c;
		/* EOF once the child joined (or died) */
		while (pid > 0 && read(joined[0], &c, 1) < 0 && errno == EINTR)
			;
	}
	close(joined[0]);
	if (pid < 0) {
		snprintf(detail, len, "%s; a child could not start: %s", made, strerror(errno));
		close(gate[1]);
		sp_cgroup_destroy(cg);
		return -1;
	}
	if (n_join > 0)
		placed = true; /* by itself, or it is not inside below */
	if (!placed && sp_cgroup_attach(cg, pid) < 0) {
		snprintf(detail, len, "%s; a child could not move into it: %s", made, strerror(errno));
		inside = false;
	} else {
		snprintf(procs, sizeof procs, "%s/cgroup.procs", sp_cgroup_path(cg));
		snprintf(pidtext, sizeof pidtext, "%d", (int)pid);
		held = sp_read_file(procs, 65536, NULL);
		inside = false;
		for (char *tok = held, *save = NULL; held && (tok = strtok_r(tok, "\n", &save)); tok = NULL)
			if (strcmp(tok, pidtext) == 0)
				inside = true;
		free(held);
		snprintf(detail, len, inside ? "%s; a child ran in it (%s)" : "%s; but a child is not in it",
			 made, n_join > 0 ? "joined by itself" : placed ? "cloned straight in" : "moved in");
	}
	close(gate[1]);
	waitpid(pid, NULL, 0);
	if (pidfd >= 0)
		close(pidfd);
	if (inside) {
		rc = (int)sp_cgroup_controllers(cg);
		snprintf(missing, mlen, "%s", sp_cgroup_missing(cg));
	}
	sp_cgroup_destroy(cg);
	return rc;
}

static long read_long(const char *path, long dflt)
{
	char *t = sp_read_file(path, 64, NULL);
	long v = dflt;

	if (t) {
		v = strtol(t, NULL, 10);
		free(t);
	}
	return v;
}

size_t sp_doctor(struct sp_layer *ls, size_t max)
{
	size_t n = 0;
	char why[160];
	int abi = sp_landlock_abi();
	const struct scmp_version *sv = seccomp_version();
	unsigned api = seccomp_api_get();
	long userns_max = read_long("/proc/sys/user/max_user_namespaces", -1);
	long apparmor = read_long("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", 0);
	long debian = read_long("/proc/sys/kernel/unprivileged_userns_clone", 1);
	bool ns = try_userns(why, sizeof why);
	char cg_detail[600], cg_missing[512], names[32];
	int cg_bits;

	add(ls, &n, max, SP_LAYER_USER_NS, ns, "%s%s%s%s", why,
	    userns_max == 0 ? " (user.max_user_namespaces = 0)" : "",
	    apparmor == 1 ? " (AppArmor restricts unprivileged user namespaces)" : "",
	    debian == 0 ? " (kernel.unprivileged_userns_clone = 0)" : "");
	add(ls, &n, max, SP_LAYER_PID_NS, ns, ns ? "available" : "needs the user namespace");
	add(ls, &n, max, SP_LAYER_MOUNT_NS, ns, ns ? "available" : "needs the user namespace");
	add(ls, &n, max, SP_LAYER_NET_NS, ns, ns ? "available" : "needs the user namespace");
	add(ls, &n, max, SP_LAYER_SECCOMP, api >= 1, "libseccomp %u.%u.%u, API level %u%s",
	    sv->major, sv->minor, sv->micro, api,
	    api >= 5 ? ", user notification" : " (no user notification: no kernel-observed records)");
	if (abi > 0)
		add(ls, &n, max, SP_LAYER_LANDLOCK, true, "ABI %d", abi);
	else
		add(ls, &n, max, SP_LAYER_LANDLOCK, false, "not in this kernel (optional; the mount namespace still confines)");
	add(ls, &n, max, SP_LAYER_CAPS, true, "libcap: dropped in every run");
	cg_bits = try_cgroup(cg_detail, sizeof cg_detail, cg_missing, sizeof cg_missing);
	add(ls, &n, max, SP_LAYER_CGROUP, cg_bits >= 0, "%s%s", cg_detail,
	    cg_bits >= 0 ? "" : " (optional; falls back to rlimits and /proc sampling)");
	if (cg_bits >= 0) {
		sp_cgroup_bits_text((unsigned)cg_bits, names, sizeof names);
		add(ls, &n, max, SP_LAYER_CGROUP_CONTROLLERS, (unsigned)cg_bits == SP_CG_ALL,
		    "%s%s%s", names, cg_missing[0] ? "; " : "", cg_missing);
	}
	add(ls, &n, max, SP_LAYER_RLIMITS, true, "always, every one of them");
	/* without a cgroup, the filter keeps what the cgroup would */
	add(ls, &n, max, SP_LAYER_SECCOMP_CONTINUE, sp_seccomp_can_continue(), "%s",
	    sp_seccomp_can_continue()
		    ? "processes counted where they start, refused allocations seen"
		    : "Linux before 5.5: without a cgroup, processes by 50 ms samples only");
	add(ls, &n, max, SP_LAYER_PYTHON, access("/usr/bin/python3", X_OK) == 0, "%s",
	    access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "no /usr/bin/python3 (use --python)");
	return n;
}

const char *sp_doctor_hint(const char *name)
{
	if (strcmp(name, SP_LAYER_USER_NS) == 0 || strcmp(name, SP_LAYER_PID_NS) == 0 ||
	    strcmp(name, SP_LAYER_MOUNT_NS) == 0 || strcmp(name, SP_LAYER_NET_NS) == 0)
		return "sandpit cannot run without user namespaces. To allow them:\n"
		       "  sudo sysctl -w user.max_user_namespaces=15000\n"
		       "  sudo sysctl -w kernel.unprivileged_userns_clone=1      (Debian kernels before 6.x)\n"
		       "  sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0   (Ubuntu 23.10+),\n"
		       "    or better, an AppArmor profile for sandpit with the 'userns' rule\n"
		       "Inside a container, the runtime must allow them, and sethostname in them:\n"
		       "podman's default seccomp profile allows sethostname only with CAP_SYS_ADMIN,\n"
		       "Docker's refuses user namespaces; docs/deploy.md gives the settings that work.";
	if (strcmp(name, SP_LAYER_LANDLOCK) == 0)
		return "Landlock needs Linux 5.13+ with CONFIG_SECURITY_LANDLOCK and 'landlock' in the lsm= boot parameter.";
	if (strcmp(name, SP_LAYER_CGROUP) == 0)
		return "For exact memory, process and CPU accounting, each run needs a cgroup.\n"
		       "As root sandpit makes one. As an ordinary user on cgroup v2 (systemd hosts),\n"
		       "start sandpit in a scope that systemd delegates to you:\n"
		       "  systemd-run --user --scope -p Delegate=yes sandpit run main.py\n"
		       "  systemd-run --user --scope -p Delegate=yes sandpit        (the playground)\n"
		       "On cgroup v1 only root gets one: boot with systemd.unified_cgroup_hierarchy=1.\n"
		       "Without a cgroup, limits fall back to rlimits, /proc samples and the seccomp\n"
		       "filter, and ignoring SIGCHLD is refused (its children's CPU would go uncounted).";
	if (strcmp(name, SP_LAYER_CGROUP_CONTROLLERS) == 0)
		return "Where a controller is \"not delegated\", have systemd delegate it to every\n"
		       "user's manager (as root, once; then log in again):\n"
		       "  mkdir -p /etc/systemd/system/user@.service.d\n"
		       "  printf '[Service]\\nDelegate=cpu cpuset io memory pids\\n' \\\n"
		       "    > /etc/systemd/system/user@.service.d/delegate.conf\n"
		       "  systemctl daemon-reload\n"
		       "Where the cgroup \"holds processes of its own\", start sandpit in a scope of its own\n"
		       "(systemd-run --user --scope -p Delegate=yes sandpit ...).";
	if (strcmp(name, SP_LAYER_SECCOMP) == 0)
		return "seccomp needs a kernel built with CONFIG_SECCOMP_FILTER; user notification needs Linux 5.0+.";
	return NULL;
}
