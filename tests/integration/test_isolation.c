/* SPDX-License-Identifier: MIT */
/*
 * test_isolation.c - constraints 1-3 (issue 2), through real sandboxed
 * runs: no network, a limited filesystem, stateless runs; plus the clean
 * environment, no controlling terminal, no process left behind, and the
 * layers a result names.
 *
 * The host side of each check is made by the test itself (a listener it
 * bound, a canary file it wrote, a variable it set), so a pass means the
 * sandbox really could not reach it, not that it was never there.
 */
#include "itest.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>

/* True when a connection is waiting on the listening socket fd. The run
 * has finished when this is asked, so anything it did is already queued;
 * the short wait only covers the loopback's own delivery. */
static bool connection_waiting(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };

	return poll(&p, 1, 200) > 0;
}

static void test_tcp_listener_on_host_loopback_sees_nothing(void **state)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof a;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	char *name = it_name("tcp"), *code;
	struct sp_result *r;

	(void)state;
	assert_true(fd >= 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);

	/* three ways in: the socket module, create_connection, a raw syscall */
	code = it_fmt(
		"import socket, ctypes\n"
		"port = %d\n"
		"for how in ('socket', 'create_connection', 'syscall'):\n"
		"    try:\n"
		"        if how == 'socket':\n"
		"            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"            s.settimeout(2)\n"
		"            s.connect(('127.0.0.1', port))\n"
		"        elif how == 'create_connection':\n"
		"            socket.create_connection(('127.0.0.1', port), timeout=2)\n"
		"        else:\n"
		"            libc = ctypes.CDLL(None, use_errno=True)\n"
		"            if libc.socket(2, 1, 0) < 0:\n"
		"                raise OSError(ctypes.get_errno(), 'socket')\n"
		"        print(how, 'CONNECTED')\n"
		"    except OSError as e:\n"
		"        print(how, 'failed', e.errno)\n",
		ntohs(a.sin_port));
	r = it_run(code, name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, !it_contains(it_out(r), "CONNECTED"));
	IT_CHECK(r, it_contains(it_out(r), "socket failed"));
	IT_CHECK(r, it_contains(it_out(r), "create_connection failed"));
	IT_CHECK(r, it_contains(it_out(r), "syscall failed"));
	IT_CHECK(r, !connection_waiting(fd));
	IT_CHECK(r, it_viol(r, SP_VIOL_NETWORK, "socket(AF_INET, SOCK_STREAM)") != NULL);
	sp_result_free(r);
	close(fd);
	free(code);
	free(name);
}

static void test_dns_lookups_fail(void **state)
{
	char *name = it_name("dns");
	struct sp_result *r;

	(void)state;
	r = it_run("import socket\n"
		   "for host in ('example.com', 'dns.google', 'pypi.org'):\n"
		   "    try:\n"
		   "        print(host, 'RESOLVED', socket.getaddrinfo(host, 443))\n"
		   "    except socket.gaierror as e:\n"
		   "        print(host, 'gaierror')\n"
		   "    except OSError as e:\n"
		   "        print(host, 'oserror', e)\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, !it_contains(it_out(r), "RESOLVED"));
	IT_CHECK(r, it_contains(it_out(r), "example.com gaierror"));
	IT_CHECK(r, it_contains(it_out(r), "dns.google gaierror"));
	IT_CHECK(r, it_contains(it_out(r), "pypi.org gaierror"));
	sp_result_free(r);
	free(name);
}

static void test_host_abstract_unix_socket_is_unreachable(void **state)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char abs_name[64];
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	char *name = it_name("abstract"), *code;
	socklen_t alen;
	struct sp_result *r;

	(void)state;
	assert_true(fd >= 0);
	snprintf(abs_name, sizeof abs_name, "sandpit-itest-%d", (int)getpid());
	memcpy(a.sun_path + 1, abs_name, strlen(abs_name));
	alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(abs_name));
	assert_int_equal(bind(fd, (struct sockaddr *)&a, alen), 0);
	assert_int_equal(listen(fd, 8), 0);

	code = it_fmt("import socket\n"
		      "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n"
		      "try:\n"
		      "    s.connect('\\0%s')\n"
		      "    print('CONNECTED')\n"
		      "except OSError as e:\n"
		      "    print('failed', type(e).__name__)\n", abs_name);
	r = it_run(code, name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, !it_contains(it_out(r), "CONNECTED"));
	IT_CHECK(r, it_contains(it_out(r), "failed"));
	IT_CHECK(r, !connection_waiting(fd));
	sp_result_free(r);
	close(fd);
	free(code);
	free(name);
}

