/* SPDX-License-Identifier: MIT */
/*
 * lesson.h - guided lessons: one plain text file each (docs/lessons.md),
 * a goal, a starting program, hints, a reference solution and a check.
 *
 * A check is data, never code: a list of conditions judged from a run's
 * struct sp_result (status, stdout, violations, carry_out, files, limits).
 * Nothing of a lesson file runs on the host; its programs run only in the
 * sandbox, like anything typed into the Editor.
 *
 * Invariants: a parsed lesson has a title, a goal, a start program, a
 * solution and at least one condition; every string is NUL-terminated
 * and owned by the lesson (lesson_free). A parse error is one message,
 * "FILE:LINE: what is wrong", and leaves nothing allocated.
 */
#ifndef LESSON_H
#define LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandpit.h"

#define LESSON_MAX_BYTES (1u << 20)   /* one lesson file */
#define LESSON_MAX_HINTS 16
#define LESSON_MAX_CONDS 64
#define LESSON_MAX_FILES 8
#define LESSON_MAX_RUNS 10
#define LESSON_MAX_AGAIN 4    /* [again] runs on other inputs */
#define LESSON_MAX_DATA 8     /* [data NAME] sections */

enum lesson_cond_kind {
	LC_STATUS,      /* status ok [error ...]: one of these statuses */
	LC_EXIT,        /* exit N */
	LC_STDOUT_HAS,  /* stdout has TEXT (substring) */
	LC_STDOUT_LIKE, /* stdout like GLOB (fnmatch over the whole stdout) */
	LC_STDERR_HAS,  /* stderr has TEXT */
	LC_VIOLATION,   /* violation KIND (or "any") */
	LC_CARRY,       /* carry NAME [= JSON] */
	LC_FILE,        /* file GLOB: the run left such a file */
	LC_KEPT,        /* kept GLOB: and a host copy of it was kept */
	LC_LIMIT,       /* limit NAME <=|>=|= VALUE: the limits in force */
	LC_SOURCE_HAS,  /* source has TEXT: the program text contains it */
	LC_PICTURE,     /* picture GLOB: a kept file that decodes as an image */
	LC_NUMBER,      /* stdout number LABEL VALUE within TOL */
};

enum lesson_op { LOP_LE, LOP_GE, LOP_EQ };

struct lesson_cond {
	enum lesson_cond_kind kind;
	bool negate;            /* "not ...", "no violation", "stdout lacks" */
	int line;               /* in the lesson file */
	char *arg;              /* text, glob, kind, carry name or limit name */
	char *value;            /* carry: the JSON value wanted, or NULL */
	bool received;          /* carry NAME = received + N: value is N */
	double want, tol;       /* number: the value wanted, give or take */
	unsigned statuses;      /* status: bit per enum sp_status */
	int exit_code;          /* exit */
	enum lesson_op op;      /* limit */
	uint64_t num;           /* limit: ms, bytes or a count */
	char *say;              /* the teacher's words when it fails, or NULL */
	char *text;             /* the condition as written, without its words */
};

/* A file the lesson attaches to each of its runs ([file NAME]). */
struct lesson_file {
	char *name;
	char *text;
	size_t len;
};

/*
 * [again]: the learner's program run once more on inputs the learner
 * has not seen (another carry-in, other stdin, another file of data in
 * place of a [file]), judged by conditions of its own. A program that
 * prints a fixed answer passes the main check at most, never these.
 */
struct lesson_again {
	int line;
	char *carry;            /* the carry-in (a JSON object), or NULL */
	char *stdin_text;       /* the program's stdin, or NULL */
	size_t stdin_len;
	/* work-dir name -> [data NAME] section, in place of a [file] */
	struct { char *name; size_t data; } swap[LESSON_MAX_FILES];
	size_t n_swap;
	struct lesson_cond conds[LESSON_MAX_CONDS];
	size_t n_conds;
};

/* Limits a lesson sets for its runs; 0 leaves the playground's. */
struct lesson_limits {
	uint64_t cpu_ms, wall_ms, memory_bytes, output_bytes, disk_bytes;
	uint32_t procs;
};

struct lesson {
	/* id, source, title and constraint are kept made visible
	 * (sanitize.h): they are printed and drawn as they are */
	char *id;               /* progress key: "01_network", "mine/x" */
	char *source;           /* the file name, for messages */
	char *title;
	char *constraint;       /* a tag for the menu ("network"), or NULL */
	char *goal;
	char *start;
	char *solution;
	char *hints[LESSON_MAX_HINTS];
	size_t n_hints;
	struct lesson_cond conds[LESSON_MAX_CONDS];
	size_t n_conds;
	struct lesson_file files[LESSON_MAX_FILES];
	size_t n_files;
	struct lesson_file data[LESSON_MAX_DATA];   /* for [again] only */
	size_t n_data;
	struct lesson_again *again;                 /* n_again of them */
	size_t n_again;
	unsigned runs;          /* runs the solution takes (carry between) */
	struct lesson_limits limits;
	char capped[256];       /* the limits lowered to the lesson maxima
				 * ("cpu = 1e9 lowered to 60"), or "" */
};

/*
 * Parse one lesson from text (len bytes, any content). source names the
 * file in messages and becomes the lesson's source; id its progress key.
 * 0 and *out filled, or -1 with err = "SOURCE:LINE: message".
 */
int lesson_parse(const char *text, size_t len, const char *source,
		 const char *id, struct lesson *out, char *err, size_t errlen);
