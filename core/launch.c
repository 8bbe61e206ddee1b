/* SPDX-License-Identifier: MIT */
/*
 * launch.c - create the sandbox: clone init into new namespaces, let the
 * supervisor map its user and place it in cgroups, build the root, then
 * start the program with every layer on.
 *
 * The messages on the control socket, and their order: control.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "control.h"
#include "fd.h"
#include "base.h"
#include "sandbox.h"
#include "observe.h"
#include "launch.h"
#include "banned.h"

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif

/* struct clone_args of the kernel ABI (v0, 64 bytes). */
struct sp_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
		stack_size, tls;
};

static void child_fail(int ctl, const char *text) __attribute__((noreturn));
static void child_fail(int ctl, const char *text)
{
	char msg[600];
	size_t len = strlen(text);

	if (len > sizeof msg - 2)
		len = sizeof msg - 2;
	msg[0] = SP_CTL_ERROR;
	memcpy(msg + 1, text, len);
	send(ctl, msg, len + 1, MSG_NOSIGNAL);
	_exit(125);
}

/* Every signal's action back to the default (SIGKILL's and SIGSTOP's
 * cannot change): init and the program each start from a copy of the
 * host application's actions, whatever ran sandpit. */
static void reset_signals(void)
{
	struct sigaction dfl;

	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL); /* EINVAL for glibc's own: fine */
}

/* What the program's first moments need; it runs on init's memory
 * (CLONE_VM | CLONE_VFORK) until its execve, with init suspended. */
struct prog_start {
	const struct sp_launch_spec *spec;
	int ctl;
	int landlock_fd;   /* the ruleset init built, or -1 */
	int landlock_abi;  /* 0: the kernel has none */
	unsigned go;       /* SP_CTL_START's byte: SP_FILTER_* | SP_GO_PIDS_CGROUP */
};

/* The program's environment: nothing of the host's. */
static const char *const base_env[] = {
	"PATH=/usr/local/bin:/usr/bin:/bin",
	"HOME=" SP_WORKDIR,
	"TMPDIR=/tmp",
	"USER=sandbox",
	"LOGNAME=sandbox",
	"LANG=C.UTF-8",
	"TERM=dumb",
	/* Agg, whose show() saves figure-N.png (core/prelude.py) */
	"MPLBACKEND=module://_sandpit_show",
	/* caches libraries write (fontconfig, matplotlib's font list)
	 * go to their own small tmpfs: not the program's output */
	"XDG_CACHE_HOME=" SP_CACHEDIR,
	"MPLCONFIGDIR=" SP_CACHEDIR "/matplotlib",
	/* OpenBLAS and OpenMP start a thread per CPU at import: on a
	 * big host that alone passes the process limit, and the CPU
	 * limit counts the whole tree, so threads buy no time */
	"OPENBLAS_NUM_THREADS=1",
	"OMP_NUM_THREADS=1",
	"MKL_NUM_THREADS=1",
	/* glibc's heap grows by its request plus this; after a refused
	 * brk it maps that much instead, which is then more than 1 MiB
	 * (pymalloc's arenas, which the filter leaves unobserved, are
	 * exactly 1 MiB): a small allocation RLIMIT_DATA refuses is seen
	 * too (seccomp_rules.c) */
	"MALLOC_TOP_PAD_=1114112",
};

/* The terminal the output is shown in, when there is one (the prelude sets
 * pandas' and numpy's widths from COLUMNS). envp has room for base_env,
 * COLUMNS, LINES and the NULL. */
static void program_env(const struct sp_launch_spec *spec, const char **envp,
			char columns[24], char lines[24])
{
	size_t n = SP_ARRAY_SIZE(base_env);

	memcpy(envp, base_env, sizeof base_env);
	if (spec->columns && spec->lines) {
		snprintf(columns, 24, "COLUMNS=%u", spec->columns);
		snprintf(lines, 24, "LINES=%u", spec->lines);
		envp[n++] = columns;
		envp[n++] = lines;
	}
	envp[n] = NULL;
}

/* The carry-out cap as decimal text at the end of buf, so that carry()
 * refuses an over-size call itself; no printf, as in the rest of the
 * child. */
static const char *cap_text(unsigned long long left, char buf[24])
{
	char *c = buf + 24;

	*--c = '\0';
	do {
		*--c = (char)('0' + left % 10);
		left /= 10;
	} while (left);
	return c;
}

