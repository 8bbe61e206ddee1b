/* SPDX-License-Identifier: MIT */
/*
 * jsonrpc.c - JSON-RPC 2.0 framing that keeps every request's id
 * (jsonrpc.h).
 *
 * jansson refuses some texts that are JSON (RFC 8259): a lone surrogate
 * escape (the grammar allows any \uXXXX), an integer beyond 64 bits, a
 * real beyond a double, a member name with \u0000. Such a text is read a
 * second time with each of those values turned into a placeholder, a
 * string "\u0000#N" whose N indexes the value's raw text, so the message
 * still has its method and its id (echoed from the raw text) and the
 * caller knows what it could not hold. Only a text that is no JSON even
 * then is a parse error, and its id is looked for in the raw text.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "json_text.h"
#include "service/jsonrpc.h"
#include "banned.h"

#define READ_FLAGS (JSON_DECODE_ANY | JSON_ALLOW_NUL)
#define MARK "\\u0000#"   /* a placeholder's start, as written in the text */

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The code of the \uXXXX escape at s[i], or -1 when there is none. */
static long escape_u(const char *s, size_t n, size_t i)
{
	long v = 0;

	if (i + 6 > n || s[i] != '\\' || s[i + 1] != 'u')
		return -1;
	for (size_t k = 2; k < 6; k++) {
		int d = hex(s[i + k]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Just past the string token that opens at s[i] (n when it never ends);
 * *lone: it has a surrogate escape without its pair; *nul: a \u0000. */
static size_t string_end(const char *s, size_t n, size_t i, bool *lone, bool *nul)
{
	size_t j = i + 1;

	while (j < n) {
		long u;
		if (s[j] == '"')
			return j + 1;
		if (s[j] != '\\') {
			j++;
			continue;
		}
		if ((u = escape_u(s, n, j)) < 0) {
			j += 2; /* \" and the like; a bad escape is jansson's to refuse */
			continue;
		}
		if (u == 0)
			*nul = true;
		if (u >= 0xD800 && u <= 0xDBFF) {
			long lo = escape_u(s, n, j + 6);
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				j += 12;
				continue;
			}
			*lone = true;
		} else if (u >= 0xDC00 && u <= 0xDFFF) {
			*lone = true;
		}
		j += 6;
	}
	return n;
}

/* An integer as RFC 8259 writes it: -?(0|[1-9][0-9]*) */
static bool integer_token(const char *s, size_t n)
{
	size_t i = n && s[0] == '-';

	if (i == n || (s[i] == '0' && n - i > 1))
		return false;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* A number as RFC 8259 writes it. */
static bool number_token(const char *s, size_t n)
{
	size_t i = n && s[0] == '-', d;

	for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || (s[d] == '0' && i - d > 1))
		return false;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	return i == n;
}

/* Can jansson hold this number? Its integers are 64-bit; a real it
 * refuses only when it overflows a double. */
static bool number_held(const char *s, size_t n)
{
	static locale_t c_locale;
	char *copy;
	double v;

	if (integer_token(s, n)) {
		bool neg = s[0] == '-';
		const char *d = s + neg;
		size_t k = n - neg;
		return k < 19 || (k == 19 && memcmp(d, neg ? "9223372036854775808" :
						  "9223372036854775807", 19) <= 0);
	}
	if (!c_locale && !(c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0)))
		return true; /* jansson will say */
	if (!(copy = strndup(s, n)))
		return true;
	v = strtod_l(copy, NULL, c_locale);
	free(copy);
	return !isinf(v);
}

static bool ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Record s[at..at+len) as placeholder N and write "\u0000#N". */
static int placeholder(struct rpc_in *in, struct sp_buf *out, size_t at, size_t len, size_t *cap)
{
	char mark[40];
	struct rpc_span *r = sp_grow(in->raw, cap, in->n_raw + 1, sizeof *r);

	if (!r)
		return -1;
	in->raw = r;
	in->raw[in->n_raw] = (struct rpc_span){ at, len };
	snprintf(mark, sizeof mark, "\"" MARK "%zu\"", in->n_raw++);
	return sp_buf_adds(out, mark);
}

/* The text with each value jansson cannot hold made a placeholder (and
 * each such member name made harmless); NULL out of memory. */
static char *sanitize(struct rpc_in *in, const char *s, size_t n, size_t *out_len)
{
	struct sp_buf out = SP_BUF_INIT;
	size_t i = 0, cap = 0, keys = 0;
	int rc = sp_buf_reserve(&out, n);

	while (rc == 0 && i < n) {
		size_t j = i;
		if (s[i] == '"') {
			bool lone = false, nul = false;
			size_t k = j = string_end(s, n, i, &lone, &nul);
			while (k < n && ws(s[k]))
				k++;
			if (k < n && s[k] == ':' && (lone || nul)) {
				char key[40];
				snprintf(key, sizeof key, "\"\\ufffd#%zu\"", keys++);
				in->lossy |= RPC_LOSSY_KEY;
				rc = sp_buf_adds(&out, key);
			} else if (lone || (j - i > strlen(MARK) &&
					    !memcmp(s + i + 1, MARK, strlen(MARK)))) {
				/* a client's string that reads as a placeholder is one too */
				in->lossy |= lone ? RPC_LOSSY_SURROGATE : 0;
				rc = placeholder(in, &out, i, j - i, &cap);
			} else {
				rc = sp_buf_add(&out, s + i, j - i);
			}
		} else if (s[i] == '-' || (s[i] >= '0' && s[i] <= '9')) {
			while (j < n && s[j] && strchr("+-.0123456789eE", s[j]))
				j++;
			if (number_token(s + i, j - i) && !number_held(s + i, j - i)) {
				in->lossy |= RPC_LOSSY_NUMBER;
				rc = placeholder(in, &out, i, j - i, &cap);
			} else {
				rc = sp_buf_add(&out, s + i, j - i);
			}
		} else {
			j = i + 1;
			rc = sp_buf_add(&out, s + i, 1);
		}
		i = j;
	}
	if (rc < 0) {
		sp_buf_free(&out);
		return NULL;
	}
	return sp_buf_detach(&out, out_len);
}

enum rpc_read rpc_read_text(const char *text, size_t len, struct rpc_in *in)
{
	json_error_t e;
	struct rpc_idscan scan;
	enum json_error_code code;

	memset(in, 0, sizeof *in);
	in->text = text;
	if ((in->msg = json_loadb(text, len, READ_FLAGS, &e)))
		return RPC_JSON;
	code = json_error_code(&e);
	snprintf(in->why, sizeof in->why, "at column %d: %s", e.column, e.text);
	/* jansson stops at its first error: only these can be what it refuses
	 * of JSON (a lone surrogate is a syntax error to it) */
	if (code == json_error_invalid_syntax || code == json_error_numeric_overflow ||
	    code == json_error_null_byte_in_key) {
		size_t clean_len;
		char *clean = sanitize(in, text, len, &clean_len);
		if (clean && (in->n_raw || in->lossy)) {
			in->msg = json_loadb(clean, clean_len, READ_FLAGS, &e);
			if (!in->msg) {
				code = json_error_code(&e);
				snprintf(in->why, sizeof in->why, "%s", e.text);
			}
		}
		free(clean);
		if (in->msg)
			return RPC_JSON;
	}
	free(in->raw);
	in->raw = NULL;
	in->n_raw = 0;
	in->lossy = 0;
	rpc_idscan_init(&scan);
	rpc_idscan_feed(&scan, text, len);
	rpc_idscan_result(&scan, &in->scanned);
	return code == json_error_stack_overflow ? RPC_TOO_DEEP : RPC_NOT_JSON;
}

void rpc_in_free(struct rpc_in *in)
{
	json_decref(in->msg);
	free(in->raw);
	memset(in, 0, sizeof *in);
}

/* An id's text as a request id: a JSON string or an integer. */
static enum rpc_id_kind id_text_kind(const char *s, size_t n)
{
	struct rpc_in tmp;
	enum rpc_id_kind kind = RPC_ID_BAD;

	if (n && s[0] == '"') {
		/* a JSON string, lone surrogates and all: read as a message is */
		if (rpc_read_text(s, n, &tmp) == RPC_JSON && json_is_string(tmp.msg))
			kind = RPC_ID_TEXT;
		rpc_in_free(&tmp);
		return kind;
	}
	return integer_token(s, n) ? RPC_ID_TEXT : RPC_ID_BAD;
}

/* The index of the placeholder v, or -1 when v is none. */
static long placeholder_of(const struct rpc_in *in, const json_t *v)
{
	const char *s = json_string_value(v);
	char *end;
	unsigned long k;

	if (!in->n_raw || !s || s[0] != '\0' || json_string_length(v) < 3 || s[1] != '#')
		return -1;
	k = strtoul(s + 2, &end, 10);
	return end == s + json_string_length(v) && k < in->n_raw ? (long)k : -1;
}

void rpc_id_of(const struct rpc_in *in, const json_t *msg, struct rpc_id *id)
{
	json_t *v = json_object_get(msg, "id");
	long k;

	id->kind = RPC_ID_NONE;
	id->value = NULL;
	id->text[0] = '\0';
	if (!v)
		return;
	if ((k = placeholder_of(in, v)) >= 0) {
		const struct rpc_span *r = &in->raw[k];
		id->kind = r->len <= RPC_ID_MAX ? id_text_kind(in->text + r->at, r->len) : RPC_ID_BAD;
		if (id->kind == RPC_ID_TEXT) {
			memcpy(id->text, in->text + r->at, r->len);
			id->text[r->len] = '\0';
		}
		return;
	}
	if (json_is_string(v) || json_is_integer(v)) {
		id->kind = RPC_ID_HELD;
		id->value = v;
		return;
	}
	id->kind = RPC_ID_BAD;
}

const char *rpc_string(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	const char *s = json_string_value(v);

	return s && strlen(s) == json_string_length(v) ? s : NULL;
}

/* ---- the id of a text never held whole -------------------------------- */

enum {
	S_START,     /* before the top-level value */
	S_KEY_NEXT,  /* after '{' or ',': a member name, or '}' */
	S_KEY,       /* in a member name */
	S_COLON,
	S_VALUE,     /* after ':' */
	S_VSTRING,   /* in a member's string value */
	S_VSCALAR,   /* in a number or a literal */
	S_NESTED,    /* in a member's object or array value */
	S_AFTER,     /* after a member's value: ',' or '}' */
	S_STOP,      /* the end, or a byte out of place: nothing more is read */
};

void rpc_idscan_init(struct rpc_idscan *s)
{
	memset(s, 0, sizeof *s);
	s->state = S_START;
}

static void id_put(struct rpc_idscan *s, char c)
{
	if (!s->capturing)
		return;
	if (s->id_len < sizeof s->id)
		s->id[s->id_len++] = c;
	else
		s->unreadable = true;
}

/* A member ended well (',' or '}'): if it was "id", its value is the id. */
static void member_end(struct rpc_idscan *s)
{
	if (!s->capturing)
		return;
	s->capturing = false;
	s->found = true;
	if (s->unreadable) {
		s->found_id[0] = '\0';
		return;
	}
	memcpy(s->found_id, s->id, s->id_len);
	s->found_id[s->id_len] = '\0';
}

static void scan_byte(struct rpc_idscan *s, char c)
{
	switch (s->state) {
	case S_START:
		if (!ws(c))
			s->state = c == '{' ? S_KEY_NEXT : S_STOP;
		return;
	case S_KEY_NEXT:
		if (c == '"') {
			s->state = S_KEY;
			s->key_len = 0;
			s->key_escaped = false;
		} else if (!ws(c)) {
			s->state = S_STOP; /* '}' ends the object, anything else is out of place */
		}
		return;
	case S_KEY:
		if (s->esc || c == '\\') {
			s->esc = !s->esc;
			s->key_escaped = true; /* "\u0069d" is no "id" to this scan */
		} else if (c == '"') {
			s->state = S_COLON;
		} else {
			if (s->key_len < sizeof s->key)
				s->key[s->key_len] = c;
			s->key_len++;
		}
		return;
	case S_COLON:
		if (c == ':') {
			s->state = S_VALUE;
			s->capturing = !s->key_escaped && s->key_len == 2 && s->key[0] == 'i' &&
				       s->key[1] == 'd';
			s->id_len = 0;
			s->unreadable = false;
		} else if (!ws(c)) {
			s->state = S_STOP;
		}
		return;
	case S_VALUE:
		if (ws(c))
			return;
		if (c == '{' || c == '[') {
			s->unreadable = true; /* an object or an array is no request id */
			s->depth = 1;
			s->in_str = false;
			s->state = S_NESTED;
			return;
		}
		id_put(s, c);
		s->state = c == '"' ? S_VSTRING : S_VSCALAR;
		return;
	case S_VSTRING:
		id_put(s, c);
		if (s->esc)
			s->esc = false;
		else if (c == '\\')
			s->esc = true;
		else if (c == '"')
			s->state = S_AFTER;
		return;
	case S_VSCALAR:
		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    c == '-' || c == '+' || c == '.') {
			id_put(s, c);
			return;
		}
		s->state = S_AFTER;
		scan_byte(s, c);
		return;
	case S_NESTED:
		if (s->in_str) {
			if (s->esc)
				s->esc = false;
			else if (c == '\\')
				s->esc = true;
			else if (c == '"')
				s->in_str = false;
		} else if (c == '"') {
			s->in_str = true;
		} else if (c == '{' || c == '[') {
			s->depth++;
		} else if ((c == '}' || c == ']') && --s->depth == 0) {
			s->state = S_AFTER;
		}
		return;
	case S_AFTER:
		if (c == ',' || c == '}') {
			member_end(s);
			s->state = c == ',' ? S_KEY_NEXT : S_STOP;
		} else if (!ws(c)) {
			s->capturing = false; /* garbage after the value: not a member */
			s->state = S_STOP;
		}
		return;
	default:
		return;
	}
}

