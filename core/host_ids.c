/* SPDX-License-Identifier: MIT */
/*
 * host_ids.c - the host uid and gid a run's sandbox user is.
 *
 * Inside, the program is uid 1000. Outside, for an ordinary user, it is
 * the caller: an unprivileged user namespace can map nobody else. Started
 * as root, it is a pair of the run's own, uid = gid = one of the
 * SP_ROOT_HOST_ID_COUNT ids from SP_ROOT_HOST_ID_FIRST (sandpit.h), which
 * no host user and no other run has. The kernel lets a process signal any
 * process of its own real or saved uid, and trace one of its uid that is
 * dumpable (the interpreter is, after its exec); a shared uid such as
 * nobody's would let every daemon that runs as nobody kill or trace the
 * sandbox, and would put every run into nobody's per-user counts (pipe
 * buffers, inotify instances, message queues).
 *
 * The pair is chosen as systemd's DynamicUser chooses: from a random
 * start, the first that no other run holds. A run holds its pair with an
 * open file description lock on one byte (the id's offset in the range)
 * of /run/sandpit/host-ids.lock, root's own: sandpits of every process,
 * thread and pid namespace on the host see the same locks, and a sandpit
 * that dies, however it dies, lets its pairs go. Where that file cannot be
 * made (no writable /run) the pair is the random one alone: still no host
 * user's, and a run cannot reach another run's processes anyway (each has
 * its own pid namespace and /proc).
 *
 * Root of a container in a user namespace (rootless podman, a pod with
 * user namespaces) usually has only 0-65535 mapped: ids it does not have
 * cannot be given to a run (the kernel refuses the uid_map line), so
 * there a run is the overflow id 65534 as before, shared by the runs of
 * that container (the layer says so; docs/security.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sandbox.h"
#include "banned.h"

#define LOCK_DIR "/run/sandpit"
#define LOCK_FILE LOCK_DIR "/host-ids.lock"

static uint32_t random_start(void)
{
	uint32_t r;

	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
		r = (uint32_t)(sp_now_us() ^ ((uint64_t)getpid() << 16));
	return r % SP_ROOT_HOST_ID_COUNT;
}

/* Lock the byte of id offset off: 0, or -1 (errno EAGAIN: another run's). */
static int hold(int fd, uint32_t off)
{
	struct flock fl = {
		.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = off, .l_len = 1,
	};

	return fcntl(fd, F_OFD_SETLK, &fl);
}

/* Are ids first .. first + count - 1 all mapped in this process's user
 * namespace (map: /proc/self/uid_map or gid_map, "inside outside count"
 * lines)? Unreadable: taken as mapped, as on a host without them. */
static bool range_mapped(const char *map, uint64_t first, uint64_t count)
{
	char *text = sp_read_file(map, 65536, NULL), *p = text;
	unsigned long in, out, n;
	int used = 0;
	bool ok = false;

	if (!text)
		return true;
	while (!ok && sscanf(p, "%lu %lu %lu%n", &in, &out, &n, &used) == 3) {
		ok = first >= in && first - in + count <= n;
		p += used;
	}
	free(text);
	return ok;
}

int sp_host_ids_take(struct sp_host_ids *ids, struct sp_error *err)
{
	uint32_t start;
	int fd;

	ids->lock_fd = -1;
	ids->own = geteuid() == 0;
	if (!ids->own) {
		ids->uid = geteuid();
		ids->gid = getegid();
		return 0;
	}
	if (!range_mapped("/proc/self/uid_map", SP_ROOT_HOST_ID_FIRST, SP_ROOT_HOST_ID_COUNT) ||
	    !range_mapped("/proc/self/gid_map", SP_ROOT_HOST_ID_FIRST, SP_ROOT_HOST_ID_COUNT)) {
		ids->uid = ids->gid = 65534;   /* the overflow id: what this namespace has */
		return 0;
	}
	start = random_start();
	ids->uid = ids->gid = SP_ROOT_HOST_ID_FIRST + start;
	if (mkdir(LOCK_DIR, 0755) < 0 && errno != EEXIST)
		return 0;
	fd = open(LOCK_FILE, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	for (uint32_t i = 0; i < SP_ROOT_HOST_ID_COUNT; i++) {
		uint32_t off = (start + i) % SP_ROOT_HOST_ID_COUNT;
		if (hold(fd, off) == 0) {
			ids->uid = ids->gid = SP_ROOT_HOST_ID_FIRST + off;
			ids->lock_fd = fd;
			return 0;
		}
		if (errno != EAGAIN && errno != EACCES) {
			close(fd);  /* no locks here: the random pair alone */
			return 0;
		}
	}
	close(fd);
	return sp_fail(err, "all %u host uids for runs (from %u) are held by other runs: "
		       "wait for some to end", (unsigned)SP_ROOT_HOST_ID_COUNT,
		       (unsigned)SP_ROOT_HOST_ID_FIRST);
}

void sp_host_ids_release(struct sp_host_ids *ids)
{
	if (ids->lock_fd >= 0)
		close(ids->lock_fd);
	ids->lock_fd = -1;
}

/* The file system ids are this thread's alone: other runs' threads keep
 * root's. */
void sp_host_ids_fs_enter(const struct sp_host_ids *ids)
{
	if (!ids->own)
		return;
	syscall(SYS_setfsgid, ids->gid);
	syscall(SYS_setfsuid, ids->uid);
}

void sp_host_ids_fs_leave(const struct sp_host_ids *ids)
{
	if (!ids->own)
		return;
	syscall(SYS_setfsuid, 0);
	syscall(SYS_setfsgid, 0);
}
