/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/config/config.c tui/image/graphics.c tui/cmd/options.c tui/text/ini_lines.c tui/config/limit_fields.c core/limits.c core/util.c tui/text/fileio.c core/buf.c */
/* fuzz-pkgs: inih */
/*
 * fuzz_config.c - random config files (and command lines) through
 * config_load().
 *
 * The input up to its first NUL byte is the config file (handed over as
 * /proc/self/fd/N of a memfd, so no file is left behind); after the NUL,
 * newline-separated words are the command line after the file's flag.
 * config.h promises that after config_load() every field holds a usable
 * value, even when the file had errors, and that strings are always
 * NUL-terminated. "Usable" is taken as what sp_run_start() accepts:
 * CPU and wall > 0, memory at least 16 MiB, output and procs at least 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 16

static void must_end(const char *s, size_t cap, const char *what)
{
	if (!memchr(s, '\0', cap)) {
		fprintf(stderr, "%s is not NUL-terminated\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, '\0', size);
	size_t file_len = nul ? (size_t)(nul - data) : size;
	char path[64], usage[512], *words = NULL, *argv[MAX_ARGS + 4];
	int argc = 0, fd, rc;
	static struct pg_config cfg;

	fd = memfd_create("fuzz-config", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, data, file_len) != (ssize_t)file_len) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	argv[argc++] = "sandpit";
	argv[argc++] = "--config";
	argv[argc++] = path;
	if (nul) {
		size_t n = size - file_len - 1;
		words = malloc(n + 1);
		if (!words)
			abort();
		memcpy(words, nul + 1, n);
		words[n] = '\0';
		for (char *w = words, *next; w && *w && argc < MAX_ARGS + 3; w = next) {
			next = strchr(w, '\n');
			if (next)
				*next++ = '\0';
			argv[argc++] = w;
		}
	}
	argv[argc] = NULL;
	usage[0] = '\0';
	rc = config_load(&cfg, argc, argv, usage, sizeof usage);
	must_end(cfg.python, sizeof cfg.python, "python");
	must_end(cfg.theme, sizeof cfg.theme, "theme");
	must_end(cfg.config_path, sizeof cfg.config_path, "config_path");
	must_end(cfg.error, sizeof cfg.error, "error");
	if (rc < 0 && !usage[0]) {
		fprintf(stderr, "a refused command line without a message\n");
		abort();
	}
	if (rc == 0) {
		const struct sp_limits *l = &cfg.limits;
		if (!l->cpu_ms || !l->wall_ms || l->memory_bytes < (16u << 20) ||
		    !l->output_bytes || !l->procs) {
			fprintf(stderr, "an unusable limit was accepted: cpu %llu wall %llu "
				"memory %llu output %llu procs %u\n",
				(unsigned long long)l->cpu_ms, (unsigned long long)l->wall_ms,
				(unsigned long long)l->memory_bytes,
				(unsigned long long)l->output_bytes, l->procs);
			abort();
		}
		/* an error in the file names the file (the last --config wins) */
		if (cfg.error[0] &&
		    strncmp(cfg.error, cfg.config_path, strlen(cfg.config_path)) != 0) {
			fprintf(stderr, "error without the file name: %s\n", cfg.error);
			abort();
		}
	}
	free(words);
	close(fd);
	return 0;
}
