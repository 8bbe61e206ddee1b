/* SPDX-License-Identifier: MIT */
/*
 * lesson_check.c - a lesson's check judged from a run's result.
 *
 * The check is data: each condition reads one part of struct sp_result
 * (status, exit code, stdout/stderr, violations, carry_out, files,
 * limits) and says, when it does not hold, what is still missing in
 * words a learner understands: "not yet: the program still reaches for
 * the network at line 4". Conditions are judged in the lesson's order
 * and the first that fails is the verdict, so a teacher puts the one
 * that matters most first. Globs are fnmatch(3); carry values are
 * compared as JSON (jansson), numbers by value (6 equals 6.0).
 */
#include <fnmatch.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson.h"
#include "image/image.h"
#include "buf.h"
#include "banned.h"

/* What a violation of each kind means, as "the program still ...". */
static const char *kind_doing(const char *kind)
{
	static const struct { const char *k, *doing; } t[] = {
		{ "network", "reaches for the network" },
		{ "filesystem", "reaches outside its work dir" },
		{ "process", "starts more processes than the limit" },
		{ "syscall", "makes a system call the sandbox denies" },
		{ "cpu", "runs out of CPU time" },
		{ "wall", "runs out of time" },
		{ "memory", "runs out of memory" },
		{ "output", "prints more than the output limit" },
		{ "disk", "fills the work dir" },
		{ "carry", "hands carry() a value it refuses" },
	};
	for (size_t i = 0; i < SP_ARRAY_SIZE(t); i++)
		if (!strcmp(t[i].k, kind))
			return t[i].doing;
	return "crosses a limit";
}

/* A status in plain words. */
static const char *status_words(enum sp_status s)
{
	switch (s) {
	case SP_STATUS_OK: return "ended normally";
	case SP_STATUS_ERROR: return "ended with an error (see Output)";
	case SP_STATUS_CPU_LIMIT: return "was stopped at its CPU time limit";
	case SP_STATUS_WALL_LIMIT: return "was stopped at its wall-clock limit";
	case SP_STATUS_MEMORY_LIMIT: return "was stopped at its memory limit";
	case SP_STATUS_OUTPUT_LIMIT: return "was stopped at its output limit";
	case SP_STATUS_KILLED: return "was cancelled";
	case SP_STATUS_SANDBOX_ERROR: return "did not start (the sandbox failed)";
	}
	return "ended";
}

/* The first violation of kind ("any" matches all), or NULL. */
static const struct sp_violation *find_violation(const struct sp_result *r,
						 const char *kind)
{
	for (size_t i = 0; i < r->n_violations; i++)
		if (!strcmp(kind, "any") ||
		    !strcmp(kind, sp_violation_kind_name(r->violations[i].kind)))
			return &r->violations[i];
	return NULL;
}

/* memmem over a buffer that may be NULL. */
static bool has_text(const char *buf, size_t len, const char *needle)
{
	return buf && memmem(buf, len, needle, strlen(needle)) != NULL;
}

/* JSON equality, but 6 and 6.0 are the same number. */
static bool json_same(json_t *a, json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (json_is_array(a) && json_is_array(b)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!json_same(json_array_get(a, i), json_array_get(b, i)))
				return false;
		return true;
	}
	if (json_is_object(a) && json_is_object(b)) {
		const char *k;
		json_t *v;
		if (json_object_size(a) != json_object_size(b))
			return false;
		json_object_foreach(a, k, v) {
			json_t *w = json_object_get(b, k);
			if (!w || !json_same(v, w))
				return false;
		}
		return true;
	}
	return json_equal(a, b);
}

/* The limit in force by name. */
static uint64_t limit_of(const struct sp_limits *l, const char *name)
{
	if (!strcmp(name, "cpu")) return l->cpu_ms;
	if (!strcmp(name, "wall")) return l->wall_ms;
	if (!strcmp(name, "memory")) return l->memory_bytes;
	if (!strcmp(name, "output")) return l->output_bytes;
	if (!strcmp(name, "disk")) return l->disk_bytes;
	return l->procs;
}

/* A limit's value for a person: "2 s", "256 MiB", "8". */
static void limit_words(const char *name, uint64_t v, char *buf, size_t len)
{
	if (!strcmp(name, "cpu") || !strcmp(name, "wall"))
		snprintf(buf, len, "%g s", (double)v / 1000.0);
	else if (!strcmp(name, "procs"))
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else if (v >= (1u << 20) && v % (1u << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(v >> 20));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)v);
}

/* The last non-empty line of stdout, at most 80 bytes, for a verdict
 * that says what the program printed without saying what was wanted. */
