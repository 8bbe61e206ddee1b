/* SPDX-License-Identifier: MIT */
/*
 * test_violations.c - every violation kind as a precise record (issue 4).
 *
 * Each program below makes one kind of attempt, once, from a known line,
 * and must leave exactly one record: its kind, `what` in the program's own
 * terms (a substring is checked), where it came from (kernel or runtime),
 * and the line. Limits leave their own records. Repeats merge into one
 * record with a count, and a clean program leaves none at all.
 */
#include "itest.h"
#include "sandbox.h" /* sp_seccomp_can_continue */

struct expect {
	enum sp_violation_kind kind;
	const char *what;       /* substring of `what`, or of the program's
				 * own context beside it (a DNS name) */
	int line;               /* 0: no line (limits) */
	bool kernel;
};

/* Run code and require exactly the one expected record. */
static void expect_one(const char *what, const char *code, const struct sp_limits *lim,
		       enum sp_status status, struct expect e)
{
	char *name = it_name(what);
	struct sp_config cfg = it_config(code, name);
	struct sp_result *r;
	const struct sp_violation *v;

	if (lim)
		cfg.limits = *lim;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == status);
	IT_CHECK(r, r->n_violations == 1);
	v = &r->violations[0];
	const char *ctx = r->violation_contexts ? r->violation_contexts[0] : NULL;
	IT_CHECK(r, v->kind == e.kind);
	IT_CHECK(r, it_contains(v->what, e.what) || (ctx && it_contains(ctx, e.what)));
	IT_CHECK(r, v->line == e.line);
	IT_CHECK(r, v->from_kernel == e.kernel);
	IT_CHECK(r, v->count == 1);
	/* a message that explains it, in words a person reads */
	IT_CHECK(r, v->message != NULL && strlen(v->message) > 40);
	sp_result_free(r);
	free(name);
}

