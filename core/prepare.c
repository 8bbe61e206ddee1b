/* SPDX-License-Identifier: MIT */
/*
 * prepare.c - prepared runs: a sandbox made ahead, up to the moment the
 * program is read, and released with one program (sandpit.h). The steps
 * that start and release one are start.c's, shared with a cold run; this
 * file holds what is a prepared run's alone: the preload list, the wait
 * for its release (ready, its own deadline, its end before the release),
 * the CPU it used, and the release's wire format.
 *
 * The preparation is sp_run_start's launch without a program: the root
 * is built (with an empty /sandpit/main.py), the run's cgroups made, and
 * the interpreter started under every layer. The prelude, told by its
 * arguments that it is prepared, imports the preload list, says
 * {"t": "ready"} on the channel and blocks reading the release socket,
 * its fd SP_REL_FD. Until the release the supervisor polls only the
 * channel, the control socket, init's pidfd and the preparation's
 * deadline: output, records and samples are not the program's.
 *
 * The release (one message on a SOCK_STREAM unix socket):
 *   four little-endian u64: the file name's bytes, the program's, the
 *   carry-in's, and flags: 1 a stdin memfd rides along, 2 the texts are
 *   in a memfd (over 64 KiB of them), bits 16-31 and 32-47 the terminal's
 *   columns and lines (0: none); then the three texts, back to back,
 *   unless flag 2. The memfds ride on the first byte (SCM_RIGHTS): the
 *   texts' first, then stdin's.
 * The prelude reads it, closes the socket, puts the memfd on its fd 0
 * (else /dev/null stays there, as a cold run's), and runs the program.
 * Files in and /work/carry.json are placed through the work dir's fd
 * first, as sp_run_start places them.
 *
 * Limits count from the release: the supervisor takes the CPU spent so
 * far as its base (usage.prepare_ms) and subtracts it from every CPU
 * figure; RLIMIT_CPU, set at the preparation with SP_PREPARE_CPU_S of
 * room, is lowered by prlimit(2) to what the process used plus the
 * program's limit, as a cold run's; the wall deadline and the timeline
 * start at the release.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_impl.h"
#include "observe.h"
#include "banned.h"

/* A module name: dotted Python identifiers (ASCII), at most 100 bytes. */
static bool module_name_ok(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	bool start = true;

	if (n == 0 || n > 100)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		if (c == '.' && !start && i + 1 < n) {
			start = true;
			continue;
		}
		if (!alpha && !(c >= '0' && c <= '9' && !start))
			return false;
		start = false;
	}
	return true;
}

/* "numpy,pandas" for the prelude's argument, or -1 with err->msg. */
int sp_prepare_preload_arg(const struct sp_prepare *p, char *buf, size_t len,
			   struct sp_error *err)
{
	size_t at = 0;

	buf[0] = '\0';
	if (p->n_preload > SP_MAX_PRELOAD)
		return sp_fail(err, "preload: at most %d modules", SP_MAX_PRELOAD);
	for (size_t i = 0; i < p->n_preload; i++) {
		const char *m = p->preload[i];
		size_t n;
		if (!module_name_ok(m))
			return sp_fail(err, "preload: '%.100s' is not a module name (dotted "
				       "Python identifiers, such as numpy or matplotlib.pyplot)",
				       m ? m : "(null)");
		n = strlen(m);
		if (at + n + 2 > len)
			return sp_fail(err, "preload: the list is too long");
		if (at)
			buf[at++] = ',';
		memcpy(buf + at, m, n + 1);
		at += n;
	}
	return 0;
}

bool sp_run_ready(const struct sp_run *r)
{
	return r && r->prep.on && r->prep.ready && !r->prep.released && !r->end.stopping &&
	       !r->end.init_done && !r->end.finished;
}

const char *sp_run_preloaded(const struct sp_run *r)
{
	return r->prep.preloaded;
}

void sp_prepare_on_ready(struct sp_run *r, json_t *msg)
{
	struct qitem it = { .type = SP_EVENT_READY };
	json_t *pre = json_object_get(msg, "pre"), *v;
	size_t i, at = 0;

	if (!r->prep.on || r->prep.released || r->prep.ready) {
		/* the program's own line: nothing waits for it */
		sp_run_violation(r, SP_VIOL_CARRY, true, 0, "malformed data on the carry channel (ignored)");
		return;
	}
	r->prep.ready = true;
	/* the names as given to the prelude: a dotted identifier each */
	json_array_foreach(pre, i, v) {
		const char *m = json_string_value(v);
		size_t n = m ? strlen(m) : 0;
		if (!module_name_ok(m) || at + n + 3 > sizeof r->prep.preloaded)
			continue;
		if (at) {
			memcpy(r->prep.preloaded + at, ", ", 2);
			at += 2;
		}
		memcpy(r->prep.preloaded + at, m, n);
		at += n;
		r->prep.preloaded[at] = '\0';
	}
	/* ready: it may wait as long as its owner likes */
	sp_run_arm_deadline(r, 0);
	sp_run_push(r, it);
}