/* 0, 1, 2, the channel (and the release socket) the program's; the work
 * dir its cwd. */
static void program_stdio(const struct sp_launch_spec *spec, int ctl)
{
	int in = spec->stdin_fd >= 0 ? spec->stdin_fd : open("/dev/null", O_RDONLY);

	if (in < 0 || dup2(in, 0) < 0 || dup2(spec->out_w, 1) < 0 ||
	    dup2(spec->err_w, 2) < 0 || dup2(spec->chan_w, SP_CHAN_FD) < 0 ||
	    (spec->rel_fd >= 0 && dup2(spec->rel_fd, SP_REL_FD) < 0)) {
		char why[160];
		snprintf(why, sizeof why, "could not set up the program's stdio: %s",
			 strerror(errno));
		child_fail(ctl, why);
	}
	if (chdir(SP_WORKDIR) < 0)
		child_fail(ctl, "chdir to the work dir failed");
}

/* Landlock, then the seccomp filter; LAYERS tells the supervisor which
 * Landlock ABI the program got and hands it the notification fd. */
static void program_layers(const struct prog_start *ps, int ctl)
{
	struct sp_error err = { "" };
	int notify_fd = -1;
	char msg[3];

	if (sp_landlock_enforce(ps->landlock_fd, &err) < 0)
		child_fail(ctl, err.msg);
	if (sp_seccomp_load(ps->go & (SP_FILTER_VARIANTS - 1), &notify_fd, &err) < 0)
		child_fail(ctl, err.msg);
	msg[0] = SP_CTL_LAYERS;
	msg[1] = (char)ps->landlock_abi;
	msg[2] = notify_fd >= 0;
	if (sp_send_fds(ctl, msg, 3, &notify_fd, notify_fd >= 0 ? 1 : 0) < 0)
		_exit(125);
	if (notify_fd >= 0)
		close(notify_fd);
}

/* The program, in its steps: environment and arguments, signals, its
 * process group, stdio, the layers, nothing of ours left, the limits,
 * exec. */
static void run_program(const struct prog_start *ps)
{
	const struct sp_launch_spec *spec = ps->spec;
	int ctl = ps->ctl;
	sigset_t open_mask;
	const char *envp[SP_ARRAY_SIZE(base_env) + 3];
	char columns[24], lines[24], cap[24];
	/* argv[0] the interpreter's path as given: Python finds a virtual
	 * environment's pyvenv.cfg beside it (its site-packages, read-only
	 * in the sandbox), which a bare "python3" would miss for /usr/bin's */
	const char *argv[] = { spec->python, "-I", "-u", "-B",
			       spec->mounts.prelude_pyc ? SP_SPDIR "/prelude.pyc"
							: SP_SPDIR "/prelude.py",
			       spec->filename, cap_text(spec->limits.carry_bytes, cap),
			       spec->rel_fd >= 0 ? "prepared" : NULL, spec->preload, NULL };

	program_env(spec, envp, columns, lines);
	/* Handlers are init's (and share its memory), dispositions and mask
	 * the host application's: the program starts from the defaults (but
	 * SIGXFSZ, below), all signals open (at exec), whatever ran sandpit. */
	reset_signals();
	/* The sandbox's session is init's (made as init starts, without a
	 * controlling terminal); the program gets a process group of its own
	 * in it, not a session: it is no session leader, so it cannot take a
	 * terminal for the session, and a new session would cost a new
	 * scheduler autogroup (see init_main) on the way to the program. */
	if (setpgid(0, 0) < 0)
		child_fail(ctl, "setpgid failed");
	program_stdio(spec, ctl);
	signal(SIGXFSZ, SIG_IGN); /* a full file is EFBIG, not a dead program */
	sigemptyset(&open_mask);
	program_layers(ps, ctl);
	/* Nothing of ours may reach the program: only 0, 1, 2 and the channel
	 * (and the release socket, which the prelude closes first). */
	close(ctl);
	syscall(SYS_close_range, (spec->rel_fd >= 0 ? SP_REL_FD : SP_CHAN_FD) + 1, ~0u, 0);
	/* last, so nothing of ours allocates under the program's limits
	 * (a sanitizer's allocator would fail there) */
	sp_rlimits_apply(&spec->limits, (ps->go & SP_GO_PIDS_CGROUP) != 0);
	sigprocmask(SIG_SETMASK, &open_mask, NULL);
	execve(spec->python, (char *const *)argv, (char *const *)envp);
	/* ctl is closed; the program's stderr is where this can still go */
	dprintf(2, "sandpit: cannot start %s: %s\n", spec->python, strerror(errno));
	_exit(127);
}

