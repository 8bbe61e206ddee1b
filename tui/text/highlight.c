/* SPDX-License-Identifier: MIT */
/*
 * highlight.c - Python tokens for colouring, one line at a time.
 *
 * Not a parser: a small scanner that knows where strings, comments and
 * numbers start and end, which is all colouring needs. The hard part is
 * strings that outlive a line: triple-quoted ones, backslash-continued
 * ones, and f-strings whose {expression} holds further strings (PEP 701
 * lets them nest to any depth and reuse the same quote). Those are kept as
 * a small stack of frames packed into the hl_state:
 *
 *     bits 0..7, 8..15, 16..23   frames 0..2, innermost last
 *     bits 24..25                number of open frames
 *
 * A frame byte: F_DQ quote is '"', F_TRIPLE, F_FSTR, F_RAW, F_EXPR inside
 * its {expression}, and 2 bits of bracket depth inside that expression
 * (so `{d["k"]:>{w}}` knows which ':' starts the format spec).
 */
#include "text/highlight.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "pykeywords.h"
#include "banned.h"

enum {
	F_DQ = 0x01, F_TRIPLE = 0x02, F_FSTR = 0x04, F_RAW = 0x08, F_EXPR = 0x10,
	F_DEPTH_SHIFT = 5, F_DEPTH = 0x60,
};

struct scan {
	const char *s;
	size_t len, i;
	unsigned char *cls;
	unsigned char fr[HL_MAX_NEST];
	int n;              /* open frames */
	bool cont;          /* the line ended in a backslash inside a string */
};

/* Python's keywords are core's list (pykeywords.h). Soft keywords: keywords only where a statement starts. */
static const char *const soft_keywords[] = { "case", "match", "type" };

static const char *const builtins[] = {
	"ArithmeticError", "AssertionError", "AttributeError", "BaseException",
	"EOFError", "Ellipsis", "Exception", "FileNotFoundError",
	"ImportError", "IndexError", "KeyError", "KeyboardInterrupt",
	"LookupError", "MemoryError", "ModuleNotFoundError", "NameError",
	"NotImplemented", "NotImplementedError", "OSError", "OverflowError",
	"PermissionError", "RecursionError", "RuntimeError", "StopIteration",
	"SyntaxError", "SystemExit", "TimeoutError", "TypeError",
	"UnicodeDecodeError", "UnicodeEncodeError", "ValueError",
	"ZeroDivisionError", "__import__", "__name__", "abs", "all", "any",
	"ascii", "bin", "bool", "breakpoint", "bytearray", "bytes", "callable",
	"carry", "chr", "classmethod", "compile", "complex", "delattr", "dict",
	"dir", "divmod", "enumerate", "eval", "exec", "filter", "float",
	"format", "frozenset", "getattr", "globals", "hasattr", "hash", "help",
	"hex", "id", "input", "int", "isinstance", "issubclass", "iter", "len",
	"list", "locals", "map", "max", "memoryview", "min", "next", "object",
	"oct", "open", "ord", "pow", "print", "property", "range", "repr",
	"reversed", "round", "set", "setattr", "slice", "sorted",
	"staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip",
};

struct word { const char *p; size_t n; };

/* bsearch comparator: a (ptr, len) word against a NUL-terminated entry. */
static int word_cmp(const void *key, const void *elem)
{
	const struct word *w = key;
	const char *e = *(const char *const *)elem;
	size_t en = strlen(e);
	int c = memcmp(w->p, e, w->n < en ? w->n : en);
	if (c)
		return c;
	return w->n < en ? -1 : w->n > en;
}

