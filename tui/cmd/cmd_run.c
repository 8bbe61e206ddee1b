/* SPDX-License-Identifier: MIT */
/*
 * cmd_run.c - `sandpit run`: one program, headless. A thin loop over the
 * run API: stream output as it comes (human mode) or collect it into the
 * JSON result (--json); violations and a one-line summary follow.
 *
 * Exit status: the program's own on a normal exit; 128 + N when a signal
 * N it did not get from a limit killed it; 124 when a limit stopped it;
 * 125 when the sandbox itself failed; 2 for bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>

#include "sandpit.h"
#include "cmd/commands.h"
#include "config/limit_fields.h"
#include "cmd/options.h"
#include "text/sanitize.h"
#include "cmd/run_term.h"
#include "text/fileio.h"
#include "banned.h"

#define MAX_PROGRAM (16u << 20)
#define MAX_STDIN (64u << 20)
#define OPT_VAL 256 /* getopt val of options[0] */

static volatile sig_atomic_t cancel_requested;
static struct sp_run *volatile current_run; /* for the handler */

static void on_signal(int sig)
{
	(void)sig;
	cancel_requested = 1;
	if (current_run)
		sp_run_interrupt(current_run);
}

void print_usage(void)
{
	struct sp_limits l;

	sp_limits_default(&l);
	printf("usage: sandpit [OPTIONS] [FILE]                     open the playground\n"
	       "       sandpit run [OPTIONS] FILE|-                run a program once, headless\n"
	       "       sandpit run --batch [--jobs N] [OPTIONS]    JSON requests on stdin, one result a line\n"
	       "       sandpit mcp [OPTIONS]                       an MCP server for AI assistants (--help)\n"
	       "       sandpit doctor                              show this host's isolation layers\n"
	       "       sandpit learn [--lessons DIR] [OPTIONS]     the playground on the lessons\n"
	       "       sandpit learn --reset | --list | --verify   forget progress; list the lessons;\n"
	       "                                                   run each start and solution\n"
	       "       sandpit learn --check LESSON FILE           judge a program against a lesson\n"
	       "       sandpit view IMAGE                          show a PNG or JPEG in the terminal\n"
	       "       sandpit --help | --version\n"
	       "\n"
	       "run options (defaults in brackets):\n");
	option_print_help(stdout, OPT_RUN, &l);
	printf(	       "SIZE takes K, M, G suffixes. Exit status: the program's own; 128+N when\n"
	       "signal N killed it; 124 when a limit stopped it; 125 when the sandbox\n"
	       "failed; 130 when cancelled (SIGINT/SIGTERM); 2 for bad usage.\n"
	       "\n");
	option_print_playground(stdout);
	printf("  config file: $XDG_CONFIG_HOME/sandpit/config; see man sandpit\n");
}

/* --json is on: a refusal is one JSON object on stdout as well */
static bool json_refusals;

/* Is arg --json, or a prefix getopt takes for it? Seen before parsing, so
 * that a refusal of an earlier option is JSON too. */
static bool is_json_flag(const char *arg)
{
	size_t n = strlen(arg);
	return n >= 4 && strncmp(arg, "--json", n) == 0;
}

/* The message as JSON text: a file name that is not UTF-8 is shown
 * with '?' for its bad bytes (a refusal names, it does not carry bytes). */
static void print_json_refusal(const char *msg)
{
	json_t *o = json_object(), *m = json_string(msg);
	char *text;

	if (!m) {
		char *clean = strdup(msg);
		for (char *p = clean; p && *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		m = clean ? json_string(clean) : NULL;
		free(clean);
	}
	json_object_set_new(o, "status", json_string("refused"));
	json_object_set_new(o, "message", m ? m : json_string("refused"));
	text = json_dumps(o, JSON_INDENT(2));
	if (text)
		puts(text);
	free(text);
	json_decref(o);
}

/*
 * Refuse to run: the message on stderr (with the pointer to --help for bad
 * usage) and, under --json, as {"status": "refused", "message": ...} on
 * stdout, so a wrapper always has one object to parse. Exit status 2.
 */
__attribute__((format(printf, 2, 3)))
static int refuse(bool usage, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "sandpit run: %s\n%s", msg, usage ? "(see 'sandpit --help')\n" : "");
	if (json_refusals)
		print_json_refusal(msg);
	return 2;
}

