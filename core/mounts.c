/* SPDX-License-Identifier: MIT */
/*
 * mounts.c - the sandbox's filesystem, built by init inside its own mount
 * namespace and entered with pivot_root.
 *
 * The new root is a tmpfs that ends up read-only and holds only:
 *   /usr (and /bin, /lib... as the host has them)  read-only binds
 *   /etc          synthesized: passwd, group, hosts, hostname, plus
 *                 read-only binds of what the loader and Python read
 *                 (ld.so.cache, alternatives, localtime, fonts, and the
 *                 interpreter's own python3.N)
 *   /proc         a private procfs of the new pid namespace
 *   /dev          null, zero, full, random, urandom, links to /proc, and
 *                 ptmx as a file no one may open (no terminals)
 *   /work         a size-capped tmpfs: the only writable place; cwd and HOME
 *   /tmp, /dev/shm  links to /work, so their files count against the cap
 *   /cache        a small tmpfs (8 MiB) for the caches libraries write
 *                 (XDG_CACHE_HOME, MPLCONFIGDIR): not the program's output,
 *                 so never listed or kept, and gone with the run; it starts
 *                 with the build's matplotlib font list
 *   /sandpit      the prelude, the program and the carry-in, read-only
 *
 * Two steps, with init's change to the sandbox user between them (see
 * init_main): open, as the caller, every bind source (O_PATH) before
 * anything is covered; enter, as the sandbox user, mounting each from
 * /proc/self/fd/N, so an interpreter that lives under /tmp still binds
 * even though /tmp is where the new root is assembled.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mount.h>

#include "base.h"
#include "sandbox.h"
#include "interpreter.h"
#include "workfiles.h"
#include "buf.h"
#include "banned.h"

#define NEWROOT "/tmp"  /* where the new root is assembled, in our namespace */


#define SMALL_FILE_BYTES (256 << 10)

/* mkdir -p, trying the whole path first: nearly always only the last
 * component is missing, and each mkdir is a syscall. */
static int mkdir_p(const char *path, mode_t mode)
{
	char tmp[PATH_MAX];
	size_t len = strlen(path);
	char *slash;

	if (mkdir(path, mode) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT || len == 0 || len >= sizeof tmp)
		return -1;
	memcpy(tmp, path, len + 1);
	slash = strrchr(tmp, '/');
	if (!slash || slash == tmp)
		return -1;
	*slash = '\0';
	if (mkdir_p(tmp, mode) < 0)
		return -1;
	return mkdir(path, mode) == 0 || errno == EEXIST ? 0 : -1;
}

static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int write_text(const char *path, const char *text, size_t len,
		      mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	int rc;

	if (fd < 0)
		return -1;
	rc = sp_write_all(fd, text, len);
	close(fd);
	return rc;
}

/* Flags the kernel locks on a mount made in a less privileged namespace;
 * a read-only remount must repeat them or it fails with EPERM. */
static unsigned long locked_flags(const char *target)
{
	struct statvfs sv;
	unsigned long f = 0;

	if (statvfs(target, &sv) < 0)
		return MS_NOSUID | MS_NODEV;
	if (sv.f_flag & ST_NOSUID)
		f |= MS_NOSUID;
	if (sv.f_flag & ST_NODEV)
		f |= MS_NODEV;
	if (sv.f_flag & ST_NOEXEC)
		f |= MS_NOEXEC;
	if (sv.f_flag & ST_NOATIME)
		f |= MS_NOATIME;
	if (sv.f_flag & ST_NODIRATIME)
		f |= MS_NODIRATIME;
	if (sv.f_flag & ST_RELATIME)
		f |= MS_RELATIME;
	return f;
}

/* With mount_setattr(2) (Linux 5.12) the whole tree is made read-only in
 * one recursive call once it is built; without it, mount by mount. */
static bool late_readonly;