/* A canary with a secret, in the host's /tmp and (when it can) in $HOME. */
static void test_host_files_are_invisible(void **state)
{
	char *dir = it_tmpdir();
	char secret[64];
	char *canary, *home_canary = NULL, *code, *name = it_name("files");
	char *q_canary, *q_home;
	const char *home = getenv("HOME");
	struct sp_config cfg;
	struct sp_result *r;

	(void)state;
	snprintf(secret, sizeof secret, "canary-secret-%d-%ld", (int)getpid(), (long)time(NULL));
	canary = it_write(dir, "canary.txt", secret, strlen(secret));
	chmod(dir, 0755);
	chmod(canary, 0644);
	if (home && home[0] == '/' && strncmp(home, "/tmp", 4) != 0) {
		home_canary = it_fmt("%s/.sandpit-itest-canary-%d", home, (int)getpid());
		int fd = open(home_canary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0) {
			assert_int_equal(write(fd, secret, strlen(secret)), (ssize_t)strlen(secret));
			close(fd);
		} else {
			free(home_canary);
			home_canary = NULL;
		}
	}

	/* Everything the program can reach is searched for the secret too. */
	code = it_fmt(
		"import os\n"
		"paths = ['/etc/shadow', '/etc/gshadow', '/root', '/home', %s, %s, %s]\n"
		"for p in paths:\n"
		"    print(p, 'EXISTS' if os.path.lexists(p) else 'absent')\n"
		"    try:\n"
		"        with open(p, 'rb') as f:\n"
		"            print(p, 'READ', f.read(100))\n"
		"    except OSError as e:\n"
		"        pass\n"
		"found = []\n"
		"for root, dirs, files in os.walk('/'):\n"
		"    if root.startswith(('/proc', '/sys')):\n"
		"        dirs[:] = []\n"
		"        continue\n"
		"    for fn in files:\n"
		"        if 'canary' in fn:\n"
		"            found.append(os.path.join(root, fn))\n"
		"print('found', found)\n",
		"'/tmp/canary.txt'", (q_canary = it_fmt("'%s'", canary)),
		(q_home = it_fmt("'%s'", home_canary ? home_canary : "/nonexistent")));
	/* a walk of the whole root: its own limits, not the defaults a busy
	 * machine can run past */
	cfg = it_config(code, name);
	cfg.limits.cpu_ms = 60000;
	cfg.limits.wall_ms = 120000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "/etc/shadow absent"));
	IT_CHECK(r, it_contains(it_out(r), "/etc/gshadow absent"));
	IT_CHECK(r, it_contains(it_out(r), "/root absent"));
	IT_CHECK(r, it_contains(it_out(r), "/home absent"));
	IT_CHECK(r, !it_contains(it_out(r), "EXISTS"));
	IT_CHECK(r, !it_contains(it_out(r), "READ"));
	IT_CHECK(r, !it_contains(it_out(r), secret));
	IT_CHECK(r, it_contains(it_out(r), "found []"));
	sp_result_free(r);
	if (home_canary)
		unlink(home_canary);
	free(home_canary);
	free(canary);
	free(q_canary);
	free(q_home);
	free(code);
	free(name);
	it_rmdir(dir);
}