void lesson_free(struct lesson *l);

/* The playground's limits with the lesson's own on top. */
void lesson_apply_limits(const struct lesson *l, struct sp_limits *lim);

/*
 * Judge a finished run. The result's out/out_len and err/err_len must
 * hold the run's stdout and stderr (NULL for none). Returns true when
 * every condition holds; msg then says "passed", else "not yet: " and
 * the first condition that fails, in plain words.
 */
bool lesson_judge(const struct lesson *l, const struct sp_result *r,
		  char *msg, size_t msglen);

/* What a check knows besides the result: the program's text (for
 * "source" conditions) and the carry-in the run received (for "carry
 * NAME = received + N" and the verdict's words). Either may be NULL. */
struct lesson_seen {
	const char *program;
	const char *carry_in;
	struct lesson_checks *rec;   /* where each condition's verdict goes, or NULL */
};

/* Each condition of the last judged runs, for a grader (learn --check
 * --json): the main check's (of its last run), then each [again]'s. An
 * [again] condition is recorded by its line only, never its text: that
 * would tell its hidden inputs and answers. */
#define LESSON_CHECKS_MAX (LESSON_MAX_CONDS * (1 + LESSON_MAX_AGAIN))
struct lesson_checks {
	size_t n;
	struct lesson_check {
		int line;            /* in the lesson file */
		bool again;          /* a condition of an [again] run */
		bool held;
		char check[160];     /* the condition as written; "" for [again] */
		char why[400];       /* the teacher's words or ours when it failed */
	} v[LESSON_CHECKS_MAX];
};

/* lesson_judge with what the run was given. */
bool lesson_judge_seen(const struct lesson *l, const struct lesson_seen *in,
		       const struct sp_result *r, char *msg, size_t msglen);

/*
 * Judge the run of [again] k (0 <= k < l->n_again). On failure msg says
 * "not yet: on other inputs (...) ..." without the answer wanted: what
 * the program printed or did, never what the check looks for.
 */
bool lesson_again_judge(const struct lesson *l, size_t k,
			const struct lesson_seen *in, const struct sp_result *r,
			char *msg, size_t msglen);

/* The inputs of [again] k in a few words, never their values (those are
 * the hidden inputs): "another N, another scores.csv". */
void lesson_again_words(const struct lesson *l, size_t k, char *buf, size_t len);

/* ---- the set of lessons: the shipped ones, then a teacher's DIR ---- */

struct lesson_set {
	struct lesson *v;
	size_t n, cap;
	char **errors;          /* "FILE:LINE: message", one per broken file */
	size_t n_errors, errors_cap;
};

/*
 * Load the shipped lessons and, when dir is not NULL, every DIR/ *.lesson
 * (sorted by name; ids "DIRNAME/NAME"). A broken file is one entry in
 * errors and the rest still load. Returns 0, or -1 when memory ran out
 * or dir cannot be read (then errors says so too).
 */
int lesson_set_load(struct lesson_set *s, const char *dir);
void lesson_set_free(struct lesson_set *s);

/* Index of the lesson with this id, or -1. */
long lesson_set_find(const struct lesson_set *s, const char *id);

/* A lesson's [file] sections written out for sp_config.files_in. */
struct lesson_stage {
	char dir[4096];                         /* "" when there are none */
	char paths[LESSON_MAX_FILES][4096 + 256];
	struct sp_file_in in[LESSON_MAX_FILES];
	size_t n;
};

/*
 * Write the lesson's files into a fresh private directory (mkdtemp under
 * $TMPDIR, else /tmp) and fill st for files_in. 0, or -1 with err (and
 * nothing left behind). lesson_stage_remove() deletes the directory.
 */
int lesson_stage_files(const struct lesson *l, struct lesson_stage *st,
		       char *err, size_t errlen);
/* The same for [again] k: its [data] in place of the [file]s it swaps. */
int lesson_stage_again(const struct lesson *l, size_t k, struct lesson_stage *st,
		       char *err, size_t errlen);
void lesson_stage_remove(struct lesson_stage *st);

/*
 * Run program (the lesson's start or solution) as a learner would: the
 * lesson's limits over base, its files attached, the files it leaves
 * kept (in a temporary dir, removed again), up to l->runs runs with
 * each carry_out merged into the next carry-in, stopping once the check
 * passes. *passed and verdict tell the last judgement, *runs_done how
 * many runs it took. Once the check passes, each [again] runs the
 * program once more on its inputs; the first that fails is the verdict.
 * 0, or -1 with err when a run could not start.
 */
int lesson_try(const struct lesson *l, const char *program,
	       const struct sp_limits *base, const char *python,
	       bool *passed, unsigned *runs_done, char *verdict, size_t vlen,
	       struct sp_error *err);
/* lesson_try, each condition's verdict recorded in rec (see above). */
int lesson_try_checks(const struct lesson *l, const char *program,
		      const struct sp_limits *base, const char *python,
		      bool *passed, unsigned *runs_done, char *verdict, size_t vlen,
		      struct lesson_checks *rec, struct sp_error *err);

/* One run of program on the inputs of [again] k, judged by its
 * conditions. 0 (*passed, verdict), or -1 with err. */
int lesson_again_run(const struct lesson *l, size_t k, const char *program,
		     const struct sp_limits *base, const char *python,
		     bool *passed, char *verdict, size_t vlen, struct sp_error *err);

#endif
