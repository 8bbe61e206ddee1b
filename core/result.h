/* SPDX-License-Identifier: MIT */
/*
 * result.h - the pieces of a run's result, as data: violation records,
 * the usage timeline, the globals at the end, the last value, hints, the
 * carry buffer's names and values, and their JSON (bytes that need not be
 * UTF-8, floats as Python writes them). Layer: above base.h only.
 *
 * Invariants: no descriptors, no processes, no clock: every function
 * works on what it is given. What came out of a run is hostile: these
 * files cut it to its caps, clean it, and never trust a length or a
 * number it carries. Out of memory is NULL or -1 (or a record dropped and
 * counted), never an abort.
 */
#ifndef SP_RESULT_H
#define SP_RESULT_H

#include "base.h"

struct json_t;

/* violations.c */
struct sp_violations {
	struct sp_violation *v;
	unsigned *announced;        /* per record: the count last sent as an event */
	char **context;             /* per record: the program's words, or NULL */
	size_t n, cap;
	uint64_t dropped;
};
/* Add or merge (same kind + what + line). Each kind and source keeps at
 * most a few dozen records; past that, new ones are counted in the group's
 * overflow record, so no flood of one kind hides a record of another.
 * Returns the record, or NULL when out of memory (dropped grows). */
struct sp_violation *sp_violations_add(struct sp_violations *vs,
				       enum sp_violation_kind kind,
				       const char *what, bool from_kernel,
				       int line);
const char *sp_violation_message(enum sp_violation_kind kind, const char *what);
/* The next record (from *from on) whose count grew since it was last
 * announced: marks it announced and returns its index, or -1 for none. */
long sp_violations_next_grown(struct sp_violations *vs, size_t *from);
void sp_violations_free(struct sp_violations *vs);

/* samples.c: the usage timeline (see the file's header). */
struct sp_samples {
	struct sp_sample *v;        /* SP_MAX_SAMPLES slots once the first comes */
	size_t n;
	uint64_t seen;              /* samples offered so far */
	unsigned stride;            /* keep every stride-th ordinary sample */
	struct sp_sample held;      /* the latest sample not kept (yet) */
	bool have_held;
};
/* Offer one sample; kept, held back as the possible last point, or
 * dropped between strides. A point with limit set is always kept. */
void sp_samples_add(struct sp_samples *s, const struct sp_sample *p);
/* A limit of kind was reached by the latest sample: keep it and mark it,
 * unless an earlier point already carries kind (a point already marked
 * keeps its first mark). */
void sp_samples_mark_limit(struct sp_samples *s, enum sp_violation_kind kind);
/* Hand the timeline over (the caller frees *v) and empty s. */
void sp_samples_take(struct sp_samples *s, struct sp_sample **v, size_t *n);
void sp_samples_free(struct sp_samples *s);
/* The timeline as the result's "samples" array (new reference). */
struct json_t;
struct json_t *sp_samples_json(const struct sp_sample *v, size_t n);

/* variables.c; sp_utf8_cut_dup: a copy of s cut to at most max bytes,
 * never inside a UTF-8 character (NULL when out of memory). */
char *sp_utf8_cut_dup(const char *s, size_t max);
void sp_variables_free(struct sp_variable *v, size_t n);
struct json_t *sp_variables_json(const struct sp_variable *v, size_t n);
/* last_value.c: the result's "last_value", {"type", "repr"} or null */
struct json_t *sp_last_value_json(const struct sp_result *r);

/* hints.c: add a hint from the prelude's (untrusted) report: topic picks
 * the text, about names the exception, detail (a module or file name) is
 * cut and cleaned. 0 added or already there, -1 ignored. */
int sp_hints_add(struct sp_result *res, const char *topic, const char *about,
		 const char *detail, int line);
void sp_hints_free(struct sp_result *res);
/* Keep the last cap bytes of what was written to the program's stderr. */
void sp_hints_tail_add(char *tail, size_t *len, size_t cap, const char *s, size_t n);
/* Hints for the tracebacks the program printed itself (caught and shown
 * with traceback.print_exc(), or a thread's): each block's last line
 * names the error, its last frame in the program's file gives the line. */
void sp_hints_from_tracebacks(struct sp_result *res, const char *text, size_t len);
/* The result's hints as the contract's JSON array (a new reference). */
struct json_t;
struct json_t *sp_hints_json(const struct sp_result *res);

/* carry.c: NULL when name can be a carried global, else why not. */
const char *sp_carry_name_problem(const char *name);
/* carry.c: NULL when a carried value nests within SP_CARRY_MAX_DEPTH. */
const char *sp_carry_value_problem(const struct json_t *value);

#include "json_text.h"

/* json_bytes.c: bytes as JSON strings, surrogateescape (see its header).
 * sp_json_bytes gives a string for the tree (a placeholder when s is not
 * valid UTF-8, NULL when out of memory); sp_json_dump_bytes dumps the tree
 * with the placeholders' literals in (no JSON_ENSURE_ASCII) and forgets
 * them; sp_json_bytes_reset forgets them without dumping. Per thread. */
bool sp_utf8_valid(const char *s, size_t len);
char *sp_json_quote_bytes(const char *s, size_t len, size_t *out_len);
struct json_t *sp_json_bytes(const char *s, size_t len);
char *sp_json_dump_bytes(struct json_t *root, size_t flags);
void sp_json_bytes_reset(void);
char *sp_base64(const char *s, size_t len);
/* Deprecated, lossy (\xNN text): use sp_json_bytes for anything new. */
char *sp_json_escape_bytes(const char *s, size_t len, size_t *out_len);

/* doctor.c: the layers a run uses, in order. */
void sp_layer_set(struct sp_result *r, const char *name, bool active,
		  const char *fmt, ...) SP_PRINTF(4, 5);

#endif
