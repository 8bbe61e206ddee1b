/* SPDX-License-Identifier: MIT */
/*
 * files_in.c - host files copied into the work dir before the program
 * starts (`sandpit run --file`, the playground's attached files), or
 * bytes a service holds in memory (files_bytes: MCP, --batch), and the
 * program's own file there, its __file__ (as `python3 FILE` in that dir).
 *
 * The host side is the user's: a path is opened once, for reading only,
 * O_NONBLOCK so that a FIFO or a device cannot stall the open, and then
 * judged by fstat on that same descriptor (so what was checked is what
 * is copied). The sandbox side is written by the supervisor through the
 * fd of the work dir that init sent, after the root is built and before
 * the program may start: the work dir then holds at most carry.json, and
 * each copy is created with O_EXCL | O_NOFOLLOW under its one name, so
 * nothing can redirect it. The copies count against the disk limit (they
 * live on the work dir's tmpfs), and are owned by the sandbox user.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utf8proc.h>

#include "base.h"
#include "sandbox.h"
#include "workfiles.h"
#include "banned.h"

/* NULL when name can be a file in the work dir, else why not. */
static const char *name_problem(const char *name)
{
	size_t len = strlen(name);

	if (len == 0)
		return "is empty";
	if (len > 255)
		return "is longer than 255 bytes";
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return "is . or ..";
	if (strchr(name, '/'))
		return "contains '/' (a name in the work dir, not a path)";
	for (size_t i = 0; i < len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)name + i,
						      (utf8proc_ssize_t)(len - i), &cp);
		if (n <= 0)
			return "is not valid UTF-8 (rename it: --file NAME=PATH)";
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
			return "contains a control character (rename it: --file NAME=PATH)";
		i += (size_t)n;
	}
	return NULL;
}

const char *sp_program_file_name(const struct sp_config *cfg)
{
	const char *name = cfg->filename ? cfg->filename : "main.py";
	const char *slash = strrchr(name, '/');

	return slash ? slash + 1 : name;
}

int sp_program_name_check(const struct sp_config *cfg, struct sp_error *err)
{
	const char *name = sp_program_file_name(cfg);
	const char *why = name_problem(name);

	if (why)
		return sp_fail(err, "the program's file name '%s' %s: it is the program's file "
			       "in the work dir (its __file__); give it another name", name, why);
	if (cfg->carry_in && strcmp(name, "carry.json") == 0)
		return sp_fail(err, "the program's file name carry.json is the carry-in's: "
			       "give the program another name");
	return 0;
}

const char *sp_file_in_name(const struct sp_file_in *f)
{
	const char *slash;

	if (f->name)
		return f->name;
	slash = strrchr(f->host_path, '/');
	return slash ? slash + 1 : f->host_path;
}

void sp_in_files_close(struct sp_in_file *files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (files[i].fd >= 0)
			close(files[i].fd);
	free(files);
}

