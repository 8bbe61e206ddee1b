/* SPDX-License-Identifier: MIT */
/*
 * test_prepared_age.c - a prepared sandbox that waited a long time still
 * has every layer (issue 18): prepare, wait SANDPIT_PREPARED_AGE seconds
 * (default 5; CI runs it with 600 in the background), polling it as the
 * playground does, then release a program that checks each layer from
 * inside: no network, a read-only root, seccomp, Landlock, no new
 * privileges, the rlimits, and the CPU and wall limits counted from the
 * release.
 */
#include "prep.h"

#include <time.h>

static void test_an_old_prepared_sandbox_has_every_layer(void **state)
{
	static const char *const pre[] = { "numpy" };
	const char *env = getenv("SANDPIT_PREPARED_AGE");
	long age = env ? atol(env) : 5;
	char *name = it_name("age");
	struct sp_config cfg = it_config(
		"import os, socket, resource, ctypes\n"
		"bad = []\n"
		"try:\n"
		"    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"    s.settimeout(1)\n"
		"    s.connect(('1.1.1.1', 53))\n"
		"    bad.append('network')\n"
		"except OSError:\n"
		"    pass\n"
		"for p in ('/usr/sandpit-age', '/etc/sandpit-age', '/sandpit/x'):\n"
		"    try:\n"
		"        open(p, 'w')\n"
		"        bad.append('wrote ' + p)\n"
		"    except OSError:\n"
		"        pass\n"
		"st = open('/proc/self/status').read()\n"
		"if 'Seccomp:\\t2' not in st: bad.append('seccomp')\n"
		"if 'NoNewPrivs:\\t1' not in st: bad.append('no_new_privs')\n"
		"if 'CapEff:\\t0000000000000000' not in st: bad.append('caps')\n"
		"libc = ctypes.CDLL(None, use_errno=True)\n"
		"if libc.ptrace(16, 1, 0, 0) == 0: bad.append('ptrace')\n"
		"if resource.getrlimit(resource.RLIMIT_DATA)[0] != 256 << 20: bad.append('data')\n"
		"cpu = resource.getrlimit(resource.RLIMIT_CPU)\n"
		"used = resource.getrusage(resource.RUSAGE_SELF)\n"
		"used = used.ru_utime + used.ru_stime\n"
		"if not (cpu[0] <= used + 4 and cpu[1] == cpu[0] + 1): bad.append('cpu rlimit %r' % (cpu,))\n"
		"if os.getuid() == 0: bad.append('uid 0')\n"
		"print('BAD', bad)\n", name);
	struct sp_run *run;
	const struct sp_result *r;
	time_t until;

	(void)state;
	cfg.limits.memory_bytes = 256u << 20;
	cfg.limits.cpu_ms = 2000;
	cfg.limits.wall_ms = 3000;
	run = pt_prepare(&cfg.limits, pre, 1);
	fprintf(stderr, "prepared; waiting %ld s before the release\n", age);
	until = time(NULL) + age;
	while (time(NULL) < until) {
		struct pollfd p = { sp_run_fd(run), POLLIN, 0 };
		struct sp_event ev;
		poll(&p, 1, 1000);
		while (sp_run_next_event(run, &ev) > 0)
			fail_msg("an event of type %d while waiting prepared", (int)ev.type);
		assert_true(sp_run_ready(run));
	}
	pt_release_drive(run, &cfg);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "BAD []"));
	IT_CHECK(r, r->usage.wall_ms < 3000);
	IT_CHECK(r, r->usage.cpu_ms < 2000);
	/* the record of the layers: every one stood */
	{
		static const char *const need[] = {
			"user_namespace", "pid_namespace", "mount_namespace",
			"network_namespace", "seccomp", "capabilities", "no_new_privs",
			"rlimits", "workdir_tmpfs",
		};
		for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
			const struct sp_layer *l = it_layer(r, need[i]);
			IT_CHECK(r, l && l->active);
		}
	}
	/* Landlock wherever the host has it (doctor says) */
	{
		struct sp_layer host[SP_MAX_LAYERS];
		size_t n = sp_doctor(host, SP_MAX_LAYERS);
		for (size_t i = 0; i < n; i++)
			if (strcmp(host[i].name, "landlock") == 0 && host[i].active)
				IT_CHECK(r, it_layer(r, "landlock") && it_layer(r, "landlock")->active);
	}
	sp_run_free(run);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_an_old_prepared_sandbox_has_every_layer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