bool sp_prepare_deadline(struct sp_run *r)
{
	if (!r->prep.on || r->prep.released)
		return false;
	if (!r->end.stopping && !r->end.init_done && !r->prep.ready) {
		snprintf(r->end.setup_error, sizeof r->end.setup_error,
			 "preparing the sandbox took over %d s (the interpreter and its "
			 "preload did not become ready): start the run cold, or preload less",
			 SP_PREPARE_TIMEOUT_MS / 1000);
		sp_run_stop(r, SP_STATUS_SANDBOX_ERROR);
	}
	return true;
}

void sp_prepare_take_output(struct sp_run *r)
{
	char *t = r->prep.err_head;
	ssize_t n = r->src.err_fd >= 0 ? read(r->src.err_fd, t, sizeof r->prep.err_head - 1) : 0;

	if (n < 0)
		n = 0;
	t[n] = '\0';
	/* the first line, as plain text */
	for (ssize_t i = 0; i < n; i++)
		if ((unsigned char)t[i] < 0x20 || (unsigned char)t[i] >= 0x7f) {
			t[i] = t[i] == '\n' && !t[i + 1] ? '\0' : ' ';
		}
	if (r->src.out_fd >= 0)
		close(r->src.out_fd);
	if (r->src.err_fd >= 0)
		close(r->src.err_fd);
	r->src.out_fd = r->src.err_fd = -1;
}

void sp_prepare_on_finish(struct sp_run *r)
{
	const char *tail = r->prep.err_head;
	const char *how = "it ended";
	int code = 0;

	if (r->end.setup_error[0] || (r->end.stopping && r->end.stop == SP_STATUS_KILLED) ||
	    !r->chan.prelude_started)
		return; /* said already, cancelled by its owner, or the interpreter
			 * never ran the prelude (finish.c says that) */
	if (r->end.have_status && WIFEXITED(r->end.wstatus)) {
		how = "exit";
		code = WEXITSTATUS(r->end.wstatus);
	} else if (r->end.have_status && WIFSIGNALED(r->end.wstatus)) {
		how = "signal";
		code = WTERMSIG(r->end.wstatus);
	}
	snprintf(r->end.setup_error, sizeof r->end.setup_error,
		 "the prepared sandbox ended before its release (%s %d)%s%s; nothing of "
		 "the program ran: start it cold", how, code, tail[0] ? ": " : "", tail);
}

/* Write the carry-in where a cold run has it: /work/carry.json, 0644, the
 * sandbox user's (as sp_in_files_copy makes its copies). */
int sp_prepare_write_carry(int work_fd, const struct sp_host_ids *ids, const char *text,
			   size_t len, struct sp_error *err)
{
	int fd, rc = 0;

	sp_host_ids_fs_enter(ids);
	fd = openat(work_fd, "carry.json", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0644);
	if (fd < 0 || fchmod(fd, 0644) < 0 || sp_write_all(fd, text, len) < 0)
		rc = sp_fail_errno(err, "write carry.json into the work dir");
	if (fd >= 0)
		close(fd);
	sp_host_ids_fs_leave(ids);
	return rc;
}

/* The sandbox's CPU so far, as the samples count it (ms). */
static uint64_t cpu_now_ms(struct sp_run *r)
{
	struct sp_proc_sample ps;

	if (sp_cgroup_has_cpu(r->cg))
		return sp_cgroup_cpu_ms(r->cg);
	if (sp_proc_sample(r->L.proc_fd, r->acct.clk_tck, &ps) == 0)
		return ps.cpu_ms;
	return 0;
}

/*
 * RLIMIT_CPU, the kernel's backstop, counts a process's whole life: set
 * at the preparation with room for the imports, it becomes what the
 * prelude's process used plus what a cold run gets. Lowering a limit
 * needs no privilege over the sandbox but being its user namespace's
 * owner. -1 with err->msg: the backstop would stay too loose.
 */