int sp_become_sandbox_user(struct sp_error *err)
{
	/* The namespace's root uid is not mapped, so the kernel keeps the
	 * namespace's capabilities across this change; the root can still be
	 * built, and everything it creates belongs to a mapped user. */
	/* Raw syscalls: glibc's wrappers would signal every other thread of
	 * the process init was cloned from, threads init does not have, and
	 * wait for them forever (an embedder with threads hangs). */
	if ((syscall(SYS_setgroups, 0, NULL) < 0 && errno != EPERM) ||
	    syscall(SYS_setresgid, SP_SANDBOX_GID, SP_SANDBOX_GID, SP_SANDBOX_GID) < 0 ||
	    syscall(SYS_setresuid, SP_SANDBOX_UID, SP_SANDBOX_UID, SP_SANDBOX_UID) < 0)
		return sp_fail_errno(err, "could not become the sandbox user inside the user namespace");
	/* a change of credentials clears the parent-death signal */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	return 0;
}

#if defined(__SANITIZE_ADDRESS__)
#define SP_SPAWN_BY_FORK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SP_SPAWN_BY_FORK 1
#endif
#endif
#ifndef SP_SPAWN_BY_FORK
#define SP_SPAWN_BY_FORK 0
#endif

static int program_entry(void *arg)
{
	run_program(arg);
	return 127;
}

/* Start the program without copying init's address space (init is a
 * copy of the supervisor): the child borrows it until its execve, as
 * posix_spawn does. Fork would copy the page tables and then take a
 * copy-on-write fault for every page either side touches. */
static pid_t spawn_program(const struct sp_launch_spec *spec, int ctl,
			   int landlock_fd, int landlock_abi, unsigned go)
{
	const size_t stack_size = 256u << 10;
	struct prog_start ps = { .spec = spec, .ctl = ctl, .landlock_fd = landlock_fd,
				 .landlock_abi = landlock_abi, .go = go };
	sigset_t all, old;
	char *stack;
	pid_t pid;

	if (SP_SPAWN_BY_FORK) {
		/* AddressSanitizer cannot follow a child onto a stack of ours */
		pid = fork();
		if (pid == 0)
			_exit(program_entry(&ps));
		return pid;
	}
	stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED)
		return -1;
	sigfillset(&all);
	/* no handler of init's may run in the child before it resets them */
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = clone(program_entry, stack + stack_size,
		    CLONE_VM | CLONE_VFORK | SIGCHLD, &ps);
	sigprocmask(SIG_SETMASK, &old, NULL);
	munmap(stack, stack_size);
	return pid;
}

/* init is a copy of the supervisor and holds all its fds: the read ends
 * of the program's pipes, the caller's stdout, whatever the embedding
 * application has open. Keep only what the sandbox uses (and stderr, so
 * a sanitizer's report from init is still seen). */
static void release_host_fds(const struct sp_launch_spec *spec, int ctl)
{
	int keep[7] = { ctl, spec->out_w, spec->err_w, spec->chan_w, spec->stdin_fd,
			spec->rel_fd, -1 };
	unsigned lo = 3;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		if (null > 2)
			close(null);
	}
	/* ascending, then close the gaps between */
	for (int i = 1; i < 6; i++)
		for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	for (int i = 0; i < 6; i++) {
		if (keep[i] < (int)lo)
			continue;
		if ((unsigned)keep[i] > lo)
			syscall(SYS_close_range, lo, (unsigned)keep[i] - 1, 0);
		lo = (unsigned)keep[i] + 1;
	}
	syscall(SYS_close_range, lo, ~0u, 0);
}