static void test_writing_outside_the_work_dir_fails(void **state)
{
	char *name = it_name("write");
	struct sp_result *r;

	(void)state;
	r = it_run("import os\n"
		   "targets = ['/x', '/usr/x', '/usr/lib/x', '/etc/x', '/etc/passwd',\n"
		   "           '/sandpit/x', '/sandpit/main.py', '/dev/x', '/proc/x',\n"
		   "           '/var/x', '/bin/x', '/lib/x']\n"
		   "for t in targets:\n"
		   "    try:\n"
		   "        with open(t, 'a') as f:\n"
		   "            f.write('x')\n"
		   "        print(t, 'WRITTEN')\n"
		   "    except OSError as e:\n"
		   "        print(t, 'refused')\n"
		   "for d in ['/newdir', '/usr/newdir']:\n"
		   "    try:\n"
		   "        os.mkdir(d)\n"
		   "        print(d, 'WRITTEN')\n"
		   "    except OSError:\n"
		   "        print(d, 'refused')\n"
		   "open('/work/ok.txt', 'w').write('fine')\n"
		   "open('/tmp/tmp_ok.txt', 'w').write('fine')\n"
		   "open('rel_ok.txt', 'w').write('fine')\n"
		   "print('cwd', os.getcwd(), 'home', os.environ.get('HOME'))\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, !it_contains(it_out(r), "WRITTEN"));
	IT_CHECK(r, it_contains(it_out(r), "/usr/lib/x refused"));
	IT_CHECK(r, it_contains(it_out(r), "/etc/passwd refused"));
	IT_CHECK(r, it_contains(it_out(r), "/sandpit/main.py refused"));
	IT_CHECK(r, it_contains(it_out(r), "cwd /work home /work"));
	/* the work dir is writable, /tmp lands in it, and both are listed */
	IT_CHECK(r, it_has_file(r, "ok.txt"));
	IT_CHECK(r, it_has_file(r, "rel_ok.txt"));
	IT_CHECK(r, it_has_file(r, "tmp_ok.txt"));
	sp_result_free(r);
	free(name);
}

static void test_second_run_does_not_see_the_first_runs_files(void **state)
{
	char *name = it_name("stateless");
	struct sp_result *r;

	(void)state;
	/* the work dir holds the program's own file (its __file__), no more */
	r = it_run("import os\n"
		   "me = os.path.basename(__file__)\n"
		   "print('before', sorted(set(os.listdir('/work')) - {me}),\n"
		   "      sorted(set(os.listdir('/tmp')) - {me}))\n"
		   "open('/work/left_behind.txt', 'w').write('run 1')\n"
		   "open('/tmp/tmp_left.txt', 'w').write('run 1')\n"
		   "os.mkdir('/work/sub')\n"
		   "open('/work/sub/deep.txt', 'w').write('run 1')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "before [] []"));
	IT_CHECK(r, it_has_file(r, "left_behind.txt"));
	sp_result_free(r);

	r = it_run("import os\n"
		   "print('work', sorted(set(os.listdir('/work')) - {os.path.basename(__file__)}))\n"
		   "for p in ('/work/left_behind.txt', '/tmp/tmp_left.txt', '/work/sub'):\n"
		   "    print(p, 'STILL THERE' if os.path.exists(p) else 'gone')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "work []"));
	IT_CHECK(r, !it_contains(it_out(r), "STILL THERE"));
	IT_CHECK(r, r->n_files == 0);
	sp_result_free(r);
	free(name);
}

static void test_host_environment_does_not_leak_in(void **state)
{
	char value[64];
	char *name = it_name("env");
	struct sp_result *r;

	(void)state;
	snprintf(value, sizeof value, "leaked-%d", (int)getpid());
	assert_int_equal(setenv("SANDPIT_ITEST_SECRET", value, 1), 0);
	assert_int_equal(setenv("LD_PRELOAD", "/nonexistent/itest.so", 1), 0);
	assert_int_equal(setenv("PYTHONPATH", "/nonexistent/itest", 1), 0);
	r = it_run("import os, sys\n"
		   "for k, v in sorted(os.environ.items()):\n"
		   "    print('%s=%s' % (k, v))\n"
		   "print('path', sys.path)\n", name);
	unsetenv("SANDPIT_ITEST_SECRET");
	unsetenv("LD_PRELOAD");
	unsetenv("PYTHONPATH");
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, !it_contains(it_out(r), "SANDPIT_ITEST_SECRET"));
	IT_CHECK(r, !it_contains(it_out(r), value));
	IT_CHECK(r, !it_contains(it_out(r), "LD_PRELOAD"));
	IT_CHECK(r, !it_contains(it_out(r), "/nonexistent/itest"));
	IT_CHECK(r, it_contains(it_out(r), "HOME=/work"));
	sp_result_free(r);
	free(name);
}

/* The daemon double-forks, leaves its session, and proves it is up (a file
 * in /work) before the program says so and lingers a moment. While it is
 * up the host sees it (so the scan below can see such a process); after
 * the run no host process may carry its marker or the run's name. */
static void test_double_forked_daemon_leaves_nothing_behind(void **state)
{
	char marker[64];
	char *name = it_name("daemon"), *code;
	struct sp_config cfg;
	struct sp_run *run;
	struct it_seen seen = { 0 };
	const struct sp_result *r;

	(void)state;
	snprintf(marker, sizeof marker, "itest-daemon-marker-%d", (int)getpid());
	code = it_fmt(
		"import os, sys, time\n"
		"if os.fork() == 0:\n"
		"    os.setsid()\n"
		"    if os.fork() == 0:\n"
		"        for fd in range(0, 3):\n"
		"            os.close(fd)\n"
		"        os.execv(sys.executable, [sys.executable, '-c',\n"
		"                 'open(\"/work/up\", \"w\").close()\\n'\n"
		"                 'import time\\nwhile True: time.sleep(1)', '%s'])\n"
		"    os._exit(0)\n"
		"os.wait()\n"
		"for i in range(500):\n"
		"    if os.path.exists('/work/up'):\n"
		"        break\n"
		"    time.sleep(0.01)\n"
		"print('daemon up' if os.path.exists('/work/up') else 'daemon missing')\n"
		"time.sleep(2)\n",
		marker);
	cfg = it_config(code, name);
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "daemon up"));
	assert_true(it_host_procs_with(marker) >= 1);
	assert_false(it_drive(run, &seen, NULL));
	r = sp_run_result(run);
	assert_non_null(r);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_host_procs_with(marker) == 0);
	it_free_leaves_nothing(run, name);
	free(seen.out);
	free(code);
	free(name);
}