#define usage_error(...) refuse(true, __VA_ARGS__)

/*
 * Read a whole input file, at most max bytes (fileio.c: a named file must
 * be a regular file, since a FIFO would block us for ever and /dev/zero
 * never end). "-" is our stdin, which may be a pipe; the cap bounds it.
 * Errors name the file, never its bytes.
 */
static char *slurp(const char *what, const char *path, size_t max, size_t *len)
{
	bool is_stdin = strcmp(path, "-") == 0;
	struct fio_error e;
	char *buf = is_stdin ? fio_read_fd(0, path, max, FIO_ANY_TYPE, len, &e)
			     : fio_read(path, max, 0, len, &e);
	char size[32];

	if (buf)
		return buf;
	switch (e.kind) {
	case FIO_OPEN:
		refuse(false, "cannot open %s '%s': %s", what, path, strerror(e.err));
		break;
	case FIO_NOT_REGULAR:
		refuse(false, "%s '%s' is %s; give a regular file (or - for sandpit's own stdin)",
		       what, path, fio_type_name(e.mode));
		break;
	case FIO_TOO_BIG:
		sp_format_bytes(max, size, sizeof size);
		if (!strcmp(what, "carry file"))
			refuse(false, "--carry '%s': the carry buffer is over its limit of %s "
			       "(--carry-max raises it)", path, size);
		else
			refuse(false, "%s '%s' is over %s", what, path, size);
		break;
	default:
		refuse(false, "cannot read %s '%s': %s", what, path, strerror(e.err));
		break;
	}
	return NULL;
}