/* Drop everything, for init itself. */
static void drop_privileges(int ctl)
{
	struct sp_error err = { "" };

	if (sp_caps_drop_all(&err) < 0)
		child_fail(ctl, err.msg);
	/* the program must not be able to read or write init's memory */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* init is a copy of the host application, handlers and all: one signal
 * from the program would run the application's handler in init. With no
 * handler left, the kernel drops every signal the namespace sends its
 * init (SIGNAL_UNKILLABLE); the supervisor's SIGKILL, from the parent
 * namespace, still ends it. The mask stays as it was until the program
 * starts (run_program resets its own). */
/* init is a copy of the host application, and the program sees it as
 * /proc/1: its command line (the host's paths, the caller's flags) is
 * the host's, not the program's to read. Blank it in init's own copy of
 * the memory (clone without CLONE_VM): /proc/1/cmdline then reads
 * "sandpit", the program's name, and NULs. */
static void blank_host_cmdline(const char *name)
{
	char stat[1024], *p;
	unsigned long long start = 0, end = 0;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, stat, sizeof stat - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	stat[n] = '\0';
	p = strrchr(stat, ')'); /* the name may hold spaces and parentheses */
	/* arg_start and arg_end are fields 48 and 49: stop at the space before 48 */
	for (int field = 3; p && field <= 48; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p + 1, "%llu %llu", &start, &end) != 2 || end <= start ||
	    end - start > (1u << 20))
		return;
	memset((void *)(uintptr_t)start, 0, (size_t)(end - start));
	/* "sandpit" and the program's own name: nothing the program does not
	 * know, and what finds a leftover init on the host */
	n = snprintf(stat, sizeof stat, "sandpit%c%s", '\0', name);
	if (n > 0 && (size_t)n >= end - start)
		n = (ssize_t)(end - start - 1);
	if (n > 0)
		memcpy((void *)(uintptr_t)start, stat, (size_t)n);
}

/* START, with the run's v1 `tasks` files, if any: into those cgroups
 * before the program (a thread moving itself waits for no grace period,
 * cgroup_join.h; the supervisor opened the files, the kernel checks its
 * rights, not ours). Its second byte carries the filter's variant. */
static unsigned char start_and_join(int ctl)
{
	struct pollfd p = { .fd = ctl, .events = POLLIN };
	int fds[SP_CGROUP_JOIN_MAX], n = SP_CGROUP_JOIN_MAX, joined;
	char msg[2];

	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			_exit(125);
	if (sp_recv_fds(ctl, msg, sizeof msg, fds, &n) != 2 || msg[0] != SP_CTL_START)
		_exit(125);
	joined = sp_cgroup_join_self(fds, n);
	for (int i = 0; i < n; i++)
		close(fds[i]);
	if (joined < 0) {
		char why[200];
		snprintf(why, sizeof why, "cgroup: the sandbox could not join the run's "
			 "cgroup v1 controllers: %s", strerror(errno));
		child_fail(ctl, why);
	}
	return (unsigned char)msg[1];
}

/* One control message of want's kind and len bytes; anything else means
 * the supervisor went away, and init with it. */
static void wait_for(int ctl, char want, char *msg, size_t len)
{
	ssize_t n;

	do
		n = read(ctl, msg, len);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)len || msg[0] != want)
		_exit(125);
}

static void name_host(int ctl)
{
	if (sethostname("sandpit", 7) == 0)
		return;
	/* the kernel allows it in our own UTS namespace: a refusal is a
	 * seccomp profile's, as podman's default gives it only to a
	 * container with CAP_SYS_ADMIN */
	char why[400];
	snprintf(why, sizeof why, "sethostname in the new UTS namespace was refused (%s)%s",
		 strerror(errno), errno == EPERM ?
		 ": inside a container, its seccomp profile must allow sethostname "
		 "(podman's default allows it only with CAP_SYS_ADMIN); "
		 "docs/deploy.md gives the settings" : "");
	child_fail(ctl, why);
}

/* The root: open what needs the caller's rights, drop them for the
 * sandbox user's, then build and enter it as that user. */
static void build_root(const struct sp_launch_spec *spec, int ctl)
{
	struct sp_error err = { "" };
	struct sp_mount_sources sources;

	if (sp_mounts_open(&spec->mounts, &sources, &err) < 0 ||
	    sp_become_sandbox_user(&err) < 0 ||
	    sp_mounts_enter(&spec->mounts, &sources, &err) < 0)
		child_fail(ctl, err.msg);
	/* only now: the program text and the config's other strings may live
	 * in the caller's argv (an embedder passing argv[1]), and the root
	 * just built has copied them */
	blank_host_cmdline(spec->filename);
	/* the parent-death signal was re-armed after the change of
	 * credentials; a supervisor that died before that is seen here */
	struct pollfd p = { .fd = ctl, .events = POLLIN };
	if (poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR)))
		_exit(125);
}

