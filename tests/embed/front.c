/* SPDX-License-Identifier: MIT */
/*
 * front.c - the smallest outside front end of libsandpit, built by
 * tests/embed/test_embed.sh from the installed sandpit.h and sandpit.pc
 * alone: run the program text given as argv[1] (with the interpreter
 * argv[2], if given), pass its stdout and stderr through, then print its status and exit code.
 */
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sandpit.h>

int main(int argc, char **argv)
{
	struct sp_config cfg;
	struct sp_error err;
	struct sp_run *run;
	struct sp_event ev;

	if (argc != 2 && argc != 3)
		return 2;
	sp_config_init(&cfg);
	if (argc == 3)
		cfg.python = argv[2]; /* in argv, which init blanks: it must copy it */
	cfg.code = argv[1];
	cfg.code_len = strlen(argv[1]);
	if (sp_run_start(&cfg, &run, &err) < 0) {
		fprintf(stderr, "front: %s\n", err.msg);
		return 125;
	}
	while (!sp_run_finished(run)) {
		struct pollfd p = { .fd = sp_run_fd(run), .events = POLLIN };

		poll(&p, 1, sp_run_timeout_ms(run));
		while (sp_run_next_event(run, &ev) > 0)
			if (ev.type == SP_EVENT_STDOUT || ev.type == SP_EVENT_STDERR)
				fwrite(ev.data, 1, ev.len, ev.type == SP_EVENT_STDOUT ? stdout : stderr);
	}
	printf("[status %s, exit %d, libsandpit %s]\n",
	       sp_status_name(sp_run_result(run)->status), sp_run_result(run)->exit_code,
	       sp_version());
	sp_run_free(run);
	return 0;
}