static int setattr(const char *target, unsigned flags, uint64_t set, uint64_t clr)
{
#ifdef SYS_mount_setattr
	struct mount_attr attr = { .attr_set = set, .attr_clr = clr };
	return (int)syscall(SYS_mount_setattr, AT_FDCWD, target, flags, &attr,
			    sizeof attr);
#else
	(void)target; (void)flags; (void)set; (void)clr;
	errno = ENOSYS;
	return -1;
#endif
}

static bool have_mount_setattr(void)
{
	/* an empty change: a no-op where the call works (ENOSYS before 5.12;
	 * a container's filter may refuse it): otherwise mount by mount */
	return setattr("/", 0, 0, 0) == 0;
}

/* Make target (and its submounts, where the kernel can) read-only;
 * nodev everywhere but on /dev, whose few nodes must open. */
static int make_readonly(const char *target, bool nodev)
{
	if (late_readonly)
		return 0;
	if (setattr(target, AT_RECURSIVE,
		    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | (nodev ? MOUNT_ATTR_NODEV : 0),
		    0) == 0)
		return 0;
	return mount(NULL, target, NULL,
		     MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
			     (nodev ? MS_NODEV : 0) | locked_flags(target), NULL);
}

/* After pivot_root: everything read-only, nosuid and nodev in one call,
 * then /work and /proc writable again and /dev's nodes openable, which
 * is where the mount-by-mount way leaves them too. */
static int finish_readonly(struct sp_error *err)
{
	if (setattr("/", AT_RECURSIVE,
		    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0) < 0)
		return sp_fail_errno(err, "mounts: make the root read-only");
	if (setattr(SP_WORKDIR, 0, 0, MOUNT_ATTR_RDONLY) < 0 ||
	    setattr(SP_CACHEDIR, 0, 0, MOUNT_ATTR_RDONLY) < 0 ||
	    setattr("/proc", 0, 0, MOUNT_ATTR_RDONLY) < 0)
		return sp_fail_errno(err, "mounts: make /work, /cache and /proc writable");
	if (setattr("/dev", AT_RECURSIVE, 0, MOUNT_ATTR_NODEV) < 0)
		return sp_fail_errno(err, "mounts: let /dev's nodes open");
	return 0;
}

/* A small regular file is copied into the new root rather than bound: a
 * mount costs more to make and to tear down than a few KiB of copying,
 * and the root ends up read-only all the same. 0 copied, -1 bind it. */
static int copy_small(const struct sp_mount_src *b, const char *src, const char *dst)
{
	char buf[16384];
	int in, out;
	ssize_t n = 0;

	if (b->size > SMALL_FILE_BYTES)
		return -1;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof buf)) > 0)
		if (sp_write_all(out, buf, (size_t)n) < 0) {
			n = -1;
			break;
		}
	close(in);
	close(out);
	if (n < 0) {
		unlink(dst);
		return -1;
	}
	return 0;
}

static int bind_ro(const struct sp_mount_src *b, struct sp_error *err)
{
	char src[64], dst[PATH_MAX + 8];

	snprintf(src, sizeof src, "/proc/self/fd/%d", b->fd);
	snprintf(dst, sizeof dst, NEWROOT "%s", b->path);
	if (!b->is_dir && strncmp(b->path, "/etc/", 5) == 0 &&
	    copy_small(b, src, dst) == 0)
		return 0;
	if (b->is_dir) {
		if (mkdir_p(dst, 0755) < 0)
			return sp_fail_errno(err, "mounts: mkdir %s", b->path);
	} else {
		char parent[PATH_MAX + 8];
		char *slash;
		snprintf(parent, sizeof parent, "%s", dst);
		slash = strrchr(parent, '/');
		if (slash) {
			*slash = '\0';
			if (mkdir_p(parent, 0755) < 0)
				return sp_fail_errno(err, "mounts: mkdir for %s", b->path);
		}
		if (touch(dst) < 0)
			return sp_fail_errno(err, "mounts: create %s", b->path);
	}
	if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) < 0)
		return sp_fail_errno(err, "mounts: bind %s", b->path);
	if (make_readonly(dst, true) < 0)
		return sp_fail_errno(err, "mounts: make %s read-only", b->path);
	return 0;
}

