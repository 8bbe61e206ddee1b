/* SPDX-License-Identifier: MIT */
/*
 * lesson_parse.c - one lesson file into a struct lesson.
 *
 * The format (docs/lessons.md has a full example) is line-based:
 *
 *   title = Bring the data with you     header: key = value lines
 *   cpu = 2s                            (title, constraint, runs, and
 *   [goal]                              the limits cpu wall memory
 *   text ...                            output disk procs)
 *   [start]      the starting program
 *   [hint]       one hint (repeatable, shown one at a time)
 *   [solution]   the reference solution
 *   [file NAME]  a file attached to every run (repeatable)
 *   [check]      one condition a line, all must hold
 *   [data NAME]  a file attached only where an [again] swaps it in
 *   [again]      the program once more on other inputs ("with carry
 *                JSON", "with stdin TEXT", "with file NAME DATA"),
 *                then its own conditions (repeatable)
 *
 * A section header is a line that is only "[word]" or "[file NAME]"; the
 * lines up to the next header are its text, with blank lines at either
 * end dropped. '#' starts a comment only in the header and in [check]
 * (in a program it is Python's own). Every error names FILE:LINE. A
 * limit over the lesson maxima (limit_fields.c) is lowered to it and
 * said in the lesson's capped.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <jansson.h>
#include <utf8proc.h>

#include "lesson/lesson.h"
#include "config/limit_fields.h"
#include "text/sanitize.h"
#include "buf.h"
#include "banned.h"

enum section { SEC_HEAD, SEC_GOAL, SEC_START, SEC_HINT, SEC_SOLUTION,
	       SEC_FILE, SEC_CHECK, SEC_AGAIN };

struct parser {
	const char *source;
	struct lesson *l;
	char *err;
	size_t errlen;
	enum section sec;
	int sec_line;           /* the current section's header line */
	char **text;            /* where the section's text goes */
	size_t *text_len;       /* for [file]: its length */
	const char *body;       /* first content line of the section */
	const char *body_end;   /* end of its last non-blank line */
	bool seen_check;
};

static int fail(struct parser *p, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(p->err, p->errlen, "%s:%d: ", p->source, line);

	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* A copy of s[0..n) NUL-terminated, or NULL. */
static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* Trim spaces and tabs at both ends of [*s, *e). */
static void trim(const char **s, const char **e)
{
	while (*s < *e && (**s == ' ' || **s == '\t'))
		(*s)++;
	while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
		(*e)--;
}

/* Is the whole text valid UTF-8 without control characters (tab, CR and
 * newline aside)? A lesson's text goes to the screen as it is, so an
 * escape sequence must never be in it. 0, or the bad line. */
static int bad_text_line(const char *t, size_t len)
{
	int line = 1;
	size_t i = 0;

	while (i < len) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)t + i,
						      (utf8proc_ssize_t)(len - i), &c);
		if (n <= 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
		    (c >= 0x7f && c <= 0x9f))
			return line;
		if (c == '\n')
			line++;
		i += (size_t)n;
	}
	return 0;
}

/* The section's text is complete: store it. Programs and files end in
 * a newline, as an editor saves them; an empty goal or hint is an error. */
static int end_section(struct parser *p)
{
	size_t n;
	bool nl;
	char *t;

	if (!p->text)
		return 0;
	n = p->body && p->body_end > p->body ? (size_t)(p->body_end - p->body) : 0;
	if (!n && p->sec != SEC_FILE)
		return fail(p, p->sec_line, "this section is empty");
	nl = n && (p->sec == SEC_START || p->sec == SEC_SOLUTION || p->sec == SEC_FILE);
	/* a [data] is a [file] for the stager: SEC_FILE covers both */
	t = malloc(n + 2);
	if (!t)
		return fail(p, p->sec_line, "out of memory");
	if (n)
		memcpy(t, p->body, n);
	if (nl)
		t[n++] = '\n';
	t[n] = '\0';
	*p->text = t;
	if (p->text_len)
		*p->text_len = n;
	p->text = NULL;
	p->text_len = NULL;
	p->body = p->body_end = NULL;
	return 0;
}