static void last_line(const struct sp_result *r, char *buf, size_t len)
{
	size_t e = r->out ? r->out_len : 0, s;

	while (e && (r->out[e - 1] == '\n' || r->out[e - 1] == '\r'))
		e--;
	s = e;
	while (s && r->out[s - 1] != '\n')
		s--;
	if (e == s)
		snprintf(buf, len, "nothing");
	else
		snprintf(buf, len, "\"%.*s\"", (int)(e - s > 80 ? 80 : e - s), r->out + s);
}

/* The number printed after label at or after *from in stdout: true with
 * *x, and *from moved past it; false when there is none. */
static bool number_after(const struct sp_result *r, const char *label, const char **from,
			 double *x)
{
	const char *end = r->out + r->out_len, *p = *from;
	size_t n = strlen(label);

	while (p < end && (p = memmem(p, (size_t)(end - p), label, n))) {
		char buf[64], *stop;
		size_t k = 0;
		p += n;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		while (p < end && k + 1 < sizeof buf && strchr("0123456789+-.eE", *p))
			buf[k++] = *p++;
		buf[k] = '\0';
		*x = strtod(buf, &stop);
		if (k && stop != buf) {
			*from = p;
			return true;
		}
	}
	return false;
}

/* A carry value for a verdict ("none" when absent), at most 60 bytes. */
static void carry_words(json_t *obj, const char *name, char *buf, size_t len)
{
	json_t *v = obj ? json_object_get(obj, name) : NULL;
	char *t = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	snprintf(buf, len, "%.60s", t ? t : "none");
	free(t);
}

/*
 * One condition judged: c against r. in tells the program and the
 * carry-in (received, parsed; NULL when none); hide keeps the wanted
 * answer out of why (an [again]'s answers are the learner's to find).
 * A kind's judge returns whether what it reads holds (before c->negate)
 * and, when the verdict is a failure, puts the reason in plain words
 * (without "not yet: ") into why.
 */
struct judge {
	const struct lesson_cond *c;
	const struct sp_result *r;
	const struct lesson_seen *in;
	json_t *received, *carry;
	bool hide;
	char *why;
	size_t len;
};

static bool judge_status(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	const struct sp_result *r = j->r;
	bool holds = (c->statuses >> r->status) & 1u;

	if (holds != c->negate)
		return holds;
	if (r->status == SP_STATUS_ERROR && r->err && r->err_len) {
		/* the exception's own last line says the most */
		size_t e = r->err_len;
		while (e && (r->err[e - 1] == '\n' || r->err[e - 1] == '\r'))
			e--;
		size_t s = e;
		while (s && r->err[s - 1] != '\n')
			s--;
		snprintf(j->why, j->len, "the run %s: %.*s", status_words(r->status),
			 (int)(e - s > 200 ? 200 : e - s), r->err + s);
	} else {
		snprintf(j->why, j->len, "the run %s", status_words(r->status));
	}
	return holds;
}

static bool judge_exit(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	bool holds = j->r->exit_code == c->exit_code;

	if (holds == c->negate)
		snprintf(j->why, j->len, "the program exits with %d%s%d", j->r->exit_code,
			 c->negate ? ", the lesson wants anything but " :
			 ", the lesson wants ", c->exit_code);
	return holds;
}

/* stdout has, stderr has */
static bool judge_has(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	const struct sp_result *r = j->r;
	bool out = c->kind == LC_STDOUT_HAS;
	bool holds = out ? has_text(r->out, r->out_len, c->arg)
			 : has_text(r->err, r->err_len, c->arg);
	char said[100];

	if (holds != c->negate)
		return holds;
	if (j->hide && out && !c->negate) {
		last_line(r, said, sizeof said);
		snprintf(j->why, j->len, "the output ends with %s, not the right answer", said);
	} else {
		snprintf(j->why, j->len, c->negate ? "the %s still shows \"%s\"" :
			 "the %s does not show \"%s\" yet",
			 out ? "output" : "error output", c->arg);
	}
	return holds;
}

static bool judge_source(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	bool holds = j->in && j->in->program && strstr(j->in->program, c->arg);

	if (holds == c->negate)
		snprintf(j->why, j->len, c->negate ? "the program still has \"%s\" in it" :
			 "the program does not have \"%s\" in it yet", c->arg);
	return holds;
}

/* Every number printed after the label is judged, not the first: a
 * program that prints the answers of every run ("primes: 216816",
 * "primes: 148933") has one of them wrong in each run. */