/* READY, with the work dir, /proc and the socket-memory probe for the
 * supervisor to read the sandbox through. */
static void send_ready(int ctl)
{
	int fds[3];

	fds[0] = open(SP_WORKDIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	fds[1] = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fds[0] < 0 || fds[1] < 0)
		child_fail(ctl, "could not open the work dir or /proc");
	/* bound to this network namespace: the supervisor counts the memory
	 * in its unix sockets through it (a kernel without sock_diag for unix
	 * sockets leaves that uncounted, as before) */
	fds[2] = sp_sockmem_open();
	if (sp_send_fds(ctl, &(char){ SP_CTL_READY }, 1, fds, fds[2] >= 0 ? 3 : 2) < 0)
		_exit(125);
	for (int i = 0; i < 3; i++)
		sp_fd_close(&fds[i]);
}

/* The program's Landlock ruleset, built while the supervisor places the
 * inputs (the program enforces it); kept above the fds dup2 writes over. */
static int landlock_ruleset(int ctl, int *abi)
{
	struct sp_error err = { "" };
	int fd;

	if (sp_landlock_prepare(&fd, abi, &err) < 0)
		child_fail(ctl, err.msg);
	if (fd >= 0 && (fd = sp_fd_move_above(fd, 10)) < 0)
		child_fail(ctl, "landlock: no descriptor for the ruleset"); /* 0-3 get dup2'd over */
	return fd;
}

/* The program's ends of the pipes are the program's alone now. */
static void close_program_ends(const struct sp_launch_spec *spec, int landlock_fd)
{
	if (landlock_fd >= 0)
		close(landlock_fd);
	close(spec->out_w);
	close(spec->err_w);
	close(spec->chan_w);
	if (spec->stdin_fd >= 0)
		close(spec->stdin_fd);
	if (spec->rel_fd >= 0)
		close(spec->rel_fd);
}

/* pid 1: reap everything; when the program ends, end the rest. Returns
 * the program's wait status. */
static int reap_until_empty(pid_t prog)
{
	int status = 0;

	for (;;) {
		int st;
		pid_t p = waitpid(-1, &st, 0);
		if (p < 0 && errno == EINTR)
			continue;
		if (p < 0)
			break;
		if (p == prog) {
			status = st;
			kill(-1, SIGKILL);
		}
	}
	return status;
}

/* init, pid 1 of the sandbox, as a list of its steps. */
static void init_main(const struct sp_launch_spec *spec, int ctl)
{
	char msg[1 + sizeof(int)];
	int status, landlock_fd, landlock_abi = 0;
	unsigned char filter;
	pid_t prog;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	reset_signals();
	release_host_fds(spec, ctl);
	/* Out of the caller's session and away from its terminal, first.
	 * Now, while the supervisor writes our maps: with the scheduler's
	 * autogroups (CONFIG_SCHED_AUTOGROUP) a new session is a new group,
	 * whose first run may wait behind the machine's other sessions, a few
	 * ms on a busy one; here that wait overlaps the supervisor's work. */
	if (setsid() < 0)
		child_fail(ctl, "setsid failed");
	wait_for(ctl, SP_CTL_BUILD, msg, 1);
	name_host(ctl);
	build_root(spec, ctl);
	send_ready(ctl);
	landlock_fd = landlock_ruleset(ctl, &landlock_abi);
	/* START: the inputs are placed and init is in the run's cgroups (v2:
	 * cloned into it; v1: joined now); the program must not start before. */
	filter = start_and_join(ctl);
	unshare(CLONE_NEWCGROUP); /* after the cgroups are ours */
	drop_privileges(ctl);
	prog = spawn_program(spec, ctl, landlock_fd, landlock_abi, filter);
	if (prog < 0)
		child_fail(ctl, "could not start the program");
	close_program_ends(spec, landlock_fd);
	status = reap_until_empty(prog);
	msg[0] = SP_CTL_EXIT;
	memcpy(msg + 1, &status, sizeof status);
	send(ctl, msg, sizeof msg, MSG_NOSIGNAL);
	_exit(0);
}

