/* SPDX-License-Identifier: MIT */
/*
 * base.h - the ground every core/ file stands on: the sandbox's fixed
 * names and numbers, errors, whole reads and writes, the clock, moving
 * and passing descriptors, sizes and times as text, and the caller's
 * config in this library's layout. (fd.h says who closes a descriptor;
 * buf.h grows buffers.)
 *
 * Layers of core/, lowest first; a file includes only the headers of the
 * layers it uses, and no layer calls one above it:
 *   base.h       this ground (util.c, units.c, config_abi.c)
 *   result.h     the result's records and JSON, pure data
 *   sandbox.h    the walls, one kernel layer a file; interpreter.h what
 *                the build gives the interpreter
 *   observe.h    reading a live sandbox from outside
 *   workfiles.h  files copied into the work dir and out of it
 *   launch.h     init and the program, started in three steps
 *   run_impl.h   the run object and the files that handle its sources
 *
 * Invariants: nothing here prints or exits (a library); a function that
 * fails says why in err->msg and returns -1 (sp_fail), with errno saved
 * before anything else runs; none keeps state between calls.
 */
#ifndef SP_BASE_H
#define SP_BASE_H

#include <dirent.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sandpit.h"

#define SP_SANDBOX_UID 1000
#define SP_SANDBOX_GID 1000
/* A number as a string literal, for file texts: SP_STR(SP_SANDBOX_UID). */
#define SP_STR_(x) #x
#define SP_STR(x) SP_STR_(x)

#define SP_WORKDIR "/work"
#define SP_SPDIR   "/sandpit"          /* read-only: prelude and program */
#define SP_CACHEDIR "/cache"           /* libraries' caches: own tmpfs, never listed */
#define SP_CACHE_BYTES (8u << 20)
#define SP_CHAN_FD 3                   /* the program's private channel */
#define SP_REL_FD 4                    /* a prepared run's release socket */

#define SP_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* err->msg = formatted text; returns -1 so callers can `return sp_fail(...)`. */
int sp_fail(struct sp_error *err, const char *fmt, ...) SP_PRINTF(2, 3);
/* The same with ": strerror(errno)" appended (errno saved first). */
int sp_fail_errno(struct sp_error *err, const char *fmt, ...) SP_PRINTF(2, 3);

/* Write all of buf, retrying on EINTR and short writes. 0 or -1. */
int sp_write_all(int fd, const void *buf, size_t len);
/* Write a small string to a file (e.g. /proc/PID/uid_map). 0 or -1. */
int sp_write_file(const char *path, const char *text);
/* Read a whole small file (at most max bytes) into a malloc'd NUL-ended buffer. */
char *sp_read_file(const char *path, size_t max, size_t *len);
/* Same, relative to a directory fd. */
char *sp_read_file_at(int dirfd, const char *path, size_t max, size_t *len);
/* Monotonic clock in microseconds. */
uint64_t sp_now_us(void);
/* Move fd to >= min (so low numbers are free for the program): the new
 * fd, or -1 with errno set; fd itself is closed either way (unless it was
 * already >= min and is returned). */
int sp_fd_move_above(int fd, int min);
/* close(fd) (if >= 0) leaving errno as it was, for failure paths. */
void sp_close_keep_errno(int fd);
/* path under dirfd opened as a directory stream (O_CLOEXEC; "." for
 * dirfd's own, on a descriptor of its own), or NULL with errno. */
DIR *sp_opendir_at(int dirfd, const char *path);

/* fds passed with SCM_RIGHTS over the control socket. */
int sp_send_fds(int sock, const void *msg, size_t len, const int *fds, int nfds);
ssize_t sp_recv_fds(int sock, void *msg, size_t len, int *fds, int *nfds);

/* units.c: a size or time as the gauges show it, for a record's text, in
 * a buffer the calling expression owns: sp_run_violation(..., "%s", SP_MS(t)). */
const char *sp_bytes_str(uint64_t n, char *buf);   /* buf: 32 bytes */
const char *sp_ms_str(uint64_t ms, char *buf);
#define SP_BYTES(n) sp_bytes_str((n), (char[32]){ 0 })
#define SP_MS(ms) sp_ms_str((ms), (char[32]){ 0 })

/* config_abi.c: the caller's config (cfg->size bytes, as its sandpit.h
 * made it) copied into *out with this library's layout, unknown tail
 * zero. 0, or -1 with err->msg (no sp_config_init, newer fields set). */
int sp_config_take(const struct sp_config *in, struct sp_config *out,
		   struct sp_error *err);

#endif
