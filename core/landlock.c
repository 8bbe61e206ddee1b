/* SPDX-License-Identifier: MIT */
/*
 * landlock.c - a Landlock domain on top of the mount namespace.
 *
 * If something ever leaked a host path into the sandbox's mount tree,
 * Landlock would still confine the program to: the entries of the new
 * root read-only (they are only what mounts.c put there), /work and /cache
 * with every right, /dev for reading and writing its few nodes. On ABI 4+ TCP bind and
 * connect are denied outright; on ABI 6+ abstract unix sockets and signals
 * are scoped to the sandbox.
 *
 * The UAPI header of an older distribution may lack the newer fields, so
 * the structures and rights are spelled out here by ABI version.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd.h"
#include "base.h"
#include "sandbox.h"
#include "banned.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

#define LL_CREATE_RULESET_VERSION (1u << 0)
#define LL_RULE_PATH_BENEATH 1

#define LL_FS_EXECUTE     (1ull << 0)
#define LL_FS_WRITE_FILE  (1ull << 1)
#define LL_FS_READ_FILE   (1ull << 2)
#define LL_FS_READ_DIR    (1ull << 3)
#define LL_FS_ABI1_ALL    ((1ull << 13) - 1)
#define LL_FS_REFER       (1ull << 13) /* ABI 2 */
#define LL_FS_TRUNCATE    (1ull << 14) /* ABI 3 */
#define LL_FS_IOCTL_DEV   (1ull << 15) /* ABI 5 */
#define LL_NET_BIND_TCP    (1ull << 0) /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ull << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL        (1ull << 1)

struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

/* what getdents64(2) fills in */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

int sp_landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LL_CREATE_RULESET_VERSION);
	return abi < 0 ? 0 : (int)abi;
}

static int allow(int ruleset, const char *path, uint64_t access)
{
	struct ll_path_beneath pb = { .allowed_access = access };
	int rc;

	pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
	if (pb.parent_fd < 0)
		return errno == ENOENT ? 0 : -1;
	rc = (int)syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH,
			  &pb, 0);
	sp_close_keep_errno(pb.parent_fd); /* the caller reports add_rule's errno */
	return rc;
}

int sp_landlock_prepare(int *ruleset_out, int *abi_out, struct sp_error *err)
{
	struct ll_ruleset_attr attr = { 0 };
	size_t attr_size = sizeof attr.handled_access_fs;
	uint64_t all, ro = LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR;
	int abi = sp_landlock_abi();
	/* closed on every way out but success, which hands the ruleset on */
	SP_FD_AUTO int ruleset = -1;
	SP_FD_AUTO int root = -1;
	_Alignas(8) char dents[4096];

	*ruleset_out = -1;
	*abi_out = abi;
	if (abi <= 0)
		return 0;
	all = LL_FS_ABI1_ALL;
	if (abi >= 2)
		all |= LL_FS_REFER;
	if (abi >= 3)
		all |= LL_FS_TRUNCATE;
	if (abi >= 5)
		all |= LL_FS_IOCTL_DEV;
	attr.handled_access_fs = all;
	if (abi >= 4) {
		attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
		attr_size = 2 * sizeof(uint64_t);
	}
	if (abi >= 6) {
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
		attr_size = sizeof attr;
	}
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
	if (ruleset < 0)
		return sp_fail_errno(err, "landlock: create ruleset (ABI %d)", abi);

	/* Listing directories anywhere shows only what mounts.c put there. */
	if (allow(ruleset, "/", LL_FS_READ_DIR) < 0)
		return sp_fail_errno(err, "landlock: rule for /");
	/* getdents64, not opendir: init runs this, and must not malloc */
	root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return sp_fail_errno(err, "landlock: list /");
	for (;;) {
		long got = syscall(SYS_getdents64, root, dents, sizeof dents);
		if (got < 0)
			return sp_fail_errno(err, "landlock: list /");
		if (got == 0)
			break;
		for (long off = 0; off < got;) {
			struct linux_dirent64 *de = (struct linux_dirent64 *)(void *)(dents + off);
			char path[300];
			uint64_t access = ro;
			off += de->d_reclen;
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "/%s", de->d_name);
			if (strcmp(path, SP_WORKDIR) == 0 || strcmp(path, SP_CACHEDIR) == 0)
				access = all;
			else if (strcmp(path, "/dev") == 0)
				access = LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_READ_DIR |
					 (abi >= 3 ? LL_FS_TRUNCATE : 0) |
					 (abi >= 5 ? LL_FS_IOCTL_DEV : 0);
			else if (strcmp(path, "/proc") == 0)
				access = LL_FS_READ_FILE | LL_FS_READ_DIR | LL_FS_WRITE_FILE;
			if (allow(ruleset, path, access) < 0)
				return sp_fail_errno(err, "landlock: rule for %s", path);
		}
	}
	*ruleset_out = sp_fd_take(&ruleset);
	return 0;
}

int sp_landlock_enforce(int ruleset, struct sp_error *err)
{
	if (ruleset < 0)
		return 0;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, ruleset, 0) < 0) {
		int rc = sp_fail_errno(err, "landlock: restrict");
		close(ruleset);
		return rc;
	}
	close(ruleset);
	return 0;
}