/* The carry-out file, replaced atomically and durably (fileio.c). */
static int write_carry_out(const char *path, const char *json)
{
	char err[1200];
	char *text = NULL;
	int n = asprintf(&text, "%s\n", json ? json : "{}");

	if (n < 0) {
		fprintf(stderr, "sandpit run: cannot write --carry-out '%s': out of memory\n", path);
		return -1;
	}
	if (fio_replace(path, text, (size_t)n, 0666 & ~fio_umask(), err, sizeof err) < 0) {
		fprintf(stderr, "sandpit run: cannot write --carry-out '%s': %s\n", path,
			strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	return 0;
}

/* The program's bytes as they are, to a pipe or a file beside a terminal
 * (the other stream); a reader gone drops the rest, as forward does. */
static void put_raw(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		data += w;
		len -= (size_t)w;
	}
}

/*
 * Print text the program had a hand in (a violation's text, a file name)
 * on one line of sandpit's own summary: sanitized, with line breaks shown
 * as ^J, so a file name cannot forge a summary line or drive the terminal.
 * The program's own output goes to a pipe or a file as it is, like cat,
 * and to a terminal cleaned (run_term.h).
 */
static void put_clean(const char *text)
{
	char *clean = sanitize_dup(text, true);

	if (clean)
		fputs(clean, stderr);
	free(clean);
}

/* Files left, and with --keep where they went or why not. */
static void print_files(const struct sp_result *r, const char *keep_dir)
{
	size_t kept = 0, shown = 0;

	if (r->n_files == 0)
		return;
	if (!keep_dir) {
		fprintf(stderr, "sandpit: files left in the work dir (now gone):");
		for (size_t i = 0; i < r->n_files && i < 20; i++) {
			fputc(' ', stderr);
			put_clean(r->files[i].path);
			char size[32];
			sp_format_bytes(r->files[i].bytes, size, sizeof size);
			fprintf(stderr, " (%s)", size);
		}
		if (r->n_files > 20)
			fprintf(stderr, " and %zu more", r->n_files - 20);
		fprintf(stderr, "\n");
		return;
	}
	for (size_t i = 0; i < r->n_files; i++)
		kept += r->files[i].kept != NULL;
	fprintf(stderr, "sandpit: kept %zu of %zu files in ", kept, r->n_files);
	put_clean(keep_dir);
	fprintf(stderr, " (the work dir itself is gone):");
	for (size_t i = 0; i < r->n_files && shown < 20; i++) {
		if (!r->files[i].kept)
			continue;
		fputc(' ', stderr);
		put_clean(r->files[i].path);
		char size[32];
		sp_format_bytes(r->files[i].bytes, size, sizeof size);
		fprintf(stderr, " (%s)", size);
		shown++;
	}
	if (kept > shown)
		fprintf(stderr, " and %zu more", kept - shown);
	fprintf(stderr, "\n");
	shown = 0;
	for (size_t i = 0; i < r->n_files; i++) {
		if (r->files[i].kept)
			continue;
		if (shown++ == 20) {
			fprintf(stderr, "sandpit: and %zu more not kept\n", r->n_files - kept - 20);
			break;
		}
		fprintf(stderr, "sandpit: not kept: ");
		put_clean(r->files[i].path);
		fprintf(stderr, " (%s)\n", r->files[i].skipped ? r->files[i].skipped : "?");
	}
}

static void print_human_tail(const struct sp_result *r, const char *keep_dir)
{
	/* output cut at the limit ends mid-line: the summary starts a new one */
	if (r->truncated)
		fputc('\n', stderr);
	/* right under the traceback they explain */
	for (size_t i = 0; i < r->n_hints; i++) {
		const struct sp_hint *h = &r->hints[i];
		char line[32] = "";
		if (h->line > 0)
			snprintf(line, sizeof line, " at line %d", h->line);
		fprintf(stderr, "sandpit: hint [%s]%s: ", h->about, line);
		put_clean(h->message);
		fputc('\n', stderr);
	}
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		char line[32] = "";
		if (v->line > 0)
			snprintf(line, sizeof line, " at line %d", v->line);
		fprintf(stderr, "sandpit: violation [%s]%s: ", sp_violation_kind_name(v->kind), line);
		put_clean(v->what);
		fputc('\n', stderr);
		if (r->violation_contexts && r->violation_contexts[i]) {
			/* the program's own words (it can make them up) */
			fputs("         the program said it was doing: ", stderr);
			put_clean(r->violation_contexts[i]);
			fputc('\n', stderr);
		}
		if (v->count > 1)
			fprintf(stderr, "         (%u times)\n", v->count);
		fprintf(stderr, "         %s\n", v->message);
	}
	print_files(r, keep_dir);
	if (r->status == SP_STATUS_SANDBOX_ERROR)
		fprintf(stderr, "sandpit: the sandbox failed: %s\n", r->error);
	fprintf(stderr, "sandpit: %s", sp_status_name(r->status));
	if (r->exit_code >= 0)
		fprintf(stderr, " (exit %d)", r->exit_code);
	else if (r->signal > 0)
		fprintf(stderr, " (signal %d)", r->signal);
	/* the figures as the gauges show them */
	char wall[32], cpu[32], mem[32], out[32];
	sp_format_ms(r->usage.wall_ms, wall, sizeof wall);
	sp_format_ms(r->usage.cpu_ms, cpu, sizeof cpu);
	sp_format_bytes(r->usage.peak_memory_bytes, mem, sizeof mem);
	sp_format_bytes(r->usage.output_bytes, out, sizeof out);
	fprintf(stderr, " in %s wall, %s cpu, peak memory %s, %s output%s\n",
		wall, cpu, mem, out, r->truncated ? " (truncated)" : "");
}