/* Bind source paths, one after another, for init's one build. */
static char path_arena[16384];
static size_t path_used;

static char *keep_path(const char *path)
{
	size_t len = strlen(path) + 1;
	char *p;

	if (len > sizeof path_arena - path_used)
		return NULL;
	p = path_arena + path_used;
	memcpy(p, path, len);
	path_used += len;
	return p;
}

static int add_src(struct sp_mount_src *list, size_t *n, size_t max, const char *path)
{
	struct stat st;
	int fd;

	for (size_t i = 0; i < *n; i++) {
		size_t l = strlen(list[i].path);
		/* already covered by a bound parent directory */
		if (strncmp(path, list[i].path, l) == 0 &&
		    (path[l] == '/' || path[l] == '\0'))
			return 0;
	}
	if (*n >= max)
		return -1;
	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -1;
	}
	/* not a PATH_MAX array per entry on the stack (48 pages to fault in)
	 * and not malloc either: init is a raw clone of a process that may
	 * have threads, one of which may have held malloc's lock */
	list[*n].path = keep_path(path);
	if (!list[*n].path) {
		close(fd);
		errno = ENAMETOOLONG;
		return -1;
	}
	list[*n].fd = fd;
	list[*n].is_dir = S_ISDIR(st.st_mode);
	list[*n].size = st.st_size;
	(*n)++;
	return 0;
}

/* The top-level links of a merged-/usr system (/bin -> usr/bin ...) are
 * recreated; real directories are bound read-only. */
static const char *const top_level[] = {
	"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32",
};

/* What the dynamic loader and Python read from /etc; nothing secret. */
static const char *const etc_binds[] = {
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/alternatives", "/etc/localtime", "/etc/fonts",
	"/etc/matplotlibrc", "/etc/mime.types", "/etc/python3",
	/* /etc/python3.N: the plan's ro_binds, from the interpreter's version */
	/* not /etc: fontconfig's system cache, so that matplotlib's call of
	 * fc-list does not rebuild six cache files in every run */
	"/var/cache/fontconfig",
};

static const char *const dev_nodes[] = {
	"null", "zero", "full", "random", "urandom",
};

static int write_etc(struct sp_error *err)
{
	/* nobody is the id any unmapped id shows as inside (the kernel's
	 * overflow id) */
#define NOBODY "65534"
	static const char passwd[] =
		"root:x:0:0:root:/nonexistent:/usr/sbin/nologin\n"
		"sandbox:x:" SP_STR(SP_SANDBOX_UID) ":" SP_STR(SP_SANDBOX_GID)
		":sandpit program:/work:/bin/sh\n"
		"nobody:x:" NOBODY ":" NOBODY ":nobody:/nonexistent:/usr/sbin/nologin\n";
	static const char group[] =
		"root:x:0:\nsandbox:x:" SP_STR(SP_SANDBOX_GID) ":\nnogroup:x:" NOBODY ":\n";
#undef NOBODY
	static const char hosts[] = "127.0.0.1\tlocalhost\n::1\tlocalhost\n";
	static const char nsswitch[] =
		"passwd: files\ngroup: files\nhosts: files dns\n";

	if (mkdir(NEWROOT "/etc", 0755) < 0 && errno != EEXIST)
		return sp_fail_errno(err, "mounts: mkdir /etc");
	if (write_text(NEWROOT "/etc/passwd", passwd, sizeof passwd - 1, 0644) ||
	    write_text(NEWROOT "/etc/group", group, sizeof group - 1, 0644) ||
	    write_text(NEWROOT "/etc/hosts", hosts, sizeof hosts - 1, 0644) ||
	    write_text(NEWROOT "/etc/hostname", "sandpit\n", 8, 0644) ||
	    write_text(NEWROOT "/etc/nsswitch.conf", nsswitch,
		       sizeof nsswitch - 1, 0644))
		return sp_fail_errno(err, "mounts: write /etc");
	return 0;
}

