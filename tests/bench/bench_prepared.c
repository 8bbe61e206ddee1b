/* SPDX-License-Identifier: MIT */
/*
 * bench_prepared.c - the engine's rows for prepared runs (issue 18),
 * included by bench.c (its helpers: run_cmd's style, row, median, note).
 *
 *   prepared: release to first stdout byte of print('hi'), against the
 *     same program's first byte from a cold `sandpit run` and from bare
 *     python3 (fork to first byte), interleaved;
 *   prepared + preloaded numpy, pandas, matplotlib.pyplot: release to
 *     the first byte of a program that imports them and prints, against
 *     bare python3 doing the same.
 * The sandbox is prepared (untimed) before each timed release, never
 * while one is measured.
 */

/* fork + exec argv; ms from fork to the first byte on its stdout (NAN if
 * none), the rest drained; *ok when it exited 0. */
static double first_byte_cmd(char *const argv[], bool *ok)
{
	int p[2], status = 0;
	pid_t pid;
	char buf[4096];
	double t0, first = NAN;

	if (pipe2(p, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	t0 = now_ms();
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(p[1], 1);
		dup2(null, 2);
		if (chdir(tmpdir) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	for (;;) {
		ssize_t n = read(p[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0 && isnan(first))
			first = now_ms() - t0;
		if (n <= 0)
			break;
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	return first;
}

/* A ready prepared sandbox with the default limits, or NULL (noted). */
static struct sp_run *bench_prepare(const char *const *pre, size_t n)
{
	struct sp_prepare p;
	struct sp_run *run;
	struct sp_error err = { "" };
	struct sp_event ev;

	memset(&p, 0, sizeof p);
	sp_limits_default(&p.limits);
	p.preload = pre;
	p.n_preload = n;
	if (sp_run_prepare(&p, &run, &err) < 0) {
		note("could not prepare a sandbox: %s", err.msg);
		return NULL;
	}
	while (!sp_run_ready(run) && !sp_run_finished(run)) {
		struct pollfd pfd = { sp_run_fd(run), POLLIN, 0 };
		poll(&pfd, 1, sp_run_timeout_ms(run));
		while (sp_run_next_event(run, &ev) > 0)
			;
	}
	if (!sp_run_ready(run)) {
		note("preparing failed: %s", sp_run_result(run) ? sp_run_result(run)->error : "?");
		sp_run_free(run);
		return NULL;
	}
	return run;
}

/* Release run with code; ms from the call to the first STDOUT event (NAN
 * if none); the run is driven to its end and freed; *ok if status ok. */
static double release_first_byte(struct sp_run *run, const char *code, bool *ok)
{
	struct sp_config cfg;
	struct sp_error err = { "" };
	struct sp_event ev;
	double t0, first = NAN;

	sp_config_init(&cfg);
	cfg.code = code;
	cfg.code_len = strlen(code);
	t0 = now_ms();
	if (sp_run_release(run, &cfg, &err) < 0) {
		note("release failed: %s", err.msg);
		sp_run_free(run);
		*ok = false;
		return NAN;
	}
	while (!sp_run_finished(run)) {
		struct pollfd pfd = { sp_run_fd(run), POLLIN, 0 };
		int t = isnan(first) ? 0 : sp_run_timeout_ms(run);
		/* until the first byte: spin on the fd, as a waiting loop would wake */
		if (t != 0)
			poll(&pfd, 1, t);
		else if (isnan(first))
			poll(&pfd, 1, 1000);
		while (sp_run_next_event(run, &ev) > 0)
			if (ev.type == SP_EVENT_STDOUT && isnan(first))
				first = now_ms() - t0;
	}
	*ok = sp_run_result(run)->status == SP_STATUS_OK;
	sp_run_free(run);
	return first;
}

static void row_prepared_hi(void)
{
	static const char code[] = "print('hi')\n";
	char path[512], meas[64], against[96];
	char *sp_argv[] = { (char *)sandpit_bin, "run", path, NULL };
	char *bare_argv[] = { PYTHON, "-I", "-u", "-B", path, NULL };
	double *a = calloc((size_t)runs, sizeof *a), *b = calloc((size_t)runs, sizeof *b),
	       *c = calloc((size_t)runs, sizeof *c);
	double pa, cb, bc;
	bool ok = true, one;
	struct sp_run *run;

	write_program("hi.py", code);
	path_in_tmp(path, sizeof path, "hi.py");
	/* warm-up each way */
	run = bench_prepare(NULL, 0);
	if (!run) {
		row("prepared: release to 1st byte", "not measured", "", "<= 1 ms, <= 0.2 bare", 0);
		goto out;
	}
	release_first_byte(run, code, &one);
	first_byte_cmd(sp_argv, &one);
	first_byte_cmd(bare_argv, &one);
	for (int i = 0; i < runs && ok; i++) {
		run = bench_prepare(NULL, 0);
		ok = run != NULL;
		if (!ok)
			break;
		a[i] = release_first_byte(run, code, &one);
		ok = one && !isnan(a[i]);
		b[i] = first_byte_cmd(sp_argv, &one);
		ok = ok && one;
		c[i] = first_byte_cmd(bare_argv, &one);
	}
	if (!ok) {
		row("prepared: release to 1st byte", "failed", "", "<= 1 ms, <= 0.2 bare", 0);
		goto out;
	}
	{
		struct ratio r = ratio_of(a, c, runs);
		pa = median(a, runs);
		cb = median(b, runs);
		bc = median(c, runs);
		snprintf(meas, sizeof meas, "%.2f ms, bare x%.3f (%.3f-%.3f)", pa, r.med, r.lo,
			 r.hi);
	}
	snprintf(against, sizeof against, "cold sandpit run %.1f ms; bare %.1f ms", cb, bc);
	row("prepared: release to 1st byte", meas, against, "<= 1 ms, <= 0.2 bare",
	    pa <= 1.0 && pa <= 0.2 * bc ? 1 : 0);
out:
	free(a); free(b); free(c);
}

static void row_prepared_preload(void)
{
	static const char *const pre[] = { "numpy", "pandas", "matplotlib.pyplot" };
	static const char code[] = "import numpy, pandas, matplotlib.pyplot\nprint('hi')\n";
	const char *what = "prepared+preload: numpy,pd,plt";
	char path[512], meas[64], against[96];
	char *check[] = { PYTHON, "-I", "-c", "import numpy, pandas, matplotlib.pyplot", NULL };
	char *bare_argv[] = { PYTHON, "-I", "-u", "-B", path, NULL };
	int n = runs < 11 ? runs : 11;   /* each preparation costs ~0.5 s */
	double *a = calloc((size_t)n, sizeof *a), *b = calloc((size_t)n, sizeof *b);
	double pa, bb;
	bool ok = true, one;
	struct sp_run *run;

	first_byte_cmd(check, &one);
	if (!one) {
		row(what, "not measured", "bare", "<= 0.05 bare", -1);
		note("numpy, pandas or matplotlib is not installed for %s", PYTHON);
		goto out;
	}
	write_program("import_three.py", code);
	path_in_tmp(path, sizeof path, "import_three.py");
	first_byte_cmd(bare_argv, &one);
	for (int i = 0; i < n && ok; i++) {
		run = bench_prepare(pre, 3);
		ok = run != NULL;
		if (!ok)
			break;
		a[i] = release_first_byte(run, code, &one);
		ok = one && !isnan(a[i]);
		b[i] = first_byte_cmd(bare_argv, &one);
	}
	if (!ok) {
		row(what, "failed", "", "<= 0.05 bare", 0);
		goto out;
	}
	{
		struct ratio r = ratio_of(a, b, n);
		pa = median(a, n);
		bb = median(b, n);
		snprintf(meas, sizeof meas, "%.2f ms, bare x%.3f (%.3f-%.3f)", pa, r.med, r.lo,
			 r.hi);
	}
	snprintf(against, sizeof against, "bare python3 %.1f ms (%d runs)", bb, n);
	row(what, meas, against, "<= 0.05 bare", pa <= 0.05 * bb ? 1 : 0);
out:
	free(a); free(b);
}