static int exit_status(const struct sp_result *r)
{
	switch (r->status) {
	case SP_STATUS_OK:
	case SP_STATUS_ERROR:
		/* killed by a signal the limits did not send: 128 + N, as shells say */
		if (r->exit_code < 0 && r->signal > 0 && r->signal < 128)
			return 128 + r->signal;
		return r->exit_code >= 0 ? r->exit_code : 1;
	case SP_STATUS_SANDBOX_ERROR:
		return 125;
	case SP_STATUS_KILLED:
		return 130;
	default:
		return 124;
	}
}

/* --file [NAME=]PATH: a NAME is what comes before the first '=' when
 * that part has no '/' (so ./a=b.csv is the file "a=b.csv"). */
static struct sp_file_in parse_file_in(const char *arg)
{
	static char *names[SP_MAX_FILES_IN]; /* reachable until exit */
	static size_t used;
	struct sp_file_in f = { arg, NULL };
	const char *eq = strchr(arg, '=');

	if (eq && eq > arg && !memchr(arg, '/', (size_t)(eq - arg)) && used < SP_MAX_FILES_IN &&
	    (names[used] = strndup(arg, (size_t)(eq - arg)))) {
		f.name = names[used++];
		f.host_path = eq + 1;
	}
	return f;
}

/* One `sandpit run`: what the options and files gave, handed from step
 * to step; code, carry and input are ours until the run has started. */
struct run_cli {
	struct sp_config cfg;
	struct sp_file_in files_in[SP_MAX_FILES_IN];
	const char *carry_path, *carry_out_path, *stdin_path;
	char *code, *carry, *input;
	size_t code_len, carry_len, input_len;
	bool json, to_term[2];
	struct run_term term[2];
};

static void free_inputs(struct run_cli *rc)
{
	free(rc->code);
	free(rc->carry);
	free(rc->input);
	rc->code = rc->carry = rc->input = NULL;
}

/* One option getopt gave (id is its index in the option table): stored in
 * rc. Returns -1 to go on, else the command's exit status. */
static int take_option(struct run_cli *rc, int id, char **argv)
{
	struct sp_config *cfg = &rc->cfg;
	struct opt_value val;
	char why[256], msg[300];

	if (id >= 0 && id < OPT_N && options[id].arg &&
	    option_parse((enum opt_id)id, optarg, &cfg->limits, &val, why, sizeof why) < 0) {
		/* a limit's message names its flag; a size's says what to give */
		if (options[id].kind != OPT_LIMIT)
			return usage_error("%s", why);
		snprintf(msg, sizeof msg, "--%s: %s", options[id].name, why);
		return usage_error("%s", msg);
	}
	switch (id) {
	case OPT_CPU: case OPT_WALL: case OPT_MEMORY:
	case OPT_OUTPUT: case OPT_DISK: case OPT_PROCS:
		break; /* stored by option_parse() */
	case OPT_CARRY_MAX: cfg->limits.carry_bytes = val.n; break;
	case OPT_CARRY: rc->carry_path = optarg; break;
	case OPT_CARRY_OUT: rc->carry_out_path = optarg; break;
	case OPT_STDIN: rc->stdin_path = optarg; break;
	case OPT_PYTHON: cfg->python = optarg; break;
	case OPT_JSON: rc->json = true; break;
	case OPT_COLUMNS:
		if (val.n > SP_MAX_COLUMNS)
			return usage_error("--columns %s: at most %d", optarg, SP_MAX_COLUMNS);
		cfg->columns = (unsigned)val.n;
		cfg->lines = 24;
		break;
	case OPT_FILE:
		if (cfg->n_files_in == SP_MAX_FILES_IN)
			return usage_error("more than %d --file options (at '%s'): pack them "
					   "into one archive and unpack it in the program",
					   SP_MAX_FILES_IN, optarg);
		rc->files_in[cfg->n_files_in++] = parse_file_in(optarg);
		break;
	case OPT_KEEP: cfg->keep_dir = optarg; break;
	case OPT_HELP: print_usage(); return 0;
	default:
		return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
	}
	return -1;
}

/* The options, then the one FILE and a --python that can run. Returns -1
 * to go on, else the command's exit status. */