static int build_dev(struct sp_error *err)
{
	static const char *const links[][2] = {
		{ "/proc/self/fd", NEWROOT "/dev/fd" },
		{ "/proc/self/fd/0", NEWROOT "/dev/stdin" },
		{ "/proc/self/fd/1", NEWROOT "/dev/stdout" },
		{ "/proc/self/fd/2", NEWROOT "/dev/stderr" },
		{ "/work", NEWROOT "/dev/shm" },
	};

	if (mkdir(NEWROOT "/dev", 0755) < 0)
		return sp_fail_errno(err, "mounts: mkdir /dev");
	if (mount("tmpfs", NEWROOT "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC,
		  "mode=0755,size=64k,nr_inodes=64") < 0)
		return sp_fail_errno(err, "mounts: tmpfs on /dev");
	for (size_t i = 0; i < SP_ARRAY_SIZE(dev_nodes); i++) {
		char src[64], dst[96];
		snprintf(src, sizeof src, "/dev/%s", dev_nodes[i]);
		snprintf(dst, sizeof dst, NEWROOT "/dev/%s", dev_nodes[i]);
		if (touch(dst) < 0 ||
		    mount(src, dst, NULL, MS_BIND, NULL) < 0)
			return sp_fail_errno(err, "mounts: bind /dev/%s", dev_nodes[i]);
	}
	for (size_t i = 0; i < SP_ARRAY_SIZE(links); i++)
		if (symlink(links[i][0], links[i][1]) < 0)
			return sp_fail_errno(err, "mounts: link %s", links[i][1]);
	/* No terminals: os.openpty() and pty.fork() open /dev/ptmx, which
	 * here is a plain file no one may open, so they fail with EACCES
	 * ("Permission denied"), not with a puzzling "No such file" */
	if (write_text(NEWROOT "/dev/ptmx", "", 0, 0) < 0)
		return sp_fail_errno(err, "mounts: /dev/ptmx");
	if (make_readonly(NEWROOT "/dev", false) < 0)
		return sp_fail_errno(err, "mounts: make /dev read-only");
	return 0;
}

static int build_work(const struct sp_mount_plan *plan, struct sp_error *err)
{
	char opts[160];
	uint64_t size = plan->disk_bytes < SP_MIN_DISK_BYTES ? SP_MIN_DISK_BYTES : plan->disk_bytes;

	if (mkdir(NEWROOT SP_WORKDIR, 0755) < 0)
		return sp_fail_errno(err, "mounts: mkdir " SP_WORKDIR);
	snprintf(opts, sizeof opts,
		 "size=%llu,nr_inodes=%u,mode=0755,uid=%d,gid=%d",
		 (unsigned long long)size, SP_WORKDIR_INODES, SP_SANDBOX_UID, SP_SANDBOX_GID);
	if (mount("tmpfs", NEWROOT SP_WORKDIR, "tmpfs", MS_NOSUID | MS_NODEV,
		  opts) < 0)
		return sp_fail_errno(err, "mounts: tmpfs on " SP_WORKDIR);
	if (symlink(SP_WORKDIR, NEWROOT "/tmp") < 0)
		return sp_fail_errno(err, "mounts: link /tmp");
	snprintf(opts, sizeof opts, "size=%u,nr_inodes=512,mode=0755,uid=%d,gid=%d",
		 SP_CACHE_BYTES, SP_SANDBOX_UID, SP_SANDBOX_GID);
	if (mkdir(NEWROOT SP_CACHEDIR, 0755) < 0 ||
	    mount("tmpfs", NEWROOT SP_CACHEDIR, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  opts) < 0)
		return sp_fail_errno(err, "mounts: tmpfs on " SP_CACHEDIR);
	if (sp_mpl_fontlist_len > 0) {
		/* the build's font list: matplotlib need not scan the fonts */
		char path[128];
		snprintf(path, sizeof path, NEWROOT SP_CACHEDIR "/matplotlib/%s",
			 sp_mpl_fontlist_name);
		if (mkdir(NEWROOT SP_CACHEDIR "/matplotlib", 0755) < 0 ||
		    write_text(path, (const char *)sp_mpl_fontlist, sp_mpl_fontlist_len, 0644) < 0)
			return sp_fail_errno(err, "mounts: write matplotlib's font list");
	}
	if (plan->carry_in &&
	    (write_text(NEWROOT SP_WORKDIR "/carry.json", plan->carry_in,
			plan->carry_in_len, 0644) < 0 ||
	     chown(NEWROOT SP_WORKDIR "/carry.json", SP_SANDBOX_UID,
		   SP_SANDBOX_GID) < 0))
		return sp_fail_errno(err, "mounts: write carry.json");
	return 0;
}

