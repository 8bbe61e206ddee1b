/* SPDX-License-Identifier: MIT */
/*
 * workfiles.h - files across the work dir's wall: the caller's files
 * copied in before the program starts, what the program left listed at
 * the end, and copied to a keep dir. Layer: above base.h.
 *
 * Invariants: every path is opened relative to a directory fd, never
 * through a link (O_NOFOLLOW, fstatat AT_SYMLINK_NOFOLLOW); a file in is
 * opened and checked before anything starts; what is kept never passes
 * its byte budget, and never overwrites anything of the caller's.
 */
#ifndef SP_WORKFILES_H
#define SP_WORKFILES_H

#include <sys/stat.h>
#include <time.h>

#include "base.h"

struct sp_host_ids;   /* sandbox.h */

/* files_in.c: host files opened for the copy in (fd owned), checked. */
struct sp_in_file {
	int fd;                  /* -1 for a file given as bytes */
	const void *data;        /* its bytes (in the config), or NULL */
	const char *name;        /* points into the config */
	uint64_t bytes;          /* st_size at open: what is copied */
};
/* What sandpit itself put in the work dir (inputs, carry.json, the
 * program's file): left as it was (same inode, size, mtime and ctime, which
 * the program cannot set back), it is not "a file the program left". */
struct sp_placed {
	char name[256];
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
};
/* The program's name in the work dir: the last part of cfg->filename
 * (main.py when there is none). */
const char *sp_program_file_name(const struct sp_config *cfg);
/* 0 when that name can be a file in the work dir (the rules of files in,
 * and not carry.json beside a carry-in), else -1 with err->msg. */
int sp_program_name_check(const struct sp_config *cfg, struct sp_error *err);
/* Write the program's text as work dir file name (0644, the sandbox
 * user's) and note it in placed: 0, or -1 with err->msg. */
int sp_program_file_write(int work_fd, const struct sp_host_ids *ids, const char *name,
			  const char *code, size_t len, struct sp_placed *placed,
			  struct sp_error *err);
const char *sp_file_in_name(const struct sp_file_in *f);
/* How many files cfg brings in: files_in, then files_bytes. */
size_t sp_in_files_count(const struct sp_config *cfg);
/* Open and check every file of cfg->files_in and files_bytes: 0 and *out (NULL when none),
 * or -1 with err->msg. */
int sp_in_files_open(const struct sp_config *cfg, struct sp_in_file **out,
		     struct sp_error *err);
/* Close files[0..n) and free files (NULL with n 0: nothing). */
void sp_in_files_close(struct sp_in_file *files, size_t n);
/* Copy them into the work dir as the sandbox user's (ids, the run's);
 * listed[i] and placed[i] filled for each. */
int sp_in_files_copy(int work_fd, const struct sp_host_ids *ids,
		     const struct sp_in_file *files, size_t n,
		     struct sp_file *listed, struct sp_placed *placed,
		     struct sp_error *err);

/* keep.c: copying what the program left to a host dir, never through a
 * link, at most budget bytes in all. */
struct sp_keep {
	int root_fd;             /* the keep dir; -1: nothing is kept */
	const char *root_path;   /* as the caller gave it, for "kept" */
	uint64_t budget;         /* bytes that may still be copied */
};
/* Open the keep dir (sp_keep_dir_prepare's rules): fd, or -1 with err. */
int sp_keep_dir_open(const char *dir, struct sp_error *err);
/* A subdirectory of host_dir for the work dir's subdir name: fd or -1. */
int sp_keep_subdir(int host_dir, const char *name);
/* Copy entry name of dirfd (st from fstatat, rel its path) into host_dir
 * under the same name; sets f->kept or f->skipped. */
void sp_keep_entry(struct sp_keep *k, int dirfd, const char *name,
		   const struct stat *st, int host_dir, const char *rel,
		   struct sp_file *f);

/* workdir.c: list what is under the work dir (all but directories) without
 * following links, but what placed says sandpit put there unchanged;
 * with keep (may be NULL), copy each regular file out as it goes. */
int sp_workdir_list(int dirfd, struct sp_file **files, size_t *n, size_t max,
		    const struct sp_placed *placed, size_t n_placed,
		    struct sp_keep *keep);
uint64_t sp_workdir_bytes(int dirfd);
/* Inodes the work dir's tmpfs has left (it has SP_WORKDIR_INODES), or
 * UINT64_MAX when it cannot say. */
#define SP_WORKDIR_INODES 16384u
uint64_t sp_workdir_files_left(int dirfd);

#endif