int sp_prepare_lower_cpu_rlimit(struct sp_run *r, struct sp_error *err)
{
	char path[96], *text, *stat, *p;
	long prog;
	unsigned long long ut = 0, st = 0;
	uint64_t used_s, cpu_s = (r->limits.cpu_ms + 999) / 1000 + 1;
	struct rlimit rl;

	/* init's one child, the interpreter, by its host pid */
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)r->L.pid, (int)r->L.pid);
	text = sp_read_file(path, 4096, NULL);
	if (!text)
		return sp_fail_errno(err, "find the prepared interpreter (%s)", path);
	prog = strtol(text, NULL, 10);
	free(text);
	if (prog <= 0)
		return sp_fail(err, "the prepared sandbox's interpreter is gone");
	snprintf(path, sizeof path, "/proc/%ld/stat", prog);
	stat = sp_read_file(path, 4096, NULL);
	/* after the command's ')': state is field 3, utime 14, stime 15 */
	p = stat ? strrchr(stat, ')') : NULL;
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 &ut, &st) != 2) {
		free(stat);
		return sp_fail(err, "read the prepared interpreter's CPU time");
	}
	free(stat);
	used_s = (ut + st + (unsigned long long)r->acct.clk_tck - 1) / (unsigned long long)r->acct.clk_tck;
	rl.rlim_cur = (rlim_t)(used_s + cpu_s);
	rl.rlim_max = rl.rlim_cur + 1;
	if (syscall(SYS_prlimit64, (pid_t)prog, RLIMIT_CPU, &rl, NULL) < 0)
		return sp_fail_errno(err, "set the prepared interpreter's CPU limit");
	return 0;
}

/* What the preparation wrote to stdout or stderr is not the program's. */
static void discard(int fd)
{
	char buf[65536];

	while (fd >= 0 && read(fd, buf, sizeof buf) > 0)
		;
}

void sp_prepare_hand_over(struct sp_run *r)
{
	discard(r->src.out_fd);
	discard(r->src.err_fd);
	r->prep.cpu_base_ms = cpu_now_ms(r);
	r->res->usage.prepare_ms = r->prep.cpu_base_ms;
}

/* A body bigger than this goes in a sealed memfd: the socket's buffer
 * takes a smaller one whole, so the send never waits on the prelude,
 * whose big allocation may itself wait on this supervisor (a mapping
 * over 1 MiB is a seccomp notification). */
#define INLINE_MAX 65536

static int body_memfd(const char *body, size_t len, struct sp_error *err)
{
	int fd = memfd_create("program", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return sp_fail_errno(err, "release: memfd for the program");
	if (sp_write_all(fd, body, len) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		sp_fail_errno(err, "release: write the program");
		close(fd);
		return -1;
	}
	fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL);
	return fd;
}

int sp_prepare_send_release(struct sp_run *r, const struct sp_config *cfg,
			    const char *filename, int stdin_fd, struct sp_error *err)
{
	size_t nf = strlen(filename), nc = cfg->code ? cfg->code_len : 0;
	size_t nk = cfg->carry_in ? cfg->carry_in_len : 0;
	size_t body = nf + nc + nk, total = 32 + body;
	bool inline_body = body <= INLINE_MAX;
	uint64_t head[4] = { nf, nc, nk, (stdin_fd >= 0 ? 1u : 0u) | (inline_body ? 0u : 2u) |
			     (uint64_t)cfg->columns << 16 | (uint64_t)cfg->lines << 32 };
	char *msg = malloc(total);
	int fds[2], nfds = 0, mfd = -1, rc = 0;

	if (!msg)
		return sp_fail(err, "out of memory");
	for (int i = 0; i < 4; i++)
		for (int b = 0; b < 8; b++)
			msg[i * 8 + b] = (char)(head[i] >> (8 * b));
	memcpy(msg + 32, filename, nf);
	if (nc)
		memcpy(msg + 32 + nf, cfg->code, nc);
	if (nk)
		memcpy(msg + 32 + nf + nc, cfg->carry_in, nk);
	if (!inline_body) {
		mfd = body_memfd(msg + 32, body, err);
		if (mfd < 0) {
			free(msg);
			return -1;
		}
		fds[nfds++] = mfd;
		total = 32;
	}
	if (stdin_fd >= 0)
		fds[nfds++] = stdin_fd;
	/* one message: the header, the fds on its first byte, a small body */
	if (sp_send_fds(r->prep.rel_fd, msg, total, fds, nfds) < 0)
		rc = sp_fail_errno(err, "release the prepared sandbox");
	if (mfd >= 0)
		close(mfd);
	free(msg);
	return rc;
}