static int build_spdir(const struct sp_mount_plan *plan, struct sp_error *err)
{
	if (mkdir(NEWROOT SP_SPDIR, 0755) < 0)
		return sp_fail_errno(err, "mounts: mkdir " SP_SPDIR);
	if (write_text(NEWROOT SP_SPDIR "/prelude.py", plan->prelude,
		       plan->prelude_len, 0644) < 0 ||
	    (plan->prelude_pyc &&
	     write_text(NEWROOT SP_SPDIR "/prelude.pyc", (const char *)plan->prelude_pyc,
			plan->prelude_pyc_len, 0644) < 0) ||
	    write_text(NEWROOT SP_SPDIR "/main.py", plan->code, plan->code_len,
		       0644) < 0 ||
	    (plan->carry_in &&
	     write_text(NEWROOT SP_SPDIR "/carry.json", plan->carry_in,
			plan->carry_in_len, 0644) < 0))
		return sp_fail_errno(err, "mounts: write the program");
	return 0;
}

/* The interpreter's prefix: /x/bin/python3 -> /x (for the real file and
 * for the path as given, which differ for a virtualenv). -1 with errno
 * when one cannot be opened: the run would fail with a puzzling ENOENT. */
static int add_python(struct sp_mount_src *srcs, size_t *n, size_t max,
		      const char *python, char *failed, size_t failed_len)
{
	char real[PATH_MAX], buf[PATH_MAX];
	const char *cands[2] = { python, NULL };

	if (realpath(python, real))
		cands[1] = real;
	for (int i = 0; i < 2; i++) {
		char *slash;
		if (!cands[i])
			continue;
		snprintf(buf, sizeof buf, "%s", cands[i]);
		for (int up = 0; up < 2; up++) {
			slash = strrchr(buf, '/');
			if (!slash || slash == buf)
				break;
			*slash = '\0';
		}
		if (strcmp(buf, "/usr") == 0 || buf[0] != '/' || strlen(buf) < 2)
			continue;
		if (add_src(srcs, n, max, buf) < 0) {
			snprintf(failed, failed_len, "%s", buf);
			return -1;
		}
	}
	return 0;
}

/* Open (O_PATH) every source of the new root while init still has the
 * caller's rights and nothing is covered yet. On failure nothing stays
 * open. */
int sp_mounts_open(const struct sp_mount_plan *plan, struct sp_mount_sources *m,
		   struct sp_error *err)
{
	size_t max = sizeof m->v / sizeof m->v[0];
	char failed[PATH_MAX];

	m->n = 0;
	failed[0] = '\0';
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return sp_fail_errno(err, "mounts: make / private");
	late_readonly = have_mount_setattr();

