/* SPDX-License-Identifier: MIT */
/*
 * test_allow_dir.c - a request's host path (`sandpit mcp --allow-dir`)
 * is opened by descriptor under the allowed dir, never checked by name
 * and then read by name (tui/service/allow_dir.c over
 * tui/text/open_beneath.c):
 *  - a racer swaps a directory under the allowed dir for a symlink to
 *    outside, over and over, while requests read a file through it: no
 *    request ever gets the outside file's bytes (by openat2, and by the
 *    O_NOFOLLOW walk kernels before 5.6 get);
 *  - a symlink inside the allowed dir to outside, a "..", a FIFO and a
 *    path outside are refused, each with a message that says why (the
 *    walk with the same errno for each); a
 *    file is found by the allowed dir's real name and by the name the
 *    operator gave it.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "service/allow_dir.h"
#include "service/request.h"
#include "text/open_beneath.h"

#define TRIES 3000  /* the race was won 1 in 2 to 1 in 47 tries */

struct tree {
	char root[64];         /* mkdtemp */
	char allowed[128];     /* root/allowed, the --allow-dir */
	char alias[128];       /* root/alias -> allowed */
	char outside[128];     /* root/outside/secret: "OUTSIDE" */
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void make_tree(struct tree *t)
{
	char p[256];

	snprintf(t->root, sizeof t->root, "/tmp/sandpit-allow-XXXXXX");
	assert_non_null(mkdtemp(t->root));
	snprintf(t->allowed, sizeof t->allowed, "%s/allowed", t->root);
	snprintf(t->alias, sizeof t->alias, "%s/alias", t->root);
	snprintf(t->outside, sizeof t->outside, "%s/outside", t->root);
	assert_int_equal(mkdir(t->allowed, 0700), 0);
	assert_int_equal(mkdir(t->outside, 0700), 0);
	assert_int_equal(symlink("allowed", t->alias), 0);
	snprintf(p, sizeof p, "%s/secret", t->outside);
	put(p, "OUTSIDE");
	/* sub: a real directory; alt: a link to outside; the racer swaps them */
	snprintf(p, sizeof p, "%s/sub", t->allowed);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof p, "%s/sub/secret", t->allowed);
	put(p, "inside");
	snprintf(p, sizeof p, "%s/alt", t->allowed);
	assert_int_equal(symlink(t->outside, p), 0);
}

static void remove_tree(struct tree *t)
{
	char cmd[300];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
	assert_int_equal(system(cmd), 0);
}

struct racer {
	pthread_t thread;
	atomic_bool stop;
	char a[256], b[256];
	unsigned long swaps;
};

/* sub and alt change places, one atomic rename at a time */
static void *race(void *arg)
{
	struct racer *r = arg;

	while (!atomic_load(&r->stop))
		if (renameat2(AT_FDCWD, r->a, AT_FDCWD, r->b, RENAME_EXCHANGE) == 0)
			r->swaps++;
	return NULL;
}

static void racer_start(struct racer *r, const struct tree *t)
{
	memset(r, 0, sizeof *r);
	snprintf(r->a, sizeof r->a, "%s/sub", t->allowed);
	snprintf(r->b, sizeof r->b, "%s/alt", t->allowed);
	atomic_store(&r->stop, false);
	assert_int_equal(pthread_create(&r->thread, NULL, race, r), 0);
}

static void racer_stop(struct racer *r)
{
	atomic_store(&r->stop, true);
	assert_int_equal(pthread_join(r->thread, NULL), 0);
}

static int parse(const char *text, struct request_policy *pol, struct request *rq,
		 char *err, size_t len)
{
	json_t *j = json_loads(text, 0, NULL);
	int rc;

	assert_non_null(j);
	rc = request_parse(j, pol, rq, err, len);
	json_decref(j);
	return rc;
}

/* The bytes the run would get as its first file ("" when none): the
 * request holds them (request.c hands the engine bytes, not paths). */