static int parse_options(struct run_cli *rc, int argc, char **argv)
{
	struct option opts[OPT_N + 1];
	size_t n_opts = 0;
	int c, status;

	json_refusals = false;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		json_refusals |= is_json_flag(argv[i]);
	optind = 1;
	opterr = 0;
	/* the flags of the one option table (options.c), as getopt wants them;
	 * val is OPT_VAL + the option's id, clear of getopt's own '?' and ':' */
	for (int i = 0; i < OPT_N; i++)
		if (options[i].where & OPT_RUN)
			opts[n_opts++] = (struct option){ options[i].name,
				options[i].arg ? required_argument : no_argument, NULL, OPT_VAL + i };
	opts[n_opts] = (struct option){ NULL, 0, NULL, 0 };
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		if ((status = take_option(rc, c - OPT_VAL, argv)) >= 0)
			return status;
	if (optind != argc - 1)
		return usage_error("%s", optind >= argc ? "give one program FILE (or - for stdin)"
						       : "give exactly one program FILE");
	if (rc->cfg.python) {
		struct stat st;
		if (stat(rc->cfg.python, &st) < 0 || !S_ISREG(st.st_mode) ||
		    access(rc->cfg.python, X_OK) < 0)
			return usage_error("no executable interpreter at --python '%s'",
					   rc->cfg.python);
	}
	return -1;
}

/* The program, the carry-in, the files in, the keep dir and stdin, read
 * and checked before anything starts. 0, or -1 refused (exit status 2). */
static int read_inputs(struct run_cli *rc, const char *program)
{
	struct sp_config *cfg = &rc->cfg;
	struct sp_error err = { "" };

	if (!(rc->code = slurp("program", program, MAX_PROGRAM, &rc->code_len)))
		return -1;
	if (rc->carry_path) {
		if (!(rc->carry = slurp("carry file", rc->carry_path, cfg->limits.carry_bytes,
					&rc->carry_len)))
			return -1;
		if (sp_carry_validate(rc->carry, rc->carry_len, cfg->limits.carry_bytes, &err) < 0) {
			refuse(false, "--carry '%s': %s", rc->carry_path, err.msg);
			return -1;
		}
	}
	cfg->files_in = rc->files_in;
	cfg->carry_in = rc->carry;
	cfg->carry_in_len = rc->carry_len;
	/* before the check: the program is a file of the work dir too */
	cfg->filename = strcmp(program, "-") == 0 ? "main.py" : program;
	if (sp_files_in_check(cfg, &err) < 0 ||
	    (cfg->keep_dir && sp_keep_dir_prepare(cfg->keep_dir, &err) < 0)) {
		refuse(true, "%s %s", strncmp(err.msg, "keep dir", 8) == 0 ? "--keep:" : "--file:",
		       err.msg);
		return -1;
	}
	if (rc->stdin_path &&
	    !(rc->input = slurp("stdin file", rc->stdin_path, MAX_STDIN, &rc->input_len)))
		return -1;
	cfg->code = rc->code;
	cfg->code_len = rc->code_len;
	cfg->stdin_data = rc->input;
	cfg->stdin_len = rc->input_len;
	return 0;
}

/* Where the program's output goes: kept for --json; else spliced straight
 * to ours, or, where ours is a terminal, cleaned from events (run_term.h). */