void rpc_idscan_feed(struct rpc_idscan *s, const char *bytes, size_t n)
{
	for (size_t i = 0; i < n && s->state != S_STOP; i++) {
		/* the bulk of a big line is inside one string: skip to its end */
		if (((s->state == S_NESTED && s->in_str) || (s->state == S_VSTRING && !s->capturing)) &&
		    !s->esc) {
			size_t k = i;
			while (k < n && bytes[k] != '"' && bytes[k] != '\\')
				k++;
			if (k == n)
				return;
			i = k;
		}
		scan_byte(s, bytes[i]);
	}
}

void rpc_idscan_result(const struct rpc_idscan *s, struct rpc_id *id)
{
	id->value = NULL;
	id->text[0] = '\0';
	id->kind = RPC_ID_NONE;
	if (!s->found)
		return;
	id->kind = id_text_kind(s->found_id, strlen(s->found_id));
	if (id->kind == RPC_ID_TEXT)
		snprintf(id->text, sizeof id->text, "%s", s->found_id);
}

/* ---- responses -------------------------------------------------------- */

char *rpc_error_text(const struct rpc_id *id, int code, json_t *message)
{
	json_t *err = json_pack("{s:s, s:{s:i, s:o}}", "jsonrpc", "2.0", "error", "code", code,
				"message", message ? message : json_string("error"));
	char *text, *spliced;

	if (!err)
		return NULL;
	if (id && id->kind == RPC_ID_HELD)
		json_object_set(err, "id", id->value);
	text = sp_json_dumps(err, JSON_COMPACT);
	json_decref(err);
	if (!text || !id || id->kind != RPC_ID_TEXT)
		return text;
	/* the id as the client wrote it: jansson could not hold it */
	if (asprintf(&spliced, "{\"id\":%s,%s", id->text, text + 1) < 0)
		spliced = NULL;
	free(text);
	return spliced;
}

