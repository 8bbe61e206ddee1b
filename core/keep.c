/* SPDX-License-Identifier: MIT */
/*
 * keep.c - a host-side copy of what the program left (`sandpit run
 * --keep DIR`, the playground's runs/ dir), made after the sandbox is
 * gone: no process of it can change the work dir any more, but every
 * name, link and byte in it is the program's, so hostile.
 *
 * The work dir side: each entry is opened relative to its directory's fd
 * with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS
 * | RESOLVE_NO_XDEV) and O_NOFOLLOW (plain openat with O_NOFOLLOW where the
 * kernel lacks openat2), O_NONBLOCK so a FIFO cannot stall it, then fstat
 * must say the same regular file fstatat listed. Only regular files are
 * copied; a symlink, FIFO, socket or device is named as skipped.
 *
 * The host side: the keep dir was empty, every file is created with
 * O_CREAT | O_EXCL | O_NOFOLLOW relative to its directory's fd, mode 0644
 * (the program's modes are not copied, so no set-uid or executable bit
 * comes out), and the sizes copied stop at the disk limit in all: a file
 * that would pass it is skipped "over the bound", so a run cannot put
 * more on the host than it could hold in its work dir. A sparse file
 * counts its full size, and its holes stay holes on the host.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "base.h"
#include "workfiles.h"
#include "banned.h"

int sp_keep_dir_open(const char *dir, struct sp_error *err)
{
	int fd;
	DIR *d;
	struct dirent *de;
	bool empty = true;

	if (!dir || !dir[0])
		return sp_fail(err, "keep dir: no path given");
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return sp_fail_errno(err, "keep dir '%s' cannot be made", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR ? sp_fail(err, "keep dir '%s' is not a directory", dir)
					: sp_fail_errno(err, "keep dir '%s' cannot be opened", dir);
	d = sp_opendir_at(fd, ".");
	if (!d) {
		sp_close_keep_errno(fd);
		return sp_fail_errno(err, "keep dir '%s' cannot be listed", dir);
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = false;
			break;
		}
	closedir(d);
	if (!empty) {
		close(fd);
		return sp_fail(err, "keep dir '%s' is not empty: give a new or empty "
			       "directory, so nothing of yours is overwritten", dir);
	}
	return fd;
}

int sp_keep_dir_prepare(const char *dir, struct sp_error *err)
{
	int fd = sp_keep_dir_open(dir, err);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Open name under dirfd, never through a link. */
static int open_beneath(int dirfd, const char *name, int flags)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	int fd = (int)syscall(SYS_openat2, dirfd, name, &how, sizeof how);

	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return fd;
	/* ENOSYS: before 5.6; EPERM: a container's filter refusing it */
#endif
	return openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC);
}

int sp_keep_subdir(int host_dir, const char *name)
{
	if (host_dir < 0)
		return -1;
	if (mkdirat(host_dir, name, 0755) < 0 && errno != EEXIST)
		return -1;
	return open_beneath(host_dir, name, O_RDONLY | O_DIRECTORY);
}

static const char *kind_of(mode_t m)
{
	if (S_ISLNK(m))
		return "symlink";
	if (S_ISFIFO(m))
		return "fifo";
	if (S_ISSOCK(m))
		return "socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "device";
	return "not a regular file";
}

/* Copy exactly len bytes from off; 0, or -1 with errno (short is EIO). */
static int copy_range(int in, int out, off_t off, uint64_t len)
{
	char buf[65536];

	while (len > 0) {
		size_t want = len < sizeof buf ? (size_t)len : sizeof buf;
		ssize_t n = pread(in, buf, want, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;
			return -1;
		}
		for (ssize_t done = 0; done < n;) {
			ssize_t w = pwrite(out, buf + done, (size_t)(n - done), off + done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			done += w;
		}
		off += n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* The file's data, holes kept as holes (a sparse file the program made
 * with truncate costs the host no room and no time); 0 or -1 with errno. */
static int copy_file(int in, int out, off_t size)
{
	off_t off = 0;

	while (off < size) {
		off_t data = lseek(in, off, SEEK_DATA), hole;
		if (data < 0 && errno == ENXIO)
			break; /* only a hole is left */
		if (data < 0)
			return copy_range(in, out, off, (uint64_t)(size - off));
		hole = lseek(in, data, SEEK_HOLE);
		if (hole < 0 || hole > size)
			hole = size;
		if (copy_range(in, out, data, (uint64_t)(hole - data)) < 0)
			return -1;
		off = hole;
	}
	return ftruncate(out, size);
}

void sp_keep_entry(struct sp_keep *k, int dirfd, const char *name,
		   const struct stat *st, int host_dir, const char *rel,
		   struct sp_file *f)
{
	struct stat now;
	int in, out;

	f->kept = NULL;
	f->skipped = NULL;
	if (!k || k->root_fd < 0)
		return;
	if (!S_ISREG(st->st_mode)) {
		f->skipped = kind_of(st->st_mode);
		return;
	}
	if ((uint64_t)st->st_size > k->budget) {
		f->skipped = "over the bound";
		return;
	}
	if (host_dir < 0) {
		f->skipped = "copy failed: its directory could not be made";
		return;
	}
	in = open_beneath(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (in < 0 || fstat(in, &now) < 0 || !S_ISREG(now.st_mode) ||
	    now.st_ino != st->st_ino || now.st_dev != st->st_dev) {
		if (in >= 0)
			close(in);
		f->skipped = "changed while listed";
		return;
	}
	out = openat(host_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0 || copy_file(in, out, now.st_size) < 0) {
		f->skipped = errno == ENOSPC ? "copy failed: no space left on the host" :
			     errno == EDQUOT ? "copy failed: over the host's disk quota" :
			     "copy failed";
		if (out >= 0) {
			close(out);
			unlinkat(host_dir, name, 0);
		}
		close(in);
		return;
	}
	close(out);
	close(in);
	k->budget -= (uint64_t)now.st_size;
	{
		size_t len = strlen(k->root_path) + 1 + strlen(rel) + 1;
		char *p = malloc(len);
		if (p)
			snprintf(p, len, "%s/%s", k->root_path, rel);
		f->kept = p;
		if (!p)
			f->skipped = "copy failed: out of memory";
	}
}