static void first_file(const struct request *rq, char *buf, size_t len)
{
	size_t n = rq->n_files ? rq->files[0].len : 0;

	if (n > len - 1)
		n = len - 1;
	if (n)
		memcpy(buf, rq->files[0].data, n);
	buf[n] = '\0';
}

/* One request for path under pol: 0 with its bytes in got, or -1 with
 * err. */
static int ask(struct request_policy *pol, const char *path, char *got, size_t glen,
	       char *err, size_t elen)
{
	char text[600];
	struct request rq;
	int rc;

	snprintf(text, sizeof text, "{\"code\": \"pass\", \"files\": [{\"name\": \"f\", "
		 "\"path\": \"%s\"}]}", path);
	err[0] = got[0] = '\0';
	rc = parse(text, pol, &rq, err, elen);
	if (rc == 0)
		first_file(&rq, got, glen);
	request_free(&rq);
	return rc;
}

static void policy(struct request_policy *pol, struct allow_dir *d, const char *dir)
{
	char err[300];

	request_policy_init(pol);
	if (allow_dir_open(d, dir, err, sizeof err) < 0)
		fail_msg("allow_dir_open: %s", err);
	pol->allow_dirs = d;
	pol->n_allow = 1;
}

static void test_a_directory_swapped_for_a_link_never_hands_over_outside(void **state)
{
	struct tree t;
	struct racer r;
	struct request_policy pol;
	struct allow_dir d;
	char path[300], got[64], err[600], tmp[] = "/tmp/sandpit-allow-req-XXXXXX";
	unsigned read_in = 0, refused = 0, outside = 0;

	(void)state;
	make_tree(&t);
	assert_non_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	policy(&pol, &d, t.allowed);
	snprintf(path, sizeof path, "%s/sub/secret", t.allowed);
	racer_start(&r, &t);
	for (unsigned i = 0; i < TRIES; i++) {
		if (ask(&pol, path, got, sizeof got, err, sizeof err) < 0)
			refused++;
		else if (!strcmp(got, "OUTSIDE"))
			outside++;
		else
			read_in += !strcmp(got, "inside");
	}
	racer_stop(&r);
	print_message("request_parse: %u read inside, %u refused, %u outside; %lu swaps\n",
		      read_in, refused, outside, r.swaps);
	assert_int_equal(outside, 0);

	/* the walk kernels without openat2 take: the same race, the same rule */
	unsigned walk_outside = 0;
	racer_start(&r, &t);
	for (unsigned i = 0; i < TRIES; i++) {
		int fd = open_beneath_walk(d.fd, "sub/secret", O_RDONLY | O_NONBLOCK);
		ssize_t n = fd >= 0 ? read(fd, got, sizeof got - 1) : -1;
		got[n > 0 ? n : 0] = '\0';
		walk_outside += !strcmp(got, "OUTSIDE");
		if (fd >= 0)
			close(fd);
	}
	racer_stop(&r);
	assert_int_equal(walk_outside, 0);

	allow_dir_close(&d);
	unsetenv("TMPDIR");
	rmdir(tmp);
	remove_tree(&t);
}