static void choose_output(struct run_cli *rc)
{
	struct sp_config *cfg = &rc->cfg;

	cfg->keep_output = rc->json;
	rc->to_term[0] = !rc->json && isatty(STDOUT_FILENO);
	rc->to_term[1] = !rc->json && isatty(STDERR_FILENO);
	cfg->forward = !rc->json && !rc->to_term[0] && !rc->to_term[1];
	for (int s = 0; s < 2; s++)
		run_term_init(&rc->term[s], s + 1, getenv("NO_COLOR") == NULL);
	cfg->forward_out = STDOUT_FILENO;
	cfg->forward_err = STDERR_FILENO;
	if (!rc->json) {
		/* a pipe out of us as big as the program's pipe into us: a flood
		 * then moves in 1 MiB steps, not 64 KiB ones (best effort) */
		struct stat st;
		if (fstat(STDOUT_FILENO, &st) == 0 && S_ISFIFO(st.st_mode) &&
		    fcntl(STDOUT_FILENO, F_GETPIPE_SZ) < (1 << 20))
			fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
	}
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal; /* no SA_RESTART: poll returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* The sandbox did not start: said on stderr, and under --json the
 * contract's object even now: nothing ran, and why. Exit status 125. */
static int report_start_failure(const struct run_cli *rc, const struct sp_error *err)
{
	if (rc->json) {
		struct sp_result failed;
		char *text;

		memset(&failed, 0, sizeof failed);
		failed.status = SP_STATUS_SANDBOX_ERROR;
		failed.exit_code = -1;
		failed.limits = rc->cfg.limits;
		snprintf(failed.error, sizeof failed.error, "%s", err->msg);
		text = sp_result_to_json(&failed);
		if (text) {
			puts(text);
			free(text);
		}
	}
	fprintf(stderr, "sandpit run: the sandbox could not start: %s\n", err->msg);
	return 125;
}

/* The run's events until its end: output forwarded by the engine unless a
 * terminal is ours; the rest is in the result. A signal cancels. */
static void pump(struct run_cli *rc, struct sp_run *run)
{
	struct sp_event ev;

	current_run = run;
	if (cancel_requested)
		sp_run_interrupt(run);
	while (!sp_run_finished(run)) {
		struct pollfd pfd = { .fd = sp_run_fd(run), .events = POLLIN };
		if (cancel_requested) {
			sp_run_cancel(run);
			cancel_requested = 0;
		}
		if (sp_run_timeout_ms(run) != 0)
			poll(&pfd, 1, sp_run_timeout_ms(run));
		while (sp_run_next_event(run, &ev) > 0) {
			int s = ev.type == SP_EVENT_STDOUT ? 0 : ev.type == SP_EVENT_STDERR ? 1 : -1;
			if (s < 0 || rc->json || rc->cfg.forward)
				continue;
			if (rc->to_term[s])
				run_term_feed(&rc->term[s], ev.data, ev.len);
			else
				put_raw(s + 1, ev.data, ev.len);
		}
	}
	for (int s = 0; s < 2; s++)
		if (rc->to_term[s])
			run_term_finish(&rc->term[s]);
}

/* The result (JSON, or the human summary), the carry-out; the exit status. */
static int report_result(const struct run_cli *rc, const struct sp_result *r)
{
	int status;

	if (rc->json) {
		char *text = sp_result_to_json(r);
		if (text) {
			puts(text);
			free(text);
		}
	} else {
		print_human_tail(r, rc->cfg.keep_dir);
	}
	status = exit_status(r);
	if (rc->carry_out_path && r->status != SP_STATUS_SANDBOX_ERROR &&
	    write_carry_out(rc->carry_out_path, r->carry_out) < 0)
		status = 125;
	return status;
}

int cmd_run(int argc, char **argv)
{
	struct run_cli rc;
	struct sp_error err = { "" };
	struct sp_run *run;
	int status;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--batch"))
			return cmd_run_batch(argc, argv);
	memset(&rc, 0, sizeof rc);
	sp_config_init(&rc.cfg);
	if ((status = parse_options(&rc, argc, argv)) >= 0)
		return status;
	if (read_inputs(&rc, argv[optind]) < 0) {
		free_inputs(&rc);
		return 2;
	}
	choose_output(&rc);
	catch_signals();
	status = sp_run_start(&rc.cfg, &run, &err);
	free_inputs(&rc);
	if (status < 0)
		return report_start_failure(&rc, &err);
	pump(&rc, run);
	status = report_result(&rc, sp_run_result(run));
	current_run = NULL;
	sp_run_free(run);
	return status;
}