static bool judge_number(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	const char *from = j->r->out;
	double x = 0, wrong = 0;
	size_t found = 0, off = 0;

	while (from && number_after(j->r, c->arg, &from, &x)) {
		if (!(x >= c->want - c->tol && x <= c->want + c->tol) && !off++)
			wrong = x;
		found++;
	}
	bool holds = found && !off;
	if (holds != c->negate)
		return holds;
	if (!found)
		snprintf(j->why, j->len, "the output shows no number after \"%s\" yet", c->arg);
	else if (c->negate)
		snprintf(j->why, j->len, "the output says \"%s %.15g\", not the right answer",
			 c->arg, x);
	else if (j->hide || found > 1)
		/* which of several is right would tell the answer */
		snprintf(j->why, j->len, "the output says \"%s %.15g\"%s, not the right answer",
			 c->arg, wrong, found > 1 ? " among others" : "");
	else
		snprintf(j->why, j->len, "the output says \"%s %.15g\", the lesson wants %.15g "
			 "(give or take %.15g)", c->arg, wrong, c->want, c->tol);
	return holds;
}

static bool judge_picture(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	const struct sp_result *r = j->r;
	const struct sp_file *f = NULL;
	char bad[200] = "";
	bool holds = false;

	for (size_t i = 0; i < r->n_files && !holds; i++) {
		struct image img;
		if (!r->files[i].path || fnmatch(c->arg, r->files[i].path, 0))
			continue;
		f = &r->files[i];
		if (!f->kept) {
			snprintf(bad, sizeof bad, "it was not kept (%s)",
				 f->skipped ? f->skipped : "no copy");
			continue;
		}
		if (image_load(f->kept, NULL, &img, bad, sizeof bad) == 0) {
			image_free(&img);
			holds = true;
		}
	}
	if (holds != c->negate)
		return holds;
	if (c->negate)
		snprintf(j->why, j->len, "the run still leaves a picture %s", c->arg);
	else if (!f)
		snprintf(j->why, j->len, "the run leaves no file %s in its work dir", c->arg);
	else
		snprintf(j->why, j->len, "%s is not a picture that opens: %s", f->path, bad);
	return holds;
}

static bool judge_like(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	const struct sp_result *r = j->r;
	char *o = malloc(r->out_len + 1);
	bool holds = false;

	if (o) {
		if (r->out_len)
			memcpy(o, r->out, r->out_len);
		o[r->out_len] = '\0';
		/* an embedded NUL ends the text fnmatch sees: fine */
		holds = fnmatch(c->arg, o, 0) == 0;
		free(o);
	}
	if (holds == c->negate)
		snprintf(j->why, j->len, c->negate ? "the output still looks like %s" :
			 "the output does not look like %s yet", c->arg);
	return holds;
}

static bool judge_violation(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	const struct sp_violation *v = find_violation(j->r, c->arg);
	bool holds = v != NULL;

	if (holds != c->negate)
		return holds;
	if (!v)
		snprintf(j->why, j->len, "the run shows no %s violation yet",
			 strcmp(c->arg, "any") ? c->arg : "");
	else if (v->line > 0)
		snprintf(j->why, j->len, "the program still %s at line %d",
			 kind_doing(sp_violation_kind_name(v->kind)), v->line);
	else
		snprintf(j->why, j->len, "the program still %s (%s)",
			 kind_doing(sp_violation_kind_name(v->kind)),
			 v->what ? v->what : "see Violations");
	return holds;
}

/* The carry value c wants (the caller's to free; NULL for any value): its
 * JSON, or with "received", what came in (0 when nothing did) and N more. */
static json_t *carry_wanted(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	json_t *want = c->value ? json_loads(c->value, JSON_DECODE_ANY, NULL) : NULL;

	if (c->received && want) {
		json_t *was = j->received ? json_object_get(j->received, c->arg) : NULL;
		double base = json_is_number(was) ? json_number_value(was) : 0;
		json_t *sum = json_real(base + json_number_value(want));
		json_decref(want);
		want = sum;
	}
	return want;
}

/* Why the value carried (got) is not the one wanted. */
static void carry_mismatch(const struct judge *j, json_t *got)
{
	const struct lesson_cond *c = j->c;
	char *g = json_dumps(got, JSON_ENCODE_ANY | JSON_COMPACT);
	char a[64];

	carry_words(j->received, c->arg, a, sizeof a);
	if (c->received)
		snprintf(j->why, j->len, "the run received %s = %s and carried %s = %.60s; "
			 "each run carries what it received and %s more", c->arg, a, c->arg,
			 g ? g : "?", c->value);
	else if (j->hide || c->negate)
		snprintf(j->why, j->len, "carry %s is %.80s%s", c->arg, g ? g : "?",
			 c->negate ? "" : ", not the right answer");
	else
		snprintf(j->why, j->len, "carry %s is %.80s, the lesson wants %.80s (the run "
			 "received %s = %s)", c->arg, g ? g : "?", c->value, c->arg, a);
	free(g);
}

