/*
 * carry_file.c - the carry-in as the work dir's carry.json, told apart
 * from a file of the program's own. sandpit puts carry.json there for the
 * program; listing it afterwards among "the files the program left" would
 * say the program made it. So it is left out of the listing when it is
 * still what sandpit wrote: a regular file (opened without following a
 * link, the name is the program's to replace) of the same length and the
 * same FNV-1a hash. A carry.json the program rewrote is listed.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_impl.h"
#include "banned.h"

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV_BASIS 0xcbf29ce484222325ull

void carry_file_note(struct sp_run *r, const char *text, size_t len)
{
	r->carry_file = text != NULL;
	r->carry_file_len = len;
	r->carry_file_hash = text ? fnv1a(FNV_BASIS, text, len) : 0;
}

/* Whether the work dir's carry.json is still the one sandpit wrote. */
static bool unchanged(struct sp_run *r)
{
	int fd = openat(r->L.work_fd, "carry.json",
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	uint64_t h = FNV_BASIS;
	char buf[65536];
	size_t left;
	bool same = false;

	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != r->carry_file_len)
		goto out;
	for (left = r->carry_file_len; left;) {
		ssize_t n = read(fd, buf, left < sizeof buf ? left : sizeof buf);
		if (n <= 0)
			goto out;
		h = fnv1a(h, buf, (size_t)n);
		left -= (size_t)n;
	}
	same = h == r->carry_file_hash;
out:
	close(fd);
	return same;
}

void carry_file_unlist(struct sp_run *r)
{
	struct sp_result *res = r->res;

	if (!r->carry_file || r->L.work_fd < 0)
		return;
	for (size_t i = 0; i < res->n_files; i++)
		if (strcmp(res->files[i].path, "carry.json") == 0) {
			if (!unchanged(r))
				return;
			free(res->files[i].path);
			memmove(&res->files[i], &res->files[i + 1],
				(res->n_files - i - 1) * sizeof res->files[0]);
			res->n_files--;
			return;
		}
}