/* A name a file may have in the work dir: what sp_files_in_check takes. */
static bool good_file_name(const char *s, size_t n)
{
	if (n == 0 || n > 255 || (n == 1 && s[0] == '.') ||
	    (n == 2 && s[0] == '.' && s[1] == '.') ||
	    (n == 10 && !memcmp(s, "carry.json", 10)))
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

/* "[name]" or "[file NAME]": start a new section. */
/* A section's opening, by its name (n bytes): 0, or -1 with fail() said. */
typedef int section_fn(struct parser *p, int line, const char *name, size_t n);

/* [goal], [start], [solution]: one each, text */
static int begin_text(struct parser *p, int line, const char *name, size_t n)
{
	struct lesson *l = p->l;
	char **slot = name[0] == 'g' ? &l->goal : name[1] == 't' ? &l->start : &l->solution;

	if (*slot)
		return fail(p, line, "a second [%.*s] section (a lesson has one)", (int)n, name);
	p->sec = name[0] == 'g' ? SEC_GOAL : name[1] == 't' ? SEC_START : SEC_SOLUTION;
	p->text = slot;
	return 0;
}

static int begin_hint(struct parser *p, int line, const char *name, size_t n)
{
	struct lesson *l = p->l;

	(void)name;
	(void)n;
	if (l->n_hints == LESSON_MAX_HINTS)
		return fail(p, line, "more than %d hints", LESSON_MAX_HINTS);
	p->sec = SEC_HINT;
	p->text = &l->hints[l->n_hints++];
	return 0;
}

static int begin_check(struct parser *p, int line, const char *name, size_t n)
{
	(void)name;
	(void)n;
	if (p->seen_check)
		return fail(p, line, "a second [check] section (put every condition in one)");
	p->seen_check = true;
	p->sec = SEC_CHECK;
	p->text = NULL;
	return 0;
}

static int begin_again(struct parser *p, int line, const char *name, size_t n)
{
	struct lesson *l = p->l;
	struct lesson_again *g;

	(void)name;
	(void)n;
	if (l->n_again == LESSON_MAX_AGAIN)
		return fail(p, line, "more than %d [again] sections", LESSON_MAX_AGAIN);
	g = realloc(l->again, (l->n_again + 1) * sizeof *g);
	if (!g)
		return fail(p, line, "out of memory");
	l->again = g;
	memset(&g[l->n_again], 0, sizeof *g);
	g[l->n_again++].line = line;
	p->sec = SEC_AGAIN;
	p->text = NULL;
	return 0;
}

/* [file NAME], [data NAME]: a file of the work dir, or one to swap in */
static int begin_file(struct parser *p, int line, const char *name, size_t n)
{
	struct lesson *l = p->l;
	const char *f = name + 5, *fe = name + n;
	bool data = name[0] == 'd';
	struct lesson_file *set = data ? l->data : l->files;
	size_t *count = data ? &l->n_data : &l->n_files;

	trim(&f, &fe);
	if (!good_file_name(f, (size_t)(fe - f)))
		return fail(p, line, "'%.*s' cannot be a file name in the work dir (no '/', "
			    "not . or .., not carry.json)", (int)(fe - f), f);
	for (size_t i = 0; i < *count; i++)
		if (strlen(set[i].name) == (size_t)(fe - f) &&
		    !memcmp(set[i].name, f, (size_t)(fe - f)))
			return fail(p, line, "a second [%s %.*s]", data ? "data" : "file",
				    (int)(fe - f), f);
	if (*count == (data ? LESSON_MAX_DATA : LESSON_MAX_FILES))
		return fail(p, line, "more than %d %s sections",
			    data ? LESSON_MAX_DATA : LESSON_MAX_FILES, data ? "[data]" : "[file]");
	struct lesson_file *lf = &set[*count];
	lf->name = dup_n(f, (size_t)(fe - f));
	if (!lf->name)
		return fail(p, line, "out of memory");
	(*count)++;
	p->sec = SEC_FILE;
	p->text = &lf->text;
	p->text_len = &lf->len;
	return 0;
}

/* The sections a lesson has, by name ([file NAME] and [data NAME] take
 * a name: begin_section finds them by their first word). */
static const struct {
	const char *name;
	section_fn *begin;
} sections[] = {
	{ "goal", begin_text },
	{ "start", begin_text },
	{ "solution", begin_text },
	{ "hint", begin_hint },
	{ "check", begin_check },
	{ "again", begin_again },
};

static int begin_section(struct parser *p, int line, const char *s, const char *e)
{
	const char *name = s + 1, *ne = e - 1;

	if (end_section(p) < 0)
		return -1;
	trim(&name, &ne);
	size_t n = (size_t)(ne - name);
	p->sec_line = line;
	p->text_len = NULL;
	for (size_t i = 0; i < SP_ARRAY_SIZE(sections); i++)
		if (n == strlen(sections[i].name) && !memcmp(name, sections[i].name, n))
			return sections[i].begin(p, line, name, n);
	if (n > 5 && (!memcmp(name, "file", 4) || !memcmp(name, "data", 4)) &&
	    (name[4] == ' ' || name[4] == '\t'))
		return begin_file(p, line, name, n);
	return fail(p, line, "unknown section [%.*s] (sections: [goal] [start] [hint] "
		    "[solution] [file NAME] [check] [again] [data NAME])", (int)n, name);
}

/* Parse a limit's value for name into *out through the one table of
 * limits (limit_fields.c: the same units and floors as the command line
 * and the config file). 0, -1 for a bad value, -2 for no such limit. */
static int parse_limit(const char *name, const char *v, uint64_t *out)
{
	int id = limit_find(name);
	struct sp_limits l;
	char err[256];

	if (id < 0)
		return -2;
	sp_limits_default(&l);
	if (limit_parse((enum limit_id)id, v, &l, err, sizeof err) < 0)
		return -1;
	*out = limit_get(&l, (enum limit_id)id);
	return 0;
}

/* Store a parsed limit by name. 0, or -1 for an unknown name. */
static int set_limit(struct lesson_limits *ll, const char *name, uint64_t v)
{
	if (!strcmp(name, "cpu")) ll->cpu_ms = v;
	else if (!strcmp(name, "wall")) ll->wall_ms = v;
	else if (!strcmp(name, "memory")) ll->memory_bytes = v;
	else if (!strcmp(name, "output")) ll->output_bytes = v;
	else if (!strcmp(name, "disk")) ll->disk_bytes = v;
	else if (!strcmp(name, "procs")) ll->procs = (uint32_t)v;
	else return -1;
	return 0;
}

/* One "key = value" line of the header. */
static int head_line(struct parser *p, int line, const char *s, const char *e)
{
	struct lesson *l = p->l;
	const char *eq = memchr(s, '=', (size_t)(e - s));
	char key[32], val[512];
	uint64_t v;

	if (!eq)
		return fail(p, line, "expected 'key = value' (title, constraint, "
			    "runs, cpu, wall, memory, output, disk, procs) or a "
			    "[section]");
	const char *ks = s, *ke = eq, *vs = eq + 1, *ve = e;
	trim(&ks, &ke);
	trim(&vs, &ve);
	if ((size_t)(ke - ks) >= sizeof key || ke == ks)
		return fail(p, line, "a key is missing before '='");
	if ((size_t)(ve - vs) >= sizeof val)
		return fail(p, line, "the value is longer than %zu bytes", sizeof val - 1);
	if (ve == vs)
		return fail(p, line, "no value after '='");
	memcpy(key, ks, (size_t)(ke - ks));
	key[ke - ks] = '\0';
	memcpy(val, vs, (size_t)(ve - vs));
	val[ve - vs] = '\0';

	if (!strcmp(key, "title") || !strcmp(key, "constraint")) {
		char **slot = key[0] == 't' ? &l->title : &l->constraint;
		if (*slot)
			return fail(p, line, "%s is given twice", key);
		*slot = sanitize_dup(val, true); /* a bidi override shown, not obeyed */
		return *slot ? 0 : fail(p, line, "out of memory");
	}
	if (!strcmp(key, "runs")) {
		char *end;
		unsigned long n = strtoul(val, &end, 10);
		if (*end || !n || n > LESSON_MAX_RUNS || val[0] == '-')
			return fail(p, line, "runs must be 1 to %d, not '%s'",
				    LESSON_MAX_RUNS, val);
		l->runs = (unsigned)n;
		return 0;
	}
	int rc = parse_limit(key, val, &v);
	if (rc == -2)
		return fail(p, line, "unknown key '%s' (keys: title, constraint, "
			    "runs, cpu, wall, memory, output, disk, procs)", key);
	if (rc < 0)
		return fail(p, line, "bad value '%s' for %s (like cpu = 2s, "
			    "memory = 256M, procs = 8)", val, key);
	/* a lesson is someone else's file: it may not raise a limit past
	 * the lesson maxima (limit_fields.c), and what it asked is said */
	limit_lesson_cap((enum limit_id)limit_find(key), val, &v, l->capped, sizeof l->capped);
	set_limit(&l->limits, key, v);
	return 0;
}

/* The enum sp_status named w[0..n), or -1. */
static int status_bit(const char *w, size_t n)
{
	for (int s = SP_STATUS_OK; s <= SP_STATUS_SANDBOX_ERROR; s++) {
		const char *name = sp_status_name((enum sp_status)s);
		if (strlen(name) == n && !memcmp(name, w, n))
			return s;
	}
	return -1;
}

/* Is k a violation kind's name (as in the JSON result), or "any"? */
static bool known_kind(const char *k)
{
	if (!strcmp(k, "any"))
		return true;
	for (int i = SP_VIOL_NETWORK; i <= SP_VIOL_CARRY; i++)
		if (!strcmp(k, sp_violation_kind_name((enum sp_violation_kind)i)))
			return true;
	return false;
}

/* Is s a Python identifier (the names carry() takes)? ASCII is enough
 * for a lesson's check. */
static bool identifier(const char *s)
{
	if (!s[0] || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* The next word of [*s, e) into w (NUL-terminated); false when none. */
static bool word(const char **s, const char *e, char *w, size_t wlen)
{
	const char *b = *s;
	while (b < e && (*b == ' ' || *b == '\t'))
		b++;
	const char *x = b;
	while (x < e && *x != ' ' && *x != '\t')
		x++;
	if (x == b || (size_t)(x - b) >= wlen)
		return false;
	memcpy(w, b, (size_t)(x - b));
	w[x - b] = '\0';
	*s = x;
	return true;
}

/* "LABEL VALUE within TOL" of a number condition into c. */
static bool number_args(const char *s, const char *e, struct lesson_cond *c)
{
	const char *w[3], *we[3];
	const char *q = e;
	char buf[64], *end;

	/* the last three words, from the right */
	for (int k = 2; k >= 0; k--) {
		while (q > s && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		we[k] = q;
		while (q > s && q[-1] != ' ' && q[-1] != '\t')
			q--;
		w[k] = q;
		if (w[k] == we[k] || (size_t)(we[k] - w[k]) >= sizeof buf)
			return false;
	}
	if (we[1] - w[1] != 6 || memcmp(w[1], "within", 6))
		return false;
	snprintf(buf, sizeof buf, "%.*s", (int)(we[0] - w[0]), w[0]);
	c->want = strtod(buf, &end);
	if (*end)
		return false;
	snprintf(buf, sizeof buf, "%.*s", (int)(we[2] - w[2]), w[2]);
	c->tol = strtod(buf, &end);
	if (*end || !(c->tol >= 0))
		return false;
	const char *ls = s, *le = w[0];
	trim(&ls, &le);
	if (ls == le)
		return false;
	c->arg = dup_n(ls, (size_t)(le - ls));
	return true;
}

/* with carry {JSON}: what the run receives */
static int with_carry(struct parser *p, int line, const char *s, const char *e)
{
	struct lesson_again *g = &p->l->again[p->l->n_again - 1];
	json_error_t je;
	json_t *j = json_loadb(s, (size_t)(e - s), 0, &je);
	bool obj = json_is_object(j);

	json_decref(j);
	if (g->carry)
		return fail(p, line, "a second 'with carry' in one [again]");
	if (!obj)
		return fail(p, line, "'with carry' takes a JSON object, like {\"N\": 1000}");
	g->carry = dup_n(s, (size_t)(e - s));
	return g->carry ? 0 : fail(p, line, "out of memory");
}

/* with stdin TEXT: one line of text; \n in it is a newline, and one ends it */
static int with_stdin(struct parser *p, int line, const char *s, const char *e)
{
	struct lesson_again *g = &p->l->again[p->l->n_again - 1];
	char *t = malloc((size_t)(e - s) + 2);
	size_t n = 0;

	if (g->stdin_text) {
		free(t);
		return fail(p, line, "a second 'with stdin' in one [again]");
	}
	if (!t)
		return fail(p, line, "out of memory");
	for (const char *q = s; q < e; q++) {
		if (q[0] == '\\' && q + 1 < e && q[1] == 'n') {
			t[n++] = '\n';
			q++;
		} else {
			t[n++] = *q;
		}
	}
	t[n++] = '\n';
	t[n] = '\0';
	g->stdin_text = t;
	g->stdin_len = n;
	return 0;
}

/* with file NAME DATA: a [data DATA] in place of [file NAME]. -2: not
 * that form. */
static int with_file(struct parser *p, int line, const char *s, const char *e)
{
	struct lesson *l = p->l;
	struct lesson_again *g = &l->again[l->n_again - 1];
	char name[256], data[256], more[16];
	size_t fi, di;

	if (!word(&s, e, name, sizeof name) || !word(&s, e, data, sizeof data) ||
	    word(&s, e, more, sizeof more))
		return -2;
	for (fi = 0; fi < l->n_files && strcmp(l->files[fi].name, name); fi++)
		;
	for (di = 0; di < l->n_data && strcmp(l->data[di].name, data); di++)
		;
	if (fi == l->n_files)
		return fail(p, line, "no [file %s] above for this [again] to swap", name);
	if (di == l->n_data)
		return fail(p, line, "no [data %s] above to swap in", data);
	for (size_t i = 0; i < g->n_swap; i++)
		if (!strcmp(g->swap[i].name, name))
			return fail(p, line, "%s is swapped twice", name);
	g->swap[g->n_swap].name = dup_n(name, strlen(name));
	if (!g->swap[g->n_swap].name)
		return fail(p, line, "out of memory");
	g->swap[g->n_swap++].data = di;
	return 0;
}

/* One "with ..." line of [again]: its inputs. */
static int with_line(struct parser *p, int line, const char *s, const char *e)
{
	char w[16];
	const char *rest, *rend;
	int rc = -2;

	if (word(&s, e, w, sizeof w) && word(&s, e, w, sizeof w)) {
		rest = s;
		rend = e;
		trim(&rest, &rend);
		if (!strcmp(w, "carry"))
			rc = with_carry(p, line, rest, rend);
		else if (!strcmp(w, "stdin"))
			rc = with_stdin(p, line, rest, rend);
		else if (!strcmp(w, "file"))
			rc = with_file(p, line, s, e);
	}
	if (rc != -2)
		return rc;
	return fail(p, line, "not an input of [again]; one of: with carry {JSON}, "
		    "with stdin TEXT (\\n for a newline), with file NAME DATA (a "
		    "[data DATA] section in place of [file NAME])");
}

/*
 * The words of one condition after its name ("status", "carry", ...):
 * s moves along them to e; rest..rend is all of them, trimmed. A kind's
 * parser fills c from them and says COND_OK, COND_BAD (not a condition:
 * the caller lists the forms) or COND_REFUSED (fail() has said why).
 */
struct cond_words {
	struct parser *p;
	int line;
	const char *name;
	const char *s, *e;
	const char *rest, *rend;
};

enum { COND_OK = 0, COND_BAD = -1, COND_REFUSED = -2 };

static int cond_status(struct cond_words *cw, struct lesson_cond *c)
{
	char st[32];

	c->kind = LC_STATUS;
	while (word(&cw->s, cw->e, st, sizeof st)) {
		int b = status_bit(st, strlen(st));
		if (b < 0) {
			fail(cw->p, cw->line, "unknown status '%s' (ok, error, cpu_limit, "
			     "wall_limit, memory_limit, output_limit, killed)", st);
			return COND_REFUSED;
		}
		c->statuses |= 1u << b;
	}
	return c->statuses ? COND_OK : COND_BAD;
}

static int cond_exit(struct cond_words *cw, struct lesson_cond *c)
{
	char num[16], *end;

	c->kind = LC_EXIT;
	if (!word(&cw->s, cw->e, num, sizeof num))
		return COND_BAD;
	long v = strtol(num, &end, 10);
	if (*end || v < 0 || v > 255)
		return COND_BAD;
	c->exit_code = (int)v;
	return COND_OK;
}

/* stdout|stderr|source has|lacks TEXT, stdout like GLOB, stdout number ... */
static int cond_stream(struct cond_words *cw, struct lesson_cond *c)
{
	char how[16];
	bool out = cw->name[3] == 'o', src = cw->name[1] == 'o';
	const char *rest, *rend;

	if (!word(&cw->s, cw->e, how, sizeof how))
		return COND_BAD;
	if (!strcmp(how, "has") || !strcmp(how, "lacks")) {
		c->kind = src ? LC_SOURCE_HAS : out ? LC_STDOUT_HAS : LC_STDERR_HAS;
		c->negate ^= how[0] == 'l';
	} else if (!strcmp(how, "like") && out) {
		c->kind = LC_STDOUT_LIKE;
	} else if (!strcmp(how, "number") && out) {
		c->kind = LC_NUMBER;
		return number_args(cw->s, cw->e, c) ? COND_OK : COND_BAD;
	} else {
		return COND_BAD;
	}
	rest = cw->s;
	rend = cw->e;
	trim(&rest, &rend);
	if (rend == rest)
		return COND_BAD;
	c->arg = dup_n(rest, (size_t)(rend - rest));
	return COND_OK;
}

static int cond_violation(struct cond_words *cw, struct lesson_cond *c)
{
	size_t rn = (size_t)(cw->rend - cw->rest);

	c->kind = LC_VIOLATION;
	c->arg = dup_n(rn ? cw->rest : "any", rn ? rn : 3);
	if (c->arg && !known_kind(c->arg)) {
		fail(cw->p, cw->line, "unknown violation kind '%s' (network, filesystem, "
		     "process, syscall, cpu, wall, memory, output, disk, carry, any)", c->arg);
		return COND_REFUSED;
	}
	return COND_OK;
}

/* After "carry NAME =": "received + N" is what came in, and N more. */
static bool carry_received(const char **rest, const char **rend, struct lesson_cond *c)
{
	const char *q, *qe = *rend;

	if (*rend - *rest <= 8 || memcmp(*rest, "received", 8))
		return true;
	q = *rest + 8;
	trim(&q, &qe);
	if (q == qe || *q != '+')
		return false;
	q++;
	trim(&q, &qe);
	*rest = q;
	*rend = qe;
	c->received = true;
	return *rend != *rest;
}

/* carry NAME [= JSON | = received + N] */
static int cond_carry(struct cond_words *cw, struct lesson_cond *c)
{
	char name[64];
	const char *rest, *rend;

	c->kind = LC_CARRY;
	if (!word(&cw->s, cw->e, name, sizeof name) || !identifier(name))
		return COND_BAD;
	c->arg = dup_n(name, strlen(name));
	rest = cw->s;
	rend = cw->e;
	trim(&rest, &rend);
	if (rend == rest)
		return COND_OK;
	if (*rest != '=')
		return COND_BAD;
	rest++;
	trim(&rest, &rend);
	if (rend == rest || !carry_received(&rest, &rend, c))
		return COND_BAD;
	c->value = dup_n(rest, (size_t)(rend - rest));
	json_t *j = c->value ? json_loads(c->value, JSON_DECODE_ANY, NULL) : NULL;
	bool ok = j != NULL && (!c->received || json_is_number(j));
	json_decref(j);
	if (c->value && !ok) {
		fail(cw->p, cw->line, "the value after '=' is not JSON: %s", c->value);
		return COND_REFUSED;
	}
	return COND_OK;
}

/* file GLOB, kept GLOB, picture GLOB */
static int cond_glob(struct cond_words *cw, struct lesson_cond *c)
{
	size_t rn = (size_t)(cw->rend - cw->rest);

	c->kind = cw->name[0] == 'f' ? LC_FILE : cw->name[0] == 'k' ? LC_KEPT : LC_PICTURE;
	if (!rn)
		return COND_BAD;
	c->arg = dup_n(cw->rest, rn);
	return COND_OK;
}

/* limit NAME <=|>=|= VALUE */
static int cond_limit(struct cond_words *cw, struct lesson_cond *c)
{
	char name[16], op[4], val[64], more[64];

	c->kind = LC_LIMIT;
	if (!word(&cw->s, cw->e, name, sizeof name) || !word(&cw->s, cw->e, op, sizeof op) ||
	    !word(&cw->s, cw->e, val, sizeof val) || word(&cw->s, cw->e, more, sizeof more))
		return COND_BAD;
	if (!strcmp(op, "<=")) c->op = LOP_LE;
	else if (!strcmp(op, ">=")) c->op = LOP_GE;
	else if (!strcmp(op, "=")) c->op = LOP_EQ;
	else return COND_BAD;
	int rc = parse_limit(name, val, &c->num);
	if (rc == -2) {
		fail(cw->p, cw->line, "unknown limit '%s' (cpu, wall, memory, output, disk, "
		     "procs)", name);
		return COND_REFUSED;
	}
	if (rc < 0) {
		fail(cw->p, cw->line, "bad value '%s' for limit %s", val, name);
		return COND_REFUSED;
	}
	c->arg = dup_n(name, strlen(name));
	return COND_OK;
}

/* Each condition's first word (after "not"/"no") and its parser. */
static const struct {
	const char *name;
	int (*parse)(struct cond_words *, struct lesson_cond *);
} cond_kinds[] = {
	{ "status", cond_status },
	{ "exit", cond_exit },
	{ "stdout", cond_stream },
	{ "stderr", cond_stream },
	{ "source", cond_stream },
	{ "violation", cond_violation },
	{ "violations", cond_violation },
	{ "carry", cond_carry },
	{ "file", cond_glob },
	{ "kept", cond_glob },
	{ "picture", cond_glob },
	{ "limit", cond_limit },
};

/* Cut "| words when it fails" off [*s, *e) into c->say. -1 out of memory. */
static int take_say(const char **s, const char **e, struct lesson_cond *c)
{
	const char *bar = NULL;

	for (const char *q = *s; q + 2 < *e; q++)
		if (q[0] == ' ' && q[1] == '|' && (q[2] == ' ' || q + 3 == *e)) {
			bar = q;
			break;
		}
	if (!bar)
		return 0;
	const char *ss = bar + 2, *se = *e;
	trim(&ss, &se);
	*e = bar;
	trim(s, e);
	if (se > ss && !(c->say = dup_n(ss, (size_t)(se - ss))))
		return -1;
	return 0;
}

/* The words of a condition after its "[not]": its kind's parser. */
static int parse_cond(struct parser *p, int line, const char *s, const char *e,
		      const char *w, struct lesson_cond *c)
{
	struct cond_words cw = { p, line, w, s, e, s, e };

	trim(&cw.rest, &cw.rend);
	for (size_t i = 0; i < SP_ARRAY_SIZE(cond_kinds); i++)
		if (!strcmp(w, cond_kinds[i].name))
			return cond_kinds[i].parse(&cw, c);
	return COND_BAD;
}

/* One condition of [check] or [again]: "[not] what args [| words when
 * it fails]", appended to conds (*n of them). */
static int check_line(struct parser *p, int line, const char *s, const char *e,
		      struct lesson_cond *conds, size_t *n_conds)
{
	struct lesson_cond c = { .line = line };
	char w[64];
	int rc = COND_BAD;

	const char *ts, *te;
	if (take_say(&s, &e, &c) < 0 || (ts = s, te = e, trim(&ts, &te), 0) ||
	    !(c.text = dup_n(ts, (size_t)(te - ts)))) {
		free(c.say);
		return fail(p, line, "out of memory");
	}
	if (*n_conds == LESSON_MAX_CONDS) {
		free(c.say);
		free(c.text);
		return fail(p, line, "more than %d conditions", LESSON_MAX_CONDS);
	}
	if (word(&s, e, w, sizeof w)) {
		if (!strcmp(w, "not") || !strcmp(w, "no"))
			c.negate = true;
		if (!c.negate || word(&s, e, w, sizeof w))
			rc = parse_cond(p, line, s, e, w, &c);
	}
	if (rc == COND_OK && c.kind != LC_STATUS && c.kind != LC_EXIT && !c.arg) {
		fail(p, line, "out of memory");
		rc = COND_REFUSED;
	}
	if (rc == COND_OK) {
		conds[(*n_conds)++] = c;
		return 0;
	}
	if (rc == COND_BAD)
		fail(p, line, "not a condition; one of: status NAME..., exit N, "
		     "stdout has TEXT, stdout lacks TEXT, stdout like GLOB, stdout number "
		     "LABEL VALUE within TOL, stderr has TEXT, source has TEXT, source "
		     "lacks TEXT, [no] violation KIND, carry NAME [= JSON | = received + N], "
		     "[no] file GLOB, kept GLOB, picture GLOB, limit NAME <= VALUE (then "
		     "'| words' to say when it fails)");
	free(c.arg);
	free(c.value);
	free(c.say);
	free(c.text);
	return -1;
}

/* Is [s, e) a section header line, "[...]"? */
static bool header_line(const char *s, const char *e)
{
	const char *a = s, *b = e;
	trim(&a, &b);
	if (a != s || b - a < 3 || a[0] != '[' || b[-1] != ']')
		return false;
	for (const char *q = a + 1; q < b - 1; q++)
		if (*q == '[' || *q == ']')
			return false;
	/* "[1, 2]" is Python; a header's first character is a letter */
	return (a[1] >= 'a' && a[1] <= 'z') || (a[1] >= 'A' && a[1] <= 'Z');
}

/* One line [s, e) of the file, by the section it is in: a header, a
 * line of settings or conditions, or text of the section. */
static int parse_line(struct parser *p, int line, const char *s, const char *e)
{
	struct lesson *out = p->l;
	const char *ts = s, *te = e;

	trim(&ts, &te);
	if (header_line(s, te))
		return begin_section(p, line, s, te);
	if (p->sec == SEC_HEAD || p->sec == SEC_CHECK || p->sec == SEC_AGAIN) {
		if (ts == te || *ts == '#')
			return 0;
		struct lesson_again *g = p->sec == SEC_AGAIN ? &out->again[out->n_again - 1] : NULL;
		if (p->sec == SEC_HEAD)
			return head_line(p, line, ts, te);
		if (g && te - ts > 5 && !memcmp(ts, "with ", 5))
			return with_line(p, line, ts, te);
		return g ? check_line(p, line, ts, te, g->conds, &g->n_conds) :
			   check_line(p, line, ts, te, out->conds, &out->n_conds);
	}
	/* text: keep from the first non-blank line to the last */
	if (ts < te) {
		if (!p->body)
			p->body = s;
		p->body_end = e > s && e[-1] == '\r' ? e - 1 : e;
	}
	return 0;
}

/* The lesson as a whole, once every line is read (last is the last
 * line's number): a title, the four sections, a condition in each
 * [again]; then its source and id. */
static int finish_lesson(struct parser *p, int last, const char *source, const char *id)
{
	struct lesson *out = p->l;

	if (!out->title)
		return fail(p, 1, "no 'title = ...' line before the first section");
	const char *missing = !out->goal ? "[goal]" : !out->start ? "[start]" :
			      !out->solution ? "[solution]" :
			      !out->n_conds ? "[check] (with at least one condition)" : NULL;
	if (missing)
		return fail(p, last, "the lesson has no %s section; every lesson has "
			    "[goal], [start], [solution] and [check]", missing);
	for (size_t k = 0; k < out->n_again; k++)
		if (!out->again[k].n_conds)
			return fail(p, out->again[k].line, "this [again] has no condition "
				    "to judge its run by");
	if (!out->runs)
		out->runs = 1;
	/* names the lesson is shown by: a file name may hold any byte but
	 * '/' and NUL (an ESC, an OSC 52), so they are kept made visible */
	out->source = sanitize_dup(source, true);
	out->id = sanitize_dup(id, true);
	if (!out->source || !out->id)
		return fail(p, 1, "out of memory");
	return 0;
}

int lesson_parse(const char *text, size_t len, const char *source,
		 const char *id, struct lesson *out, char *err, size_t errlen)
{
	struct parser p = { .source = source, .l = out, .err = err,
			    .errlen = errlen, .sec = SEC_HEAD };
	const char *s = text, *end = text + len;
	int line = 0, bad;

	memset(out, 0, sizeof *out);
	if (errlen)
		err[0] = '\0';
	if (len > LESSON_MAX_BYTES)
		return fail(&p, 1, "the file is larger than %u KiB",
			    LESSON_MAX_BYTES >> 10);
	if ((bad = bad_text_line(text, len)))
		return fail(&p, bad, "not UTF-8 text, or a control character "
			    "(a lesson is plain text: tabs and newlines only)");
	while (s < end) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		if (parse_line(&p, ++line, s, e) < 0)
			goto fail;
		s = e < end ? e + 1 : end;
	}
	if (end_section(&p) < 0 || finish_lesson(&p, line ? line : 1, source, id) < 0)
		goto fail;
	return 0;
fail:
	lesson_free(out);
	return -1;
}

void lesson_free(struct lesson *l)
{
	free(l->id);
	free(l->source);
	free(l->title);
	free(l->constraint);
	free(l->goal);
	free(l->start);
	free(l->solution);
	for (size_t i = 0; i < l->n_hints; i++)
		free(l->hints[i]);
	for (size_t i = 0; i < l->n_conds; i++) {
		free(l->conds[i].arg);
		free(l->conds[i].value);
		free(l->conds[i].say);
		free(l->conds[i].text);
	}
	for (size_t k = 0; k < l->n_again; k++) {
		struct lesson_again *g = &l->again[k];
		free(g->carry);
		free(g->stdin_text);
		for (size_t i = 0; i < g->n_swap; i++)
			free(g->swap[i].name);
		for (size_t i = 0; i < g->n_conds; i++) {
			free(g->conds[i].arg);
			free(g->conds[i].value);
			free(g->conds[i].say);
			free(g->conds[i].text);
		}
	}
	free(l->again);
	for (size_t i = 0; i < l->n_data; i++) {
		free(l->data[i].name);
		free(l->data[i].text);
	}
	for (size_t i = 0; i < l->n_files; i++) {
		free(l->files[i].name);
		free(l->files[i].text);
	}
	memset(l, 0, sizeof *l);
}

void lesson_apply_limits(const struct lesson *l, struct sp_limits *lim)
{
	const struct lesson_limits *o = &l->limits;
	if (o->cpu_ms) lim->cpu_ms = o->cpu_ms;
	if (o->wall_ms) lim->wall_ms = o->wall_ms;
	if (o->memory_bytes) lim->memory_bytes = o->memory_bytes;
	if (o->output_bytes) lim->output_bytes = o->output_bytes;
	if (o->disk_bytes) lim->disk_bytes = o->disk_bytes;
	if (o->procs) lim->procs = o->procs;
}