static bool judge_carry(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	json_t *got = j->carry ? json_object_get(j->carry, c->arg) : NULL;
	json_t *want = carry_wanted(j);
	bool holds;

	if (!got) {
		holds = false;
		if (!c->negate)
			snprintf(j->why, j->len, "the run does not carry %s forward yet "
				 "(carry(%s=...))", c->arg, c->arg);
	} else if (!c->value) {
		holds = true;
		if (c->negate)
			snprintf(j->why, j->len, "the run still carries %s", c->arg);
	} else {
		holds = want && json_same(got, want);
		if (holds == c->negate)
			carry_mismatch(j, got);
	}
	json_decref(want);
	return holds;
}

/* file GLOB, kept GLOB */
static bool judge_file(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	const struct sp_result *r = j->r;
	bool holds = false;

	for (size_t i = 0; i < r->n_files && !holds; i++)
		holds = r->files[i].path && fnmatch(c->arg, r->files[i].path, 0) == 0 &&
			(c->kind == LC_FILE || r->files[i].kept);
	if (holds == c->negate)
		snprintf(j->why, j->len, c->negate ? "the run still leaves a file %s" :
			 c->kind == LC_FILE ? "the run leaves no file %s in its work dir" :
			 "no file %s was kept from the run", c->arg);
	return holds;
}

static bool judge_limit(const struct judge *j)
{
	const struct lesson_cond *c = j->c;
	uint64_t have = limit_of(&j->r->limits, c->arg);
	bool holds = c->op == LOP_LE ? have <= c->num : c->op == LOP_GE ?
		     have >= c->num : have == c->num;
	char a[64], b[64];

	if (holds == c->negate) {
		limit_words(c->arg, have, a, sizeof a);
		limit_words(c->arg, c->num, b, sizeof b);
		snprintf(j->why, j->len, "the %s limit is %s; the lesson wants %s%s", c->arg,
			 a, c->op == LOP_LE ? "at most " : c->op == LOP_GE ? "at least " : "", b);
	}
	return holds;
}

/* Each kind's judge, by the kind (lesson.h). */
static bool (*const judges[])(const struct judge *) = {
	[LC_STATUS] = judge_status,
	[LC_EXIT] = judge_exit,
	[LC_STDOUT_HAS] = judge_has,
	[LC_STDOUT_LIKE] = judge_like,
	[LC_STDERR_HAS] = judge_has,
	[LC_VIOLATION] = judge_violation,
	[LC_CARRY] = judge_carry,
	[LC_FILE] = judge_file,
	[LC_KEPT] = judge_file,
	[LC_LIMIT] = judge_limit,
	[LC_SOURCE_HAS] = judge_source,
	[LC_PICTURE] = judge_picture,
	[LC_NUMBER] = judge_number,
};

/*
 * Does condition c hold for r? When it does not, why gets the reason in
 * plain words (without "not yet: "); the arguments are struct judge's.
 */
static bool judge_one(const struct lesson_cond *c, const struct sp_result *r,
		      const struct lesson_seen *in, json_t *received,
		      json_t *carry, bool hide, char *why, size_t len)
{
	const struct judge j = { c, r, in, received, carry, hide, why, len };
	bool holds = false;

	why[0] = '\0';
	if ((size_t)c->kind < SP_ARRAY_SIZE(judges) && judges[c->kind])
		holds = judges[c->kind](&j);
	return holds != c->negate;
}

/* "not yet: " and why, for first, the first condition that failed (its
 * reason in words, why): the teacher's words where it has them. */
static void say_not_yet(const struct lesson_cond *first, const char *why,
			const struct sp_result *r, size_t pass, size_t n, const char *pre,
			char *msg, size_t msglen)
{
	if (first->say) {
		/* the teacher's words, and where the violation was */
		const struct sp_violation *v = first->kind == LC_VIOLATION ?
					       find_violation(r, first->arg) : NULL;
		if (v && v->line > 0)
			snprintf(msg, msglen, "not yet: %s%s at line %d (%zu of %zu checks pass)",
				 pre, first->say, v->line, pass, n);
		else if ((first->kind == LC_CARRY && first->value) ||
			 first->kind == LC_PICTURE)
			/* what the run received and carried, or why the picture
			 * does not open, after the teacher's words */
			snprintf(msg, msglen, "not yet: %s%s - %s (%zu of %zu checks pass)",
				 pre, first->say, why, pass, n);
		else
			snprintf(msg, msglen, "not yet: %s%s (%zu of %zu checks pass)",
				 pre, first->say, pass, n);
	} else {
		snprintf(msg, msglen, "not yet: %s%s (%zu of %zu checks pass)",
			 pre, why, pass, n);
	}
}