static void test_tiocsti_fails_on_every_fd(void **state)
{
	char *name = it_name("tiocsti");
	struct sp_result *r;

	(void)state;
	/* each fd the program has open, then every number up to 256, with the
	 * request as given and with high bits that the kernel would ignore */
	r = it_run("import fcntl, termios, os, errno\n"
		   "fds = sorted(set(int(x) for x in os.listdir('/proc/self/fd')) | set(range(256)))\n"
		   "ok = []\n"
		   "codes = set()\n"
		   "for fd in fds:\n"
		   "    for req in (termios.TIOCSTI, termios.TIOCSTI | (1 << 32)):\n"
		   "        try:\n"
		   "            fcntl.ioctl(fd, req, b'x')\n"
		   "            ok.append(fd)\n"
		   "        except (OSError, OverflowError) as e:\n"
		   "            codes.add(getattr(e, 'errno', None))\n"
		   "print('succeeded', ok)\n"
		   "print('errnos', sorted(errno.errorcode.get(c, str(c)) for c in codes if c))\n"
		   "try:\n"
		   "    open('/dev/tty', 'rb')\n"
		   "    print('TTY OPEN')\n"
		   "except OSError:\n"
		   "    print('no tty')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "succeeded []"));
	/* refused by the filter, not merely "not a terminal" */
	IT_CHECK(r, it_contains(it_out(r), "errnos ['EPERM']"));
	IT_CHECK(r, it_contains(it_out(r), "no tty"));
	IT_CHECK(r, it_viol(r, SP_VIOL_SYSCALL, "ioctl(TIOCSTI)") != NULL);
	sp_result_free(r);
	free(name);
}

/* The program's session is the sandbox's (init's, pid 1 inside), never
 * the caller's; the program leads a process group of its own in it but
 * not the session, so it can take no controlling terminal; it has none. */
static void test_program_session_is_the_sandboxs(void **state)
{
	char *name = it_name("session");
	struct sp_result *r;

	(void)state;
	r = it_run("import os\n"
		   "print('sid', os.getsid(0), 'pgrp-is-pid', os.getpgrp() == os.getpid(),\n"
		   "      'leader', os.getsid(0) == os.getpid())\n"
		   "try:\n"
		   "    os.setsid()\n"
		   "    print('SETSID WORKED')\n"
		   "except OSError:\n"
		   "    print('setsid refused')\n"
		   "print('tpgrp', os.tcgetpgrp(0) if os.isatty(0) else 'no tty')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "sid 1 pgrp-is-pid True leader False"));
	/* a group leader cannot start a session of its own either */
	IT_CHECK(r, it_contains(it_out(r), "setsid refused"));
	IT_CHECK(r, it_contains(it_out(r), "tpgrp no tty"));
	sp_result_free(r);
	free(name);
}

static void test_standard_library_works(void **state)
{
	char *name = it_name("stdlib");
	struct sp_result *r;

	(void)state;
	r = it_run("import json, sqlite3, math, statistics, decimal, fractions\n"
		   "db = sqlite3.connect(':memory:')\n"
		   "db.execute('create table t (x real)')\n"
		   "db.executemany('insert into t values (?)', [(i,) for i in range(10)])\n"
		   "s = db.execute('select sum(x) from t').fetchone()[0]\n"
		   "disk = sqlite3.connect('/work/db.sqlite')\n"
		   "disk.execute('create table u (y)')\n"
		   "disk.commit()\n"
		   "print(json.dumps({'sum': s, 'sqrt2': round(math.sqrt(2), 6),\n"
		   "                  'mean': statistics.mean([1, 2, 3, 4])}))\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->exit_code == 0);
	IT_CHECK(r, it_contains(it_out(r), "{\"sum\": 45.0, \"sqrt2\": 1.414214, \"mean\": 2.5}"));
	IT_CHECK(r, it_has_file(r, "db.sqlite"));
	IT_CHECK(r, r->n_violations == 0);
	sp_result_free(r);
	free(name);
}

/* /etc has the interpreter's own /etc/python3.N (Debian's sitecustomize)
 * when the host has it, and no other version's. */
static void test_etc_has_only_the_interpreters_python_dir(void **state)
{
	char *name = it_name("etcpy");
	char host[64];
	unsigned major = 0, minor = 0;
	int inside = -1;
	struct stat st;
	struct sp_result *r;

	(void)state;
	r = it_run("import os, sys\n"
		   "own = '/etc/python%d.%d' % sys.version_info[:2]\n"
		   "others = [d for d in os.listdir('/etc')\n"
		   "          if d.startswith('python3.') and '/etc/' + d != own]\n"
		   "print('%d.%d %d others=%r' % (sys.version_info[:2] + (os.path.isdir(own), others)))\n",
		   name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, sscanf(it_out(r), "%u.%u %d", &major, &minor, &inside) == 3);
	IT_CHECK(r, it_contains(it_out(r), "others=[]"));
	snprintf(host, sizeof host, "/etc/python%u.%u", major, minor);
	IT_CHECK(r, inside == (stat(host, &st) == 0 && S_ISDIR(st.st_mode)));
	sp_result_free(r);
	free(name);
}

static void test_layers_name_what_was_active(void **state)
{
	static const char *const required[] = {
		"user_namespace", "pid_namespace", "mount_namespace",
		"network_namespace", "ipc_namespace", "uts_namespace", "seccomp",
		"capabilities", "no_new_privs", "workdir_tmpfs",
	};
	char *name = it_name("layers");
	struct sp_result *r;

	(void)state;
	r = it_run("import os\n"
		   "print('uid', os.getuid(), 'gid', os.getgid())\n"
		   "print(open('/proc/self/status').read())\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		const struct sp_layer *l = it_layer(r, required[i]);
		if (!l || !l->active) {
			it_dump(r);
			fail_msg("layer %s is missing or not active", required[i]);
		}
	}
	/* optional layers are named either way, with their state */
	IT_CHECK(r, it_layer(r, "landlock") != NULL);
	IT_CHECK(r, it_layer(r, "cgroup") != NULL);
	IT_CHECK(r, it_layer(r, "rlimits") != NULL);
	/* and what the layers claim holds inside */
	IT_CHECK(r, it_contains(it_out(r), "uid 1000 gid 1000"));
	IT_CHECK(r, it_contains(it_out(r), "NoNewPrivs:\t1"));
	IT_CHECK(r, it_contains(it_out(r), "CapEff:\t0000000000000000"));
	IT_CHECK(r, it_contains(it_out(r), "CapBnd:\t0000000000000000"));
	IT_CHECK(r, it_contains(it_out(r), "CapAmb:\t0000000000000000"));
	IT_CHECK(r, it_contains(it_out(r), "Seccomp:\t2"));
	sp_result_free(r);
	free(name);
}

static void test_sandbox_runs_as_unprivileged_host_user(void **state)
{
	char *name = it_name("hostuid"), *code;
	struct sp_result *r;
	char want[64];

	(void)state;
	/* The program's uid map says which host uid it really is: never 0. */
	code = it_fmt("print('map', open('/proc/self/uid_map').read().split())\n"
		      "import os\n"
		      "print('sid', os.getsid(0))\n");
	r = it_run(code, name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	if (geteuid() == 0) {
		/* a uid of the run's own (test_run_uid.c), never root's */
		unsigned host;
		const char *map = strstr(it_out(r), "map ['1000', '");
		IT_CHECK(r, map && sscanf(map + 14, "%u'", &host) == 1 &&
			 host >= SP_ROOT_HOST_ID_FIRST &&
			 host - SP_ROOT_HOST_ID_FIRST < SP_ROOT_HOST_ID_COUNT);
		snprintf(want, sizeof want, "map ['1000', '%u', '1']", host);
	} else {
		snprintf(want, sizeof want, "map ['1000', '%u', '1']", (unsigned)geteuid());
	}
	IT_CHECK(r, it_contains(it_out(r), want));
	/* the sandbox's own session, init's (test_program_session_is_the_sandboxs) */
	IT_CHECK(r, it_contains(it_out(r), "sid 1\n"));
	sp_result_free(r);
	free(code);
	free(name);
}

/* The host application's signal state must not reach the program: it
 * starts with nothing blocked and nothing ignored but what Python and
 * the sandbox set themselves (SIGPIPE, SIGXFSZ). */
static void test_program_starts_with_default_signals(void **state)
{
	char *name = it_name("signals");
	struct sp_result *r;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_usr1;
	sigset_t usr2, old_mask;

	(void)state;
	sigaction(SIGUSR1, &ign, &old_usr1);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, &old_mask);
	r = it_run("status = dict(l.split(':\\t') for l in open('/proc/self/status').read().splitlines() if ':\\t' in l)\n"
		   "blk, ign = int(status['SigBlk'], 16), int(status['SigIgn'], 16)\n"
		   "print('blocked', blk, 'usr-ignored', ign & ((1 << 9) | (1 << 11)))\n",
		   name);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGUSR1, &old_usr1, NULL);

	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, strcmp(it_out(r), "blocked 0 usr-ignored 0\n") == 0);
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp_listener_on_host_loopback_sees_nothing),
		cmocka_unit_test(test_dns_lookups_fail),
		cmocka_unit_test(test_host_abstract_unix_socket_is_unreachable),
		cmocka_unit_test(test_host_files_are_invisible),
		cmocka_unit_test(test_writing_outside_the_work_dir_fails),
		cmocka_unit_test(test_second_run_does_not_see_the_first_runs_files),
		cmocka_unit_test(test_host_environment_does_not_leak_in),
		cmocka_unit_test(test_double_forked_daemon_leaves_nothing_behind),
		cmocka_unit_test(test_tiocsti_fails_on_every_fd),
		cmocka_unit_test(test_program_session_is_the_sandboxs),
		cmocka_unit_test(test_standard_library_works),
		cmocka_unit_test(test_etc_has_only_the_interpreters_python_dir),
		cmocka_unit_test(test_layers_name_what_was_active),
		cmocka_unit_test(test_sandbox_runs_as_unprivileged_host_user),
		cmocka_unit_test(test_program_starts_with_default_signals),
	};

	return cmocka_run_group_tests_name("integration/isolation", tests, NULL, NULL);
}