/* True when w is in the sorted table t of n entries. */
static bool in_table(const char *const *t, size_t n, const char *p, size_t len)
{
	struct word w = { p, len };
	return bsearch(&w, t, n, sizeof *t, word_cmp) != NULL;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Classes s[a..b) as k. */
static void mark(struct scan *sc, size_t a, size_t b, int k)
{
	if (b > sc->len)
		b = sc->len;
	if (sc->cls)
		for (size_t i = a; i < b; i++)
			sc->cls[i] = (unsigned char)k;
}

static bool is_ident(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* The byte at i, or 0 past the end. */
static unsigned char at(const struct scan *sc, size_t i)
{
	return i < sc->len ? (unsigned char)sc->s[i] : 0;
}

/* Frame flags for a string prefix (r, b, u, f, t and pairs), or -1. */
static int prefix_flags(const char *p, size_t n)
{
	if (n > 2)
		return -1;
	int fl = 0, seen = 0;
	for (size_t i = 0; i < n; i++) {
		int bit;
		switch (p[i]) {
		case 'r': case 'R': bit = 1; fl |= F_RAW; break;
		case 'f': case 'F': case 't': case 'T': bit = 2; fl |= F_FSTR; break;
		case 'b': case 'B': bit = 4; break;
		case 'u': case 'U': if (n != 1) return -1; bit = 8; break;
		default: return -1;
		}
		if (seen & bit)
			return -1;
		seen |= bit;
	}
	if ((seen & 2) && (seen & 4))   /* no bf"" */
		return -1;
	return fl;
}

/* Opens a string whose quote is at sc->i with prefix flags fl; the prefix
 * starts at from. */
static void open_string(struct scan *sc, size_t from, int fl)
{
	unsigned char q = at(sc, sc->i);
	size_t n = 1;
	if (q == '"')
		fl |= F_DQ;
	if (at(sc, sc->i + 1) == q && at(sc, sc->i + 2) == q) {
		fl |= F_TRIPLE;
		n = 3;
	}
	mark(sc, from, sc->i + n, HL_STRING);
	sc->i += n;
	if (sc->n < HL_MAX_NEST) {
		sc->fr[sc->n++] = (unsigned char)fl;
		return;
	}
	/* Too deep to track: colour to the closing quote on this line. */
	size_t e = sc->i;
	while (e < sc->len && (unsigned char)sc->s[e] != q)
		e += sc->s[e] == '\\' ? 2 : 1;
	mark(sc, sc->i, e + 1, HL_STRING);
	sc->i = e + 1 < sc->len ? e + 1 : sc->len;
}

/* One step inside the text part of the innermost string. */
static void string_step(struct scan *sc)
{
	unsigned char f = sc->fr[sc->n - 1];
	unsigned char q = (f & F_DQ) ? '"' : '\'';
	unsigned char c = at(sc, sc->i), d = at(sc, sc->i + 1);
	size_t i = sc->i;
	if (c == '\\' && (!(f & F_RAW) || d == q || d == '\\' || i + 1 == sc->len)) {
		mark(sc, i, i + 2, HL_STRING);
		if (i + 1 == sc->len)
			sc->cont = true;
		sc->i = i + 2 < sc->len ? i + 2 : sc->len;
		return;
	}
	if (c == q && (!(f & F_TRIPLE) || (d == q && at(sc, i + 2) == q))) {
		size_t n = (f & F_TRIPLE) ? 3 : 1;
		mark(sc, i, i + n, HL_STRING);
		sc->i = i + n;
		sc->n--;
		return;
	}
	if ((f & F_FSTR) && (c == '{' || c == '}')) {
		if (d == c) {                       /* {{ or }}: a literal brace */
			mark(sc, i, i + 2, HL_STRING);
			sc->i = i + 2;
			return;
		}
		if (c == '{')
			sc->fr[sc->n - 1] = (unsigned char)((f & ~F_DEPTH) | F_EXPR);
	}
	mark(sc, i, i + 1, HL_STRING);
	sc->i = i + 1;
}

/* Inside an f-string {expression}: tracks brackets; returns true when
 * the byte was a bracket or ends the expression (then it is consumed). */
static bool expr_punct(struct scan *sc, unsigned char c)
{
	unsigned char *f = &sc->fr[sc->n - 1];
	int depth = (*f & F_DEPTH) >> F_DEPTH_SHIFT;
	int kind = HL_TEXT;
	if (c == '(' || c == '[' || c == '{') {
		if (depth < 3)
			depth++;
	} else if (c == ')' || c == ']') {
		if (depth > 0)
			depth--;
	} else if (c == '}') {
		if (depth == 0) {
			*f = (unsigned char)(*f & ~F_EXPR);
			kind = HL_STRING;
		} else {
			depth--;
		}
	} else if ((c == ':' || (c == '!' && at(sc, sc->i + 1) != '=')) && depth == 0) {
		*f = (unsigned char)(*f & ~F_EXPR);  /* format spec or !r: string text */
	} else {
		return false;
	}
	*f = (unsigned char)((*f & ~F_DEPTH) | (depth << F_DEPTH_SHIFT));
	mark(sc, sc->i, sc->i + 1, kind);
	sc->i++;
	return true;
}

/* Consumes a number literal: 1_000, 0x1F, 0o17, 0b10, 3.14, .5, 1e-3j. */
static void number(struct scan *sc)
{
	size_t a = sc->i, i = a;
	bool hex = at(sc, i) == '0' && (at(sc, i + 1) | 0x20) == 'x';
	while (i < sc->len) {
		unsigned char c = at(sc, i);
		unsigned char p = i > a ? at(sc, i - 1) : 0;
		if (is_ident(c) || c == '.' ||
		    ((c == '+' || c == '-') && !hex && (p | 0x20) == 'e'))
			i++;
		else
			break;
	}
	mark(sc, a, i, HL_NUMBER);
	sc->i = i;
}

/* True when only blanks precede position i on the line. */
static bool line_start(const struct scan *sc, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (sc->s[k] != ' ' && sc->s[k] != '\t')
			return false;
	return true;
}

/* The last non-blank byte before i, or 0. */
static unsigned char prev_nonblank(const struct scan *sc, size_t i)
{
	while (i > 0) {
		unsigned char c = (unsigned char)sc->s[--i];
		if (c != ' ' && c != '\t')
			return c;
	}
	return 0;
}

/* A name: a string prefix, a keyword, a builtin or a plain name. */
static void name(struct scan *sc)
{
	size_t a = sc->i, i = a;
	while (i < sc->len && is_ident(at(sc, i)))
		i++;
	unsigned char next = at(sc, i);
	if (next == '"' || next == '\'') {
		int fl = prefix_flags(sc->s + a, i - a);
		if (fl >= 0) {
			sc->i = i;
			open_string(sc, a, fl);
			return;
		}
	}
	const char *p = sc->s + a;
	size_t n = i - a;
	int k = HL_TEXT;
	if (prev_nonblank(sc, a) != '.') {   /* x.print is an attribute */
		if (sp_python_keyword(p, n))
			k = HL_KEYWORD;
		else if (sc->n == 0 && line_start(sc, a) &&
			 in_table(soft_keywords, COUNT(soft_keywords), p, n)) {
			size_t j = i;
			while (at(sc, j) == ' ')
				j++;
			unsigned char c = at(sc, j);
			if (c && !strchr("=.,:)]}", c) && !(c == '(' && n == 4 && p[0] == 't'))
				k = HL_KEYWORD;
			else if (in_table(builtins, COUNT(builtins), p, n))
				k = HL_BUILTIN;
		} else if (in_table(builtins, COUNT(builtins), p, n))
			k = HL_BUILTIN;
	}
	mark(sc, a, i, k);
	sc->i = i;
}

/* One token of code (top level or inside an f-string expression). */
static void code_step(struct scan *sc)
{
	unsigned char c = at(sc, sc->i);
	if (c == ' ' || c == '\t') {
		mark(sc, sc->i, sc->i + 1, HL_TEXT);
		sc->i++;
	} else if (c == '#' && sc->n == 0) {
		mark(sc, sc->i, sc->len, HL_COMMENT);
		sc->i = sc->len;
	} else if (sc->n > 0 && expr_punct(sc, c)) {
		/* consumed */
	} else if (c == '"' || c == '\'') {
		open_string(sc, sc->i, 0);
	} else if (is_digit(c) || (c == '.' && is_digit(at(sc, sc->i + 1)))) {
		number(sc);
	} else if (is_ident(c)) {
		name(sc);
	} else if (c == '@' && sc->n == 0 && line_start(sc, sc->i)) {
		size_t i = sc->i + 1;
		while (i < sc->len && (is_ident(at(sc, i)) || at(sc, i) == '.' || at(sc, i) == ' '))
			i++;
		mark(sc, sc->i, i, HL_DECORATOR);
		sc->i = i;
	} else {
		mark(sc, sc->i, sc->i + 1, HL_TEXT);
		sc->i++;
	}
}

/* Scans one line; see highlight.h. */
hl_state hl_line(const char *s, size_t len, hl_state in, unsigned char *cls)
{
	struct scan sc = { .s = s, .len = len, .cls = cls };
	sc.n = (int)((in >> 24) & 3);
	if (sc.n > HL_MAX_NEST)
		sc.n = HL_MAX_NEST;
	for (int k = 0; k < sc.n; k++)
		sc.fr[k] = (unsigned char)(in >> (8 * k));
	while (sc.i < len) {
		sc.cont = false;
		if (sc.n > 0 && !(sc.fr[sc.n - 1] & F_EXPR))
			string_step(&sc);
		else
			code_step(&sc);
	}
	/* A one-line string ends with its line unless a backslash continues it. */
	while (sc.n > 0 && !sc.cont) {
		unsigned char f = sc.fr[sc.n - 1];
		if ((f & F_TRIPLE) || (f & F_EXPR))
			break;
		sc.n--;
	}
	hl_state out = (hl_state)sc.n << 24;
	for (int k = 0; k < sc.n; k++)
		out |= (hl_state)sc.fr[k] << (8 * k);
	return out;
}

int hl_in_string(hl_state st)
{
	int n = (int)((st >> 24) & 3);
	return n > 0 && !((st >> (8 * (n - 1))) & F_EXPR);
}