static void test_links_dotdot_fifos_and_outside_are_refused_with_why(void **state)
{
	struct tree t;
	struct request_policy pol;
	struct allow_dir d;
	char p[300], got[64], err[600], tmp[] = "/tmp/sandpit-allow-req-XXXXXX";

	(void)state;
	make_tree(&t);
	assert_non_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	snprintf(p, sizeof p, "%s/link", t.allowed);
	assert_int_equal(symlink("../outside/secret", p), 0);
	snprintf(p, sizeof p, "%s/inner", t.allowed);
	assert_int_equal(symlink("sub/secret", p), 0);
	snprintf(p, sizeof p, "%s/fifo", t.allowed);
	assert_int_equal(mkfifo(p, 0600), 0);
	/* the operator named it through a link: both names lead to it */
	policy(&pol, &d, t.alias);

	const char *cases[][2] = {
		{ "/link", "symbolic link" },            /* a link to outside */
		{ "/alt/secret", "symbolic link" },      /* a directory link on the way */
		{ "/inner", "symbolic link" },           /* even to inside: no links */
		{ "/sub/../../outside/secret", "'..'" },
		{ "/fifo", "FIFO" },                     /* and the open did not block */
		{ "/nothing", "does not exist" },
		{ "", "allowed directory itself" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(p, sizeof p, "%s%s", t.allowed, cases[i][0]);
		assert_int_equal(ask(&pol, p, got, sizeof got, err, sizeof err), -1);
		if (!strstr(err, cases[i][1]))
			fail_msg("%s: got '%s', wanted '%s'", p, err, cases[i][1]);
	}
	/* the walk says the same: a link is ELOOP, a ".." EXDEV */
	const char *walk[][2] = { { "link", "l" }, { "alt/secret", "l" }, { "inner", "l" },
				  { "sub/../sub/secret", "x" }, { "nothing", "n" } };
	for (size_t i = 0; i < sizeof walk / sizeof walk[0]; i++) {
		errno = 0;
		assert_int_equal(open_beneath_walk(d.fd, walk[i][0], O_RDONLY | O_NONBLOCK), -1);
		assert_int_equal(errno, walk[i][1][0] == 'l' ? ELOOP : walk[i][1][0] == 'x' ? EXDEV
				 : ENOENT);
	}
	int fd = open_beneath_walk(d.fd, "./sub//secret", O_RDONLY);
	assert_true(fd >= 0);
	close(fd);

	snprintf(p, sizeof p, "%s/secret", t.outside);
	assert_int_equal(ask(&pol, p, got, sizeof got, err, sizeof err), -1);
	assert_non_null(strstr(err, "outside the directories"));
	assert_int_equal(ask(&pol, "relative/x", got, sizeof got, err, sizeof err), -1);
	assert_non_null(strstr(err, "not an absolute path"));

	/* what is allowed reads, by either name, with "." and "//" in it */
	snprintf(p, sizeof p, "%s/sub/secret", t.allowed);
	assert_int_equal(ask(&pol, p, got, sizeof got, err, sizeof err), 0);
	assert_string_equal(got, "inside");
	snprintf(p, sizeof p, "%s/./sub//secret", t.alias);
	assert_int_equal(ask(&pol, p, got, sizeof got, err, sizeof err), 0);
	assert_string_equal(got, "inside");

	allow_dir_close(&d);
	unsetenv("TMPDIR");
	rmdir(tmp);
	remove_tree(&t);
}

static void test_a_path_lies_below_a_dir_by_its_components(void **state)
{
	(void)state;
	assert_string_equal(path_below("/srv/data/a/b", "/srv/data"), "a/b");
	assert_string_equal(path_below("//srv/./data//a", "/srv/data"), "a");
	assert_string_equal(path_below("/srv/data", "/srv/data"), "");
	assert_string_equal(path_below("/a", "/"), "a");
	assert_null(path_below("/srv/database/a", "/srv/data"));
	assert_null(path_below("/srv/dat", "/srv/data"));
	assert_null(path_below("srv/data/a", "/srv/data"));
	assert_null(path_below("/srv/x/../data/a", "/srv/data"));
	errno = 0;
	assert_int_equal(open_beneath(AT_FDCWD, "a/../../b", O_RDONLY), -1);
	assert_int_equal(errno, EXDEV);
	assert_int_equal(open_beneath(AT_FDCWD, "/etc/passwd", O_RDONLY), -1);
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_directory_swapped_for_a_link_never_hands_over_outside),
		cmocka_unit_test(test_links_dotdot_fifos_and_outside_are_refused_with_why),
		cmocka_unit_test(test_a_path_lies_below_a_dir_by_its_components),
	};
	return cmocka_run_group_tests_name("allow_dir", tests, NULL, NULL);
}