	add_src(m->v, &m->n, max, "/usr");
	for (size_t i = 0; i < SP_ARRAY_SIZE(top_level); i++) {
		ssize_t l = readlink(top_level[i], m->links[i], sizeof m->links[i] - 1);
		m->is_link[i] = false;
		if (l > 0 && (size_t)l < sizeof m->links[i] - 1) {
			m->links[i][l] = '\0';
			m->is_link[i] = true;
		} else {
			add_src(m->v, &m->n, max, top_level[i]);
		}
	}
	for (size_t i = 0; i < SP_ARRAY_SIZE(etc_binds); i++)
		add_src(m->v, &m->n, max, etc_binds[i]);
	for (size_t i = 0; i < plan->n_ro_binds; i++)
		add_src(m->v, &m->n, max, plan->ro_binds[i]);
	if (add_python(m->v, &m->n, max, plan->python, failed, sizeof failed) < 0) {
		sp_fail_errno(err, "mounts: the interpreter's directory %s", failed);
		sp_mounts_close(m);
		return -1;
	}
	return 0;
}

void sp_mounts_close(struct sp_mount_sources *m)
{
	for (size_t i = 0; i < m->n; i++)
		close(m->v[i].fd);
	m->n = 0;
}

/* Build the new root from the sources, pivot into it, and make it
 * read-only; init is the sandbox user by now, so everything it creates
 * belongs to a mapped user. The sources are closed either way. */
int sp_mounts_enter(const struct sp_mount_plan *plan, struct sp_mount_sources *m,
		    struct sp_error *err)
{
	int rc = -1;

	if (mount("tmpfs", NEWROOT, "tmpfs", MS_NOSUID | MS_NODEV,
		  "mode=0755,size=16m,nr_inodes=4096") < 0) {
		sp_fail_errno(err, "mounts: tmpfs for the new root on " NEWROOT);
		goto out;
	}
	if (write_etc(err) < 0)
		goto out;
	for (size_t i = 0; i < m->n; i++)
		if (bind_ro(&m->v[i], err) < 0)
			goto out;
	for (size_t i = 0; i < SP_ARRAY_SIZE(top_level); i++) {
		char dst[PATH_MAX + 8];
		if (!m->is_link[i])
			continue;
		snprintf(dst, sizeof dst, NEWROOT "%s", top_level[i]);
		if (symlink(m->links[i], dst) < 0 && errno != EEXIST) {
			sp_fail_errno(err, "mounts: link %s", top_level[i]);
			goto out;
		}
	}
	if (mkdir(NEWROOT "/proc", 0555) < 0 ||
	    mount("proc", NEWROOT "/proc", "proc",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		/* the kernel mounts a new proc only where the proc it can see
		 * has nothing mounted over parts of it: a container's runtime
		 * masks some (/proc/kcore, /proc/keys, ...) unless told not to */
		if (errno == EPERM)
			sp_fail_errno(err, "mounts: a private /proc was refused: inside a container, "
				      "its /proc must have no masked paths (podman: --security-opt "
				      "unmask=ALL; docs/deploy.md)");
		else
			sp_fail_errno(err, "mounts: private /proc");
		goto out;
	}
	if (build_dev(err) < 0 || build_work(plan, err) < 0 ||
	    build_spdir(plan, err) < 0)
		goto out;

	/* Enter the new root and drop the old one entirely. */
	if (chdir(NEWROOT) < 0 || syscall(SYS_pivot_root, ".", ".") < 0) {
		sp_fail_errno(err, "mounts: pivot_root");
		goto out;
	}
	if (umount2(".", MNT_DETACH) < 0 || chdir("/") < 0) {
		sp_fail_errno(err, "mounts: detach the old root");
		goto out;
	}
	if (late_readonly) {
		if (finish_readonly(err) < 0)
			goto out;
	} else if (mount(NULL, "/", NULL,
			 MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV,
			 NULL) < 0) {
		sp_fail_errno(err, "mounts: make / read-only");
		goto out;
	}
	rc = 0;
out:
	sp_mounts_close(m);
	return rc;
}