/* Judge conds against r; "not yet: " and the first that fails into msg
 * (prefixed by pre, when not NULL). */
/* One condition's verdict for a grader; an [again]'s by its line only. */
static void record(struct lesson_checks *rec, const struct lesson_cond *c, bool again,
		   bool held, const char *why)
{
	struct lesson_check *k;

	if (rec->n >= LESSON_CHECKS_MAX)
		return;
	k = &rec->v[rec->n++];
	k->line = c->line;
	k->again = again;
	k->held = held;
	snprintf(k->check, sizeof k->check, "%s", again || !c->text ? "" : c->text);
	if (held)
		k->why[0] = '\0';
	else
		snprintf(k->why, sizeof k->why, "%s", c->say ? c->say : why);
}

static bool judge_conds(const struct lesson_cond *conds, size_t n,
			const struct lesson_seen *in, const struct sp_result *r,
			bool hide, const char *pre, char *msg, size_t msglen)
{
	json_t *carry = r->carry_out ? json_loads(r->carry_out, 0, NULL) : NULL;
	json_t *received = in && in->carry_in ? json_loads(in->carry_in, 0, NULL) : NULL;
	char why[400];
	size_t pass = 0;
	const struct lesson_cond *first = NULL;
	char first_why[sizeof why] = "";

	if (!json_is_object(carry)) {
		json_decref(carry);
		carry = NULL;
	}
	if (!json_is_object(received)) {
		json_decref(received);
		received = NULL;
	}
	if (!pre)
		pre = "";
	if (r->status == SP_STATUS_SANDBOX_ERROR) {
		snprintf(msg, msglen, "not yet: %sthe run did not start (%s)", pre,
			 r->error[0] ? r->error : "the sandbox failed");
		json_decref(carry);
		json_decref(received);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		bool held = judge_one(&conds[i], r, in, received, carry, hide, why, sizeof why);
		if (held) {
			pass++;
		} else if (!first) {
			first = &conds[i];
			memcpy(first_why, why, sizeof why);
		}
		if (in && in->rec)
			record(in->rec, &conds[i], hide, held, why);
	}
	json_decref(carry);
	json_decref(received);
	if (!first) {
		snprintf(msg, msglen, "passed");
		return true;
	}
	say_not_yet(first, first_why, r, pass, n, pre, msg, msglen);
	return false;
}

bool lesson_judge_seen(const struct lesson *l, const struct lesson_seen *in,
		       const struct sp_result *r, char *msg, size_t msglen)
{
	return judge_conds(l->conds, l->n_conds, in, r, false, NULL, msg, msglen);
}

bool lesson_judge(const struct lesson *l, const struct sp_result *r,
		  char *msg, size_t msglen)
{
	return lesson_judge_seen(l, NULL, r, msg, msglen);
}

void lesson_again_words(const struct lesson *l, size_t k, char *buf, size_t len)
{
	const struct lesson_again *g = &l->again[k];
	json_t *carry = g->carry ? json_loads(g->carry, 0, NULL) : NULL;
	const char *name;
	json_t *v;
	size_t n = 0, names = 0;

	buf[0] = '\0';
	/* the names only: the values are the hidden inputs (a verdict that
	 * said N=2000000 let a lookup table pass) */
	json_object_foreach(carry, name, v) {
		if (n >= len)
			break;
		n += (size_t)snprintf(buf + n, len - n, "%s%.40s", names++ ? ", " : "another ",
				      name);
		(void)v;
	}
	json_decref(carry);
	for (size_t i = 0; i < g->n_swap && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%sanother %s", n ? ", " : "",
				      g->swap[i].name);
	if (g->stdin_text && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%sother stdin", n ? ", " : "");
	if (!buf[0])
		snprintf(buf, len, "a run of its own");
}

bool lesson_again_judge(const struct lesson *l, size_t k,
			const struct lesson_seen *in, const struct sp_result *r,
			char *msg, size_t msglen)
{
	char pre[300], inputs[240];

	lesson_again_words(l, k, inputs, sizeof inputs);
	snprintf(pre, sizeof pre, "run again on other inputs (%s), ", inputs);
	return judge_conds(l->again[k].conds, l->again[k].n_conds, in, r, true, pre,
			   msg, msglen);
}