/* The sandbox user is host_uid outside (host_ids.c): the caller, or as
 * root an unprivileged uid of the run's own. */
static int write_maps(pid_t pid, uid_t host_uid, gid_t host_gid, struct sp_error *err)
{
	char path[64], map[64];

	if (geteuid() != 0) {
		snprintf(path, sizeof path, "/proc/%d/setgroups", (int)pid);
		if (sp_write_file(path, "deny") < 0 && errno != ENOENT)
			return sp_fail_errno(err, "user namespace: write %s", path);
	}
	snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
	snprintf(map, sizeof map, "%d %u 1\n", SP_SANDBOX_UID, (unsigned)host_uid);
	if (sp_write_file(path, map) < 0)
		return sp_fail_errno(err, "user namespace: write uid_map");
	snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
	snprintf(map, sizeof map, "%d %u 1\n", SP_SANDBOX_GID, (unsigned)host_gid);
	if (sp_write_file(path, map) < 0)
		return sp_fail_errno(err, "user namespace: write gid_map");
	return 0;
}

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/* struct clone_args up to the cgroup (v2, 88 bytes, Linux 5.7+). */
struct sp_clone_args_cg {
	struct sp_clone_args v0;
	uint64_t set_tid, set_tid_size, cgroup;
};

pid_t sp_clone_into(uint64_t flags, int cgroup_fd, int *pidfd, bool *placed)
{
	struct sp_clone_args_cg args = {
		.v0 = {
			.flags = flags | CLONE_PIDFD,
			.pidfd = (uint64_t)(uintptr_t)pidfd,
			.exit_signal = SIGCHLD,
		},
	};
	pid_t pid = -1;

	*pidfd = -1;
	*placed = false;
	if (cgroup_fd >= 0) {
		/* started inside: no move, and the run's cgroup is the only one
		 * init ever was in, before its first allocation */
		args.v0.flags |= CLONE_INTO_CGROUP;
		args.cgroup = (uint64_t)cgroup_fd;
		pid = (pid_t)syscall(SYS_clone3, &args, sizeof args);
		if (pid >= 0) {
			*placed = true;
			return pid;
		}
		/* 5.3-5.6 know clone3 without the cgroup (E2BIG, EINVAL); a
		 * cgroup the kernel will not take now is the caller's move to
		 * explain, where the reason has a name */
		args.v0.flags &= ~CLONE_INTO_CGROUP;
		*pidfd = -1;
	}
	pid = (pid_t)syscall(SYS_clone3, &args.v0, sizeof args.v0);
	if (pid < 0 && errno == ENOSYS) {
		pid = (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
		if (pid > 0)
			*pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	}
	return pid;
}

/* Kill init if it lives, reap it, and close what the launch opened. */
void sp_launch_abort(struct sp_launched *L)
{
	if (L->pid > 0) {
		if (L->pidfd >= 0)
			syscall(SYS_pidfd_send_signal, L->pidfd, SIGKILL, NULL, 0);
		else
			kill(L->pid, SIGKILL);
		waitpid(L->pid, NULL, 0);
		L->pid = 0;
	}
	sp_launched_close(L);
}

void sp_launched_close(struct sp_launched *L)
{
	SP_FDS_CLOSE(&L->pidfd, &L->ctl, &L->work_fd, &L->proc_fd, &L->sockmem_fd);
}

int sp_launch_start(const struct sp_launch_spec *spec, struct sp_launched *out,
		    struct sp_error *err)
{
	int ctl[2], pidfd = -1;
	pid_t pid;

	out->pid = 0;
	out->pidfd = out->ctl = out->work_fd = out->proc_fd = out->sockmem_fd = -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctl) < 0)
		return sp_fail_errno(err, "control socket");
	/* the child keeps ctl[1] across its own exec-free life */
	pid = sp_clone_into(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET |
			    CLONE_NEWIPC | CLONE_NEWUTS, spec->cgroup_fd, &pidfd,
			    &out->in_cgroup);
	if (pid < 0) {
		int e = errno;
		close(ctl[0]);
		close(ctl[1]);
		errno = e;
		if (e == EPERM || e == ENOSPC || e == EINVAL)
			return sp_fail_errno(err,
				"cannot create user namespaces (the sandbox needs them; "
				"run `sandpit doctor` for how to allow them)");
		return sp_fail_errno(err, "clone into new namespaces");
	}
	if (pid == 0) {
		close(ctl[0]);
		init_main(spec, ctl[1]);
	}
	close(ctl[1]);
	out->pid = pid;
	out->pidfd = pidfd;
	out->ctl = ctl[0];
	if (write_maps(pid, spec->host_uid, spec->host_gid, err) < 0)
		goto fail;
	if (write(ctl[0], &(char){ SP_CTL_BUILD }, 1) != 1) {
		sp_fail_errno(err, "start the sandbox");
		goto fail;
	}
	return 0;
