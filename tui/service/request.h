/* SPDX-License-Identifier: MIT */
/*
 * request.h - one run asked for in JSON, as `sandpit mcp`'s run_python
 * tool and `sandpit run --batch` take it:
 *
 *   {"code": "print(1)",                        required, the program
 *    "files": [{"name": "a.csv", "text": "..."},  up to 64, into the work dir
 *              {"name": "b.bin", "base64": "..."},
 *              {"name": "c.txt", "path": "/srv/data/c.txt"}],  under an allowed dir
 *    "stdin": "...",                             the program's standard input
 *    "carry": {"x": 1},                          the carry-in object
 *    "limits": {"cpu": 2, "wall": 5, "memory": "256M",
 *               "output": 65536, "disk": "16M", "procs": 8}}
 *
 * Limits are seconds (cpu, wall), bytes or "64M" (memory, output, disk)
 * and a count (procs); one over the service's maximum is lowered to it
 * and said in clamped. Every file is held in memory (a path's too, read
 * once it is checked) and handed to the engine as bytes (files_bytes):
 * nothing of a request is written to the host's file system, so nothing
 * of it outlives the process, however that process ends. The engine
 * checks the names as for --file. A path is read only under a directory
 * the service allows.
 *
 * Invariant: request_free() frees everything request_parse() took,
 * whatever happened in between; rq->bytes counts what it holds.
 */
#ifndef REQUEST_H
#define REQUEST_H

#include <jansson.h>
#include <stddef.h>

#include "sandpit.h"

struct allow_dir;

#define REQUEST_MAX_CODE (16u << 20)
#define REQUEST_MAX_STDIN (16u << 20)

struct request_policy {
	struct sp_limits dflt;          /* a request's limits before its own */
	struct sp_limits max;           /* the highest it may ask */
	const struct allow_dir *allow_dirs; /* host files only under them (allow_dir.h) */
	size_t n_allow;
	const char *python;             /* NULL: /usr/bin/python3 */
};

struct request {
	char *code;
	size_t code_len;
	char *stdin_data;
	size_t stdin_len;
	char *carry;                 /* compact JSON text, or NULL */
	size_t carry_len;
	struct sp_limits limits;
	char clamped[512];           /* "cpu 60 s lowered to the maximum 5 s; ..." */
	struct sp_file_bytes files[SP_MAX_FILES_IN];
	char *names[SP_MAX_FILES_IN];
	void *data[SP_MAX_FILES_IN];
	size_t n_files;
	size_t bytes;                /* held: code, stdin, carry and files */
};

/*
 * Read args (a JSON object) into rq under pol. 0, or -1 with err saying
 * what is wrong in the request's terms and what to give instead (rq then
 * holds nothing: request_free() is still safe).
 */
int request_parse(const json_t *args, const struct request_policy *pol, struct request *rq,
		  char *err, size_t errlen);
/* The run's config: cfg's pointers point into rq. */
void request_config(const struct request *rq, const struct request_policy *pol,
		    struct sp_config *cfg);
void request_free(struct request *rq);

/* Set pol->dflt and pol->max to the engine's defaults. */
void request_policy_init(struct request_policy *pol);

/*
 * What the service's prepared sandboxes are made with (pool.h): pol's
 * interpreter and default limits, and the modules of preload
 * ("numpy,pandas", commas or spaces; NULL for none), at most
 * SP_MAX_PRELOAD, into names. prep points into names and into preload,
 * which is cut up in place: both must outlive it.
 */
void request_prepare(const struct request_policy *pol, char *preload, const char **names,
		     struct sp_prepare *prep);

#endif