/* A host file opened and judged on its descriptor: 0, or -1 with err. */
static int open_path(const struct sp_file_in *f, struct sp_in_file *file, struct sp_error *err)
{
	struct stat st;

	file->fd = open(f->host_path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (file->fd < 0 || fstat(file->fd, &st) < 0)
		return sp_fail_errno(err, "file '%s' cannot be read", f->host_path);
	if (!S_ISREG(st.st_mode))
		return sp_fail(err, "file '%s' is %s, not a regular file; copy what you "
			       "need into a file first", f->host_path,
			       S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			       S_ISSOCK(st.st_mode) ? "a socket" : "a device");
	file->bytes = (uint64_t)st.st_size;
	return 0;
}

/* How messages call cfg's i-th file in: its host path, or its name. */
static const char *label_of(const struct sp_config *cfg, size_t i)
{
	return i < cfg->n_files_in ? cfg->files_in[i].host_path
				   : cfg->files_bytes[i - cfg->n_files_in].name;
}

/* files[i]'s name checked against its own rules and the others' names. */
static int check_name(const struct sp_config *cfg, struct sp_in_file *files, size_t i,
		      struct sp_error *err)
{
	const char *why = name_problem(files[i].name), *label = label_of(cfg, i);

	if (why)
		return sp_fail(err, "file '%s': its name in the work dir %s", label, why);
	for (size_t j = 0; j < i; j++) {
		if (strcmp(files[j].name, files[i].name) != 0)
			continue;
		if (strcmp(label, files[i].name) == 0) /* not a path: one name twice */
			return sp_fail(err, "file '%s': the name is given twice; rename one",
				       label);
		return sp_fail(err, "file '%s': the name '%s' is taken by '%s'; rename "
			       "one: --file NAME=PATH", label, files[i].name, label_of(cfg, j));
	}
	if (strcmp(files[i].name, sp_program_file_name(cfg)) == 0)
		return sp_fail(err, "file '%s': the name '%s' is the program's own (its file in "
			       "the work dir, its __file__); rename it: --file NAME=PATH", label,
			       files[i].name);
	if (cfg->carry_in && strcmp(files[i].name, "carry.json") == 0)
		return sp_fail(err, "file '%s': the name carry.json is the carry-in's; "
			       "rename it: --file NAME=PATH", label);
	return 0;
}

/* files[i]: cfg's i-th file in, host paths first and then bytes. */
static int open_one(const struct sp_config *cfg, struct sp_in_file *files, size_t i,
		    uint64_t *total, struct sp_error *err)
{
	const char *label = label_of(cfg, i);

	if (i < cfg->n_files_in) {
		const struct sp_file_in *f = &cfg->files_in[i];
		if (!f->host_path || !f->host_path[0])
			return sp_fail(err, "file to copy in: no path given");
		files[i].name = sp_file_in_name(f);
		if (check_name(cfg, files, i, err) < 0 || open_path(f, &files[i], err) < 0)
			return -1;
	} else {
		const struct sp_file_bytes *b = &cfg->files_bytes[i - cfg->n_files_in];
		if (!b->name || (!b->data && b->len))
			return sp_fail(err, "file to copy in: no name or no bytes given");
		files[i].name = b->name;
		files[i].data = b->data;
		files[i].bytes = b->len;
		if (check_name(cfg, files, i, err) < 0)
			return -1;
	}
	*total += files[i].bytes;
	if (*total > cfg->limits.disk_bytes)
		return sp_fail(err, "file '%s' is %s (%llu bytes) and does not fit: the files in%s "
			       "come to %s and the work dir holds %s (the disk limit, --disk); "
			       "raise the disk limit or bring a sample of the data",
			       label, SP_BYTES(files[i].bytes), (unsigned long long)files[i].bytes,
			       cfg->carry_in ? " and the carry-in" : "", SP_BYTES(*total),
			       SP_BYTES(cfg->limits.disk_bytes));
	return 0;
}

size_t sp_in_files_count(const struct sp_config *cfg)
{
	return cfg->n_files_in + (cfg->files_bytes ? cfg->n_files_bytes : 0);
}

int sp_in_files_open(const struct sp_config *cfg, struct sp_in_file **out,
		     struct sp_error *err)
{
	struct sp_in_file *files;
	uint64_t total = cfg->carry_in ? cfg->carry_in_len : 0;
	size_t n = sp_in_files_count(cfg);

	*out = NULL;
	if (n == 0)
		return 0;
	if (n > SP_MAX_FILES_IN)
		return sp_fail(err, "too many files to copy in (%zu): at most %d; "
			       "pack them into one archive and unpack it in the program",
			       n, SP_MAX_FILES_IN);
	files = calloc(n, sizeof *files);
	if (!files)
		return sp_fail(err, "out of memory");
	for (size_t i = 0; i < n; i++)
		files[i].fd = -1;
	for (size_t i = 0; i < n; i++)
		if (open_one(cfg, files, i, &total, err) < 0) {
			sp_in_files_close(files, n);
			return -1;
		}
	*out = files;
	return 0;
}

int sp_files_in_check(const struct sp_config *caller, struct sp_error *err)
{
	struct sp_config cfg;
	struct sp_in_file *files;

	if (sp_config_take(caller, &cfg, err) < 0 || sp_program_name_check(&cfg, err) < 0 ||
	    sp_in_files_open(&cfg, &files, err) < 0)
		return -1;
	sp_in_files_close(files, sp_in_files_count(&cfg));
	return 0;
}

/* Copy one file: at most the size fstat gave at open (a file that grows
 * meanwhile is cut there). Returns the bytes copied, or -1. */
static int64_t copy_one(int in, int out, uint64_t max)
{
	char buf[65536];
	uint64_t done = 0;

	if (lseek(in, 0, SEEK_SET) < 0)
		return -1;
	while (done < max) {
		size_t want = max - done < sizeof buf ? (size_t)(max - done) : sizeof buf;
		ssize_t n = read(in, buf, want);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		if (sp_write_all(out, buf, (size_t)n) < 0)
			return -1;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/* One copy, created where nothing can be in the way (O_EXCL, O_NOFOLLOW). */
static int copy_in(int work_fd, const struct sp_in_file *file, struct sp_file *listed,
		   struct sp_placed *placed, struct sp_error *err)
{
	int out = openat(work_fd, file->name,
			 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	struct stat st;
	int64_t got;

	if (out < 0)
		return sp_fail_errno(err, "copy '%s' into the work dir", file->name);
	if (file->data)
		got = sp_write_all(out, file->data, (size_t)file->bytes) < 0 ? -1 :
		      (int64_t)file->bytes;
	else
		got = copy_one(file->fd, out, file->bytes);
	if (got < 0) {
		sp_fail_errno(err, "copy '%s' into the work dir", file->name);
		close(out);
		return -1;
	}
	listed->path = strdup(file->name);
	listed->bytes = (uint64_t)got;
	if (fstat(out, &st) == 0) {
		snprintf(placed->name, sizeof placed->name, "%s", file->name);
		placed->ino = st.st_ino;
		placed->size = st.st_size;
		placed->mtime = st.st_mtim;
		placed->ctime = st.st_ctim;
	}
	close(out);
	if (!listed->path)
		return sp_fail(err, "out of memory");
	return 0;
}

int sp_in_files_copy(int work_fd, const struct sp_host_ids *ids,
		     const struct sp_in_file *files, size_t n,
		     struct sp_file *listed, struct sp_placed *placed,
		     struct sp_error *err)
{
	int rc = 0;

	/* The tmpfs belongs to the sandbox's user namespace, where host root
	 * has no uid: root creates the copies as the sandbox user's host ids,
	 * so they are the program's own to change or delete. */
	sp_host_ids_fs_enter(ids);
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = copy_in(work_fd, &files[i], &listed[i], &placed[i], err);
	sp_host_ids_fs_leave(ids);
	return rc;
}

int sp_program_file_write(int work_fd, const struct sp_host_ids *ids, const char *name,
			  const char *code, size_t len, struct sp_placed *placed,
			  struct sp_error *err)
{
	sp_host_ids_fs_enter(ids);   /* the program's own, as the files in */
	int fd = openat(work_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0644);
	struct stat st;
	int rc = 0, mode = fd >= 0 ? fchmod(fd, 0644) : -1; /* whatever the umask */
	int why = errno;

	sp_host_ids_fs_leave(ids);
	errno = why;
	if (fd < 0)
		return sp_fail_errno(err, "write the program into the work dir as %s", name);
	if (mode < 0 || sp_write_all(fd, code, len) < 0 || fstat(fd, &st) < 0) {
		if (errno == ENOSPC)
			rc = sp_fail(err, "the program (%s) does not fit in the work dir beside "
				     "the files in (the disk limit, --disk, is the work dir's "
				     "size): raise the disk limit", SP_BYTES(len));
		else
			rc = sp_fail_errno(err, "write the program into the work dir as %s", name);
	} else {
		snprintf(placed->name, sizeof placed->name, "%s", name);
		placed->ino = st.st_ino;
		placed->size = st.st_size;
		placed->mtime = st.st_mtim;
		placed->ctime = st.st_ctim;
	}
	close(fd);
	return rc;
}