fail:
	sp_launch_abort(out);
	return -1;
}

/* When telling init to go fails, init has usually died already and said
 * why: its SP_CTL_ERROR explains far better than a broken pipe. */
static void take_init_error(struct sp_launched *L, struct sp_error *err)
{
	for (int i = 0; i < 2; i++) {
		struct pollfd p = { .fd = L->ctl, .events = POLLIN };
		char msg[600];
		int fds[3] = { -1, -1, -1 }, nfds = 3;
		ssize_t n;

		if (poll(&p, 1, 0) != 1 || !(p.revents & POLLIN))
			return;
		n = sp_recv_fds(L->ctl, msg, sizeof msg - 1, fds, &nfds);
		for (int k = 0; k < 3; k++)
			if (fds[k] >= 0)
				close(fds[k]);
		if (n <= 0)
			return;
		msg[n] = '\0';
		if (msg[0] == SP_CTL_ERROR) {
			sp_fail(err, "setting up the sandbox failed: %s", msg + 1);
			return;
		}
	}
}

int sp_launch_ready(struct sp_launched *L, struct sp_cgroup *cg,
		    struct sp_error *err)
{
	struct pollfd pfd = { .fd = L->ctl, .events = POLLIN };
	char msg[600];
	int fds[3] = { -1, -1, -1 }, nfds = 3, join[SP_CGROUP_JOIN_MAX];
	ssize_t n;

	/* init builds the root meanwhile; it starts the program only after
	 * SP_CTL_START, and joins cg's v1 `tasks` files itself, sent with it */
	if (sp_cgroup_join_fds(cg, join) > 0)
		L->in_cgroup = true;
	if (cg && !L->in_cgroup && sp_cgroup_attach(cg, L->pid) < 0) {
		sp_fail_errno(err, "cgroup: attach the sandbox");
		take_init_error(L, err);
		goto fail;
	}
	/* Wait for the root to be built (a few ms); a failure is fatal. */
	for (;;) {
		int rc = poll(&pfd, 1, 10000);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0) {
			sp_fail(err, "the sandbox did not become ready in 10 s");
			goto fail;
		}
		break;
	}
	n = sp_recv_fds(L->ctl, msg, sizeof msg - 1, fds, &nfds);
	if (n <= 0) {
		sp_fail(err, "the sandbox's init died while setting up");
		goto fail;
	}
	msg[n] = '\0';
	if (msg[0] == SP_CTL_ERROR) {
		sp_fail(err, "setting up the sandbox failed: %s", msg + 1);
		goto fail;
	}
	if (msg[0] != SP_CTL_READY || nfds < 2) {
		sp_fail(err, "the sandbox's init sent an unexpected message");
		goto fail;
	}
	L->work_fd = fds[0];
	L->proc_fd = fds[1];
	L->sockmem_fd = nfds > 2 ? fds[2] : -1;
	return 0;
fail:
	for (int i = 0; i < 3; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	sp_launch_abort(L);
	return -1;
}

int sp_launch_go(struct sp_launched *L, const struct sp_cgroup *cg, unsigned go,
		 struct sp_error *err)
{
	char gomsg[2] = { SP_CTL_START, (char)go };
	int join[SP_CGROUP_JOIN_MAX];
	int n = sp_cgroup_join_fds(cg, join);

	if (sp_send_fds(L->ctl, gomsg, 2, join, n) == 0)
		return 0;
	sp_fail_errno(err, "start the sandbox");
	take_init_error(L, err);
	sp_launch_abort(L);
	return -1;
}