struct rpc_batch {
	pthread_mutex_t lock;
	unsigned holds;
	struct sp_buf text;
};

struct rpc_batch *rpc_batch_new(void)
{
	struct rpc_batch *b = calloc(1, sizeof *b);

	if (!b)
		return NULL;
	pthread_mutex_init(&b->lock, NULL);
	b->holds = 1;
	return b;
}

void rpc_batch_hold(struct rpc_batch *b)
{
	pthread_mutex_lock(&b->lock);
	b->holds++;
	pthread_mutex_unlock(&b->lock);
}

int rpc_batch_add(struct rpc_batch *b, const char *text)
{
	size_t was;
	int rc;

	pthread_mutex_lock(&b->lock);
	was = b->text.len;
	rc = sp_buf_adds(&b->text, was ? "," : "[");
	if (rc == 0 && (rc = sp_buf_adds(&b->text, text)) < 0) {
		b->text.len = was; /* the array stays whole without it */
		b->text.data[was] = '\0';
	}
	pthread_mutex_unlock(&b->lock);
	return rc;
}

char *rpc_batch_release(struct rpc_batch *b)
{
	char *out = NULL;
	bool last;

	pthread_mutex_lock(&b->lock);
	last = --b->holds == 0;
	pthread_mutex_unlock(&b->lock);
	if (!last)
		return NULL;
	if (b->text.len && sp_buf_adds(&b->text, "]") == 0)
		out = sp_buf_detach(&b->text, NULL);
	sp_buf_free(&b->text);
	pthread_mutex_destroy(&b->lock);
	free(b);
	return out;
}