static void test_tcp_connect(void **state)
{
	(void)state;
	expect_one("tcp",
		   "import socket\n"
		   "try:\n"
		   "    socket.create_connection(('93.184.216.34', 443), timeout=2)\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "socket(AF_INET, SOCK_STREAM)", 3, true });
	expect_one("tcp2",
		   "import socket\n"
		   "try:\n"
		   "    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "socket(AF_INET, SOCK_STREAM)", 3, true });
}

static void test_udp_send(void **state)
{
	(void)state;
	expect_one("udp",
		   "import socket\n"
		   "try:\n"
		   "    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('8.8.8.8', 53))\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "socket(AF_INET, SOCK_DGRAM)", 3, true });
	expect_one("udp6",
		   "import socket\n"
		   "try:\n"
		   "    socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "socket(AF_INET6, SOCK_DGRAM)", 3, true });
}

static void test_dns_lookup(void **state)
{
	(void)state;
	expect_one("dns",
		   "import socket\n"
		   "try:\n"
		   "    socket.getaddrinfo('example.com', 80)\n"
		   "except OSError as e:\n"
		   "    print('no dns', e)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "example.com", 3, true });
}

static void test_urllib_fetch(void **state)
{
	(void)state;
	expect_one("urllib",
		   "import urllib.request\n"
		   "\n"
		   "try:\n"
		   "    urllib.request.urlopen('http://example.com/data.csv', timeout=2)\n"
		   "except Exception as e:\n"
		   "    print('no fetch', type(e).__name__)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "example.com", 4, true });
}

static void test_raw_socket(void **state)
{
	(void)state;
	expect_one("raw",
		   "import socket\n"
		   "try:\n"
		   "    socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "socket(AF_INET, SOCK_RAW)", 3, true });
	expect_one("packet",
		   "import socket\n"
		   "try:\n"
		   "    socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 3)\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_NETWORK, "socket(AF_PACKET, SOCK_RAW)", 3, true });
}

static void test_read_etc_shadow(void **state)
{
	(void)state;
	expect_one("shadow",
		   "try:\n"
		   "    open('/etc/shadow').read()\n"
		   "except OSError as e:\n"
		   "    print('no', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_FILESYSTEM, "open('/etc/shadow', O_RDONLY)", 2, false });
}

static void test_list_home(void **state)
{
	(void)state;
	expect_one("home",
		   "import os\n"
		   "try:\n"
		   "    print(os.listdir('/home'))\n"
		   "except OSError as e:\n"
		   "    print('no', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_FILESYSTEM, "/home", 3, false });
}

static void test_write_usr_lib(void **state)
{
	(void)state;
	expect_one("usrlib",
		   "try:\n"
		   "    with open('/usr/lib/x', 'w') as f:\n"
		   "        f.write('x')\n"
		   "except OSError as e:\n"
		   "    print('no', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_FILESYSTEM, "open('/usr/lib/x', O_WRONLY)", 2, false });
}

static void test_ptrace(void **state)
{
	(void)state;
	expect_one("ptrace",
		   "import ctypes\n"
		   "libc = ctypes.CDLL(None, use_errno=True)\n"
		   "rc = libc.ptrace(16, 1, 0, 0)\n"
		   "print('ptrace', rc, ctypes.get_errno())\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_SYSCALL, "ptrace(PTRACE_ATTACH, 1)", 3, true });
}

static void test_mount(void **state)
{
	(void)state;
	expect_one("mount",
		   "import ctypes\n"
		   "libc = ctypes.CDLL(None, use_errno=True)\n"
		   "rc = libc.mount(b'none', b'/mnt', b'tmpfs', 0, None)\n"
		   "print('mount', rc, ctypes.get_errno())\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_SYSCALL, "mount(\"none\", \"/mnt\")", 3, true });
}

static void test_unshare(void **state)
{
	(void)state;
	/* os.unshare needs Python 3.12; libc's works everywhere */
	expect_one("unshare",
		   "import ctypes\n"
		   "libc = ctypes.CDLL(None, use_errno=True)\n"
		   "rc = libc.unshare(0x10000000)\n"
		   "print('unshare', rc, ctypes.get_errno())\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_SYSCALL, "unshare(CLONE_NEWUSER)", 3, true });
}

static void test_io_uring_setup(void **state)
{
	(void)state;
	/* 425 is io_uring_setup on every architecture (the unified table) */
	expect_one("iouring",
		   "import ctypes\n"
		   "libc = ctypes.CDLL(None, use_errno=True)\n"
		   "params = ctypes.create_string_buffer(256)\n"
		   "rc = libc.syscall(425, 8, params)\n"
		   "print('io_uring_setup', rc, ctypes.get_errno())\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_SYSCALL, "io_uring_setup()", 4, true });
}

static void test_tiocsti(void **state)
{
	(void)state;
	expect_one("tiocsti",
		   "import fcntl, termios\n"
		   "try:\n"
		   "    fcntl.ioctl(0, termios.TIOCSTI, b'x')\n"
		   "except OSError as e:\n"
		   "    print('no', e.errno)\n",
		   NULL, SP_STATUS_OK,
		   (struct expect){ SP_VIOL_SYSCALL, "ioctl(TIOCSTI)", 3, true });
}

/* ---- the limits, each with its record ---- */

static void test_cpu_limit_record(void **state)
{
	struct sp_limits l;

	(void)state;
	sp_limits_default(&l);
	l.cpu_ms = 700;
	l.wall_ms = 30000;
	expect_one("vcpu", "while True:\n    pass\n", &l, SP_STATUS_CPU_LIMIT,
		   (struct expect){ SP_VIOL_CPU, "of 0.70 s", 0, true });
}

static void test_wall_limit_record(void **state)
{
	struct sp_limits l;

	(void)state;
	sp_limits_default(&l);
	l.wall_ms = 700;
	expect_one("vwall", "import time\ntime.sleep(100)\n", &l, SP_STATUS_WALL_LIMIT,
		   (struct expect){ SP_VIOL_WALL, "over 0.70 s", 0, true });
}

static void test_memory_limit_record(void **state)
{
	struct sp_limits l;

	(void)state;
	sp_limits_default(&l);
	l.memory_bytes = 64ull << 20;
	/* RLIMIT_DATA refuses the allocation; the supervisor saw the call
	 * go by (seccomp, the process's VmData): kernel, with the line the
	 * prelude's report of the MemoryError lends it */
	expect_one("vmem", "a = 1\nb = bytearray(1 << 30)\n", &l, SP_STATUS_MEMORY_LIMIT,
		   (struct expect){ SP_VIOL_MEMORY, "limit of 64 MiB", 2, sp_seccomp_can_continue() });
}

static void test_output_limit_record(void **state)
{
	struct sp_limits l;

	(void)state;
	sp_limits_default(&l);
	l.output_bytes = 4096;
	expect_one("vout", "while True:\n    print('y' * 100)\n", &l, SP_STATUS_OUTPUT_LIMIT,
		   (struct expect){ SP_VIOL_OUTPUT, "over 4 KiB", 0, true });
}

static void test_disk_limit_record(void **state)
{
	char *name = it_name("vdisk");
	struct sp_config cfg = it_config("with open('f', 'wb') as f:\n"
					 "    f.write(b'z' * (4 << 20))\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	cfg.limits.disk_bytes = 1ull << 20;
	r = it_run_cfg(&cfg);
	/* the write fails uncaught: an error, and one disk record, at line 2 */
	IT_CHECK(r, r->status == SP_STATUS_ERROR);
	IT_CHECK(r, r->n_violations == 1);
	v = it_viol(r, SP_VIOL_DISK, NULL);
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, it_contains(v->what, "1 MiB"));
	IT_CHECK(r, v->line == 2);
	sp_result_free(r);
	free(name);
}

static void test_process_limit_record(void **state)
{
	char *name = it_name("vprocs");
	struct sp_config cfg = it_config(
		"import threading, time\n"
		"ts = []\n"
		"try:\n"
		"    while True:\n"
		"        t = threading.Thread(target=time.sleep, args=(30,), daemon=True)\n"
		"        t.start()\n"
		"        ts.append(t)\n"
		"except RuntimeError as e:\n"
		"    print('thread failed after', len(ts))\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	cfg.limits.procs = 8;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "thread failed after"));
	IT_CHECK(r, r->n_violations == 1);
	v = it_viol(r, SP_VIOL_PROCESS, NULL);
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, it_contains(v->what, "8"));
	sp_result_free(r);
	free(name);
}

/*
 * The program can send any report on its channel and can make files look
 * big. Made-up reports of the memory, disk and process limits, and a sparse
 * file as big as the disk limit, must never give a kernel record.
 */
static void test_made_up_limit_reports_make_no_kernel_record(void **state)
{
	static const struct { const char *k; enum sp_violation_kind kind; } fakes[] = {
		{ "memory", SP_VIOL_MEMORY }, { "disk", SP_VIOL_DISK }, { "process", SP_VIOL_PROCESS },
	};
	char code[512];

	(void)state;
	for (size_t f = 0; f < sizeof fakes / sizeof fakes[0]; f++) {
		char *name = it_name(fakes[f].k);
		struct sp_config cfg;
		struct sp_result *r;

		snprintf(code, sizeof code,
			 "import os\n"
			 "with open('sparse', 'wb') as f:\n"
			 "    f.truncate(1 << 20)\n"
			 "os.write(3, b'{\"t\": \"exc\", \"k\": \"%s\", \"line\": 4}\\n')\n"
			 "print('fine')\n", fakes[f].k);
		cfg = it_config(code, name);
		cfg.limits.disk_bytes = 1ull << 20;
		r = it_run_cfg(&cfg);
		IT_CHECK(r, it_contains(it_out(r), "fine"));
		IT_CHECK(r, r->status == SP_STATUS_OK);  /* it ended well: no limit */
		IT_CHECK(r, r->n_files == 1 && r->files[0].bytes == 1ull << 20);
		/* the made-up report is kept, as what it is */
		IT_CHECK(r, r->n_violations == 1);
		IT_CHECK(r, r->violations[0].kind == fakes[f].kind);
		IT_CHECK(r, !r->violations[0].from_kernel);
		IT_CHECK(r, r->violations[0].line == 4);
		sp_result_free(r);
		free(name);
	}
}

/* ---- merging ---- */

static void test_hundred_thousand_denied_calls_merge_into_one_record(void **state)
{
	char *name = it_name("many");
	struct sp_config cfg = it_config(
		"import socket\n"
		"denied = 0\n"
		"for i in range(100000):\n"
		"    try:\n"
		"        socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"    except OSError:\n"
		"        denied += 1\n"
		"print('denied', denied)\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	cfg.limits.cpu_ms = 60000;
	cfg.limits.wall_ms = 120000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "denied 100000"));
	IT_CHECK(r, r->n_violations == 1);
	v = &r->violations[0];
	IT_CHECK(r, v->kind == SP_VIOL_NETWORK);
	IT_CHECK(r, v->count == 100000);
	IT_CHECK(r, v->line == 5);
	sp_result_free(r);
	free(name);
}

/* The same denied call from the same line, through ctypes: one record. */
static void test_repeated_ctypes_calls_merge_into_one_record(void **state)
{
	char *name = it_name("manyptrace");
	struct sp_config cfg = it_config(
		"import ctypes\n"
		"libc = ctypes.CDLL(None, use_errno=True)\n"
		"n = 0\n"
		"for i in range(1000):\n"
		"    n += libc.ptrace(16, 1, 0, 0) != 0\n"
		"print('denied', n)\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "denied 1000"));
	IT_CHECK(r, r->n_violations == 1);
	v = &r->violations[0];
	IT_CHECK(r, v->kind == SP_VIOL_SYSCALL);
	IT_CHECK(r, it_contains(v->what, "ptrace(PTRACE_ATTACH, 1)"));
	IT_CHECK(r, v->count == 1000);
	IT_CHECK(r, v->line == 5);
	sp_result_free(r);
	free(name);
}

/*
 * The program owns its channel, so it can send made-up runtime reports. A
 * flood of distinct ones, or of distinct denied calls, must not push a
 * real record of another kind or source off the list: each group keeps a
 * bounded number, the rest counted in one overflow record.
 */
static void test_a_flood_of_records_hides_no_later_violation(void **state)
{
	char *name = it_name("hide");
	struct sp_config cfg = it_config(
		"import os, socket\n"
		"for i in range(600):\n"
		"    os.write(3, b'{\"t\": \"ev\", \"k\": \"network\", \"what\": \"fake%d\", \"line\": %d}\\n' % (i, i + 1))\n"
		"for i in range(100):\n"
		"    try:\n"
		"        open('/etc/nothere%d' % i)\n"
		"    except OSError:\n"
		"        pass\n"
		"try:\n"
		"    socket.create_connection(('10.1.2.3', 80), timeout=1)\n"
		"except OSError as e:\n"
		"    print('refused', e.errno)\n", name);
	struct sp_result *r;
	size_t runtime_net = 0, overflow = 0, kernel_net = 0;
	unsigned counted = 0;

	(void)state;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "refused"));
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		if (v->kind == SP_VIOL_NETWORK && v->from_kernel) {
			kernel_net++;
			/* the prelude's words beside the kernel's (test_findings.c) */
			const char *ctx = r->violation_contexts ? r->violation_contexts[i] : NULL;
			IT_CHECK(r, ctx && it_contains(ctx, "connect() to 10.1.2.3:80"));
			IT_CHECK(r, v->line == 10);
		} else if (v->kind == SP_VIOL_NETWORK) {
			runtime_net++;
			counted += v->count;
			if (it_contains(v->what, "the rest are counted here"))
				overflow++;
		}
	}
	IT_CHECK(r, kernel_net == 1);
	IT_CHECK(r, overflow == 1);
	IT_CHECK(r, runtime_net <= 32);
	/* every made-up report is counted somewhere (the prelude's own report
	 * of the real connect may add one) */
	IT_CHECK(r, counted >= 600);
	sp_result_free(r);
	free(name);
}

/*
 * A runtime record always has a program line. Reports on the channel with
 * no line, null, 0, a negative one, one beyond an int (2**40 once became
 * 0 and 2**32 + 1 became 1 through an (int) cast) or not a number: before
 * the prelude has reported any line they are dropped, counted in one note;
 * after, they take the last line it reported.
 */
static void test_a_runtime_record_always_has_a_line(void **state)
{
	char *name = it_name("lineless");
	struct sp_config cfg = it_config(
		"import os\n"
		"bad = [b'', b', \"line\": null', b', \"line\": 0', b', \"line\": -5',\n"
		"       b', \"line\": 1099511627776', b', \"line\": 4294967297', b', \"line\": \"7\"',\n"
		"       b', \"line\": 2.5']\n"
		"def send(tag, extra):\n"
		"    os.write(3, b'{\"t\": \"ev\", \"k\": \"network\", \"what\": \"%s\"%s}\\n' % (tag, extra))\n"
		"for i, b in enumerate(bad):\n"
		"    send(b'before%d' % i, b)\n"
		"send(b'anchor', b', \"line\": 1234')\n"
		"for i, b in enumerate(bad):\n"
		"    send(b'after%d' % i, b)\n", name);
	struct sp_result *r;
	const struct sp_violation *note;

	(void)state;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		IT_CHECK(r, v->from_kernel || v->line > 0);
		IT_CHECK(r, !it_contains(v->what, "before"));
		if (it_contains(v->what, "after") || it_contains(v->what, "anchor"))
			IT_CHECK(r, v->line == 1234);
	}
	for (int i = 0; i < 8; i++) {
		char what[16];
		snprintf(what, sizeof what, "after%d", i);
		IT_CHECK(r, it_viol(r, SP_VIOL_NETWORK, what) != NULL);
	}
	note = it_viol(r, SP_VIOL_CARRY, "without a program line");
	IT_CHECK(r, note != NULL && note->count == 8);
	sp_result_free(r);
	free(name);
}

/* ---- no false positives ---- */

/*
 * Making a link in the work dir is allowed whatever it points at; only
 * following it out is denied (by the kernel). A link made where the
 * program may not write is still a record, and so is copying a host file.
 */
static void test_making_a_link_to_anywhere_is_no_violation(void **state)
{
	char *name = it_name("links");
	struct sp_result *r;

	(void)state;
	r = it_run("import os, shutil\n"
		   "os.symlink('/usr/bin/sleep', 'x')\n"
		   "os.symlink('/etc/shadow', '/work/y')\n"
		   "os.symlink('/home/alice/.ssh/id_rsa', '/tmp/z')\n"
		   "os.link('x', 'x2', follow_symlinks=False)\n"
		   "os.rename('x2', 'x3')\n"
		   "print(os.readlink('x'), os.readlink('y'))\n"
		   "try:\n"
		   "    os.symlink('/work/x', '/usr/evil')\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n"
		   "try:\n"
		   "    shutil.copyfile('/srv/secret', 'mine')\n"
		   "except OSError as e:\n"
		   "    print('refused', e.errno)\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "/usr/bin/sleep /etc/shadow"));
	IT_CHECK(r, !it_viol(r, SP_VIOL_FILESYSTEM, "/usr/bin/sleep"));
	IT_CHECK(r, !it_viol(r, SP_VIOL_FILESYSTEM, "/etc/shadow"));
	IT_CHECK(r, !it_viol(r, SP_VIOL_FILESYSTEM, "id_rsa"));
	IT_CHECK(r, !it_viol(r, SP_VIOL_FILESYSTEM, "x2"));
	IT_CHECK(r, it_viol(r, SP_VIOL_FILESYSTEM, "symlink('/usr/evil')") != NULL);
	IT_CHECK(r, it_viol(r, SP_VIOL_FILESYSTEM, "copyfile('/srv/secret')") != NULL);
	IT_CHECK(r, r->n_violations == 2);
	sp_result_free(r);
	free(name);
}

static void test_clean_program_reports_no_violation(void **state)
{
	char *name = it_name("clean");
	struct sp_result *r;

	(void)state;
	r = it_run("import json, math, os, re, csv, io, random, statistics, datetime\n"
		   "import collections, itertools, functools, decimal, fractions, tempfile\n"
		   "import sqlite3, hashlib, threading, subprocess, locale, time\n"
		   "xs = [math.sin(i) ** 2 + math.cos(i) ** 2 for i in range(1000)]\n"
		   "assert abs(sum(xs) - 1000) < 1e-9\n"
		   "data = json.loads(json.dumps({'a': [1, 2, 3], 'b': 'text'}))\n"
		   "with open('/work/out.json', 'w') as f:\n"
		   "    json.dump(data, f)\n"
		   "with open('out.json') as f:\n"
		   "    assert json.load(f) == data\n"
		   "fd, path = tempfile.mkstemp()\n"
		   "os.write(fd, b'tmp')\n"
		   "os.close(fd)\n"
		   "print(sorted(os.listdir('.')))\n"
		   "print(open('/etc/passwd').read().count(':') > 0)\n"
		   "print(len(os.urandom(8)), random.random() < 1)\n"
		   "print(datetime.date(2024, 1, 1).isoformat())\n"
		   "t = threading.Thread(target=lambda: None)\n"
		   "t.start(); t.join()\n"
		   "out = subprocess.run(['/usr/bin/python3', '-c', 'print(6 * 7)'],\n"
		   "                     capture_output=True, text=True).stdout\n"
		   "print('child says', out.strip())\n"
		   "print(hashlib.sha256(b'x').hexdigest()[:8], statistics.median([3, 1, 2]))\n",
		   name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "child says 42"));
	IT_CHECK(r, it_has_file(r, "out.json"));
	IT_CHECK(r, r->n_violations == 0);
	sp_result_free(r);
	free(name);
}

static void test_empty_program_reports_no_violation(void **state)
{
	char *name = it_name("empty");
	struct sp_result *r;

	(void)state;
	r = it_run("", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->exit_code == 0);
	IT_CHECK(r, r->n_violations == 0);
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp_connect),
		cmocka_unit_test(test_udp_send),
		cmocka_unit_test(test_dns_lookup),
		cmocka_unit_test(test_urllib_fetch),
		cmocka_unit_test(test_raw_socket),
		cmocka_unit_test(test_read_etc_shadow),
		cmocka_unit_test(test_list_home),
		cmocka_unit_test(test_write_usr_lib),
		cmocka_unit_test(test_ptrace),
		cmocka_unit_test(test_mount),
		cmocka_unit_test(test_unshare),
		cmocka_unit_test(test_io_uring_setup),
		cmocka_unit_test(test_tiocsti),
		cmocka_unit_test(test_cpu_limit_record),
		cmocka_unit_test(test_wall_limit_record),
		cmocka_unit_test(test_memory_limit_record),
		cmocka_unit_test(test_output_limit_record),
		cmocka_unit_test(test_disk_limit_record),
		cmocka_unit_test(test_process_limit_record),
		cmocka_unit_test(test_made_up_limit_reports_make_no_kernel_record),
		cmocka_unit_test(test_hundred_thousand_denied_calls_merge_into_one_record),
		cmocka_unit_test(test_repeated_ctypes_calls_merge_into_one_record),
		cmocka_unit_test(test_a_flood_of_records_hides_no_later_violation),
		cmocka_unit_test(test_a_runtime_record_always_has_a_line),
		cmocka_unit_test(test_making_a_link_to_anywhere_is_no_violation),
		cmocka_unit_test(test_clean_program_reports_no_violation),
		cmocka_unit_test(test_empty_program_reports_no_violation),
	};

	return cmocka_run_group_tests_name("integration/violations", tests, NULL, NULL);
}
