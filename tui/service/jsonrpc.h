/* SPDX-License-Identifier: MIT */
/*
 * jsonrpc.h - JSON-RPC 2.0 framing that keeps every request's id: a line
 * of text read as JSON even where jansson alone cannot hold it (a lone
 * UTF-16 surrogate escape, a number beyond 64 bits, a \u0000), the id
 * recovered from the text when the text is no JSON or was never held
 * whole (a line over the size cap), responses written with an id exactly
 * as the client wrote it, and batches answered as one array.
 *
 * Invariants: an id is echoed as the client's own text or as the value
 * jansson read (never a value changed on the way, such as an integer
 * turned into a double); a value jansson cannot hold is never given to
 * the caller as if it were the client's (it becomes a placeholder, and
 * the message says so in rpc_in.lossy).
 */
#ifndef JSONRPC_H
#define JSONRPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* the longest id text kept from the raw text (a longer one is not echoed) */
#define RPC_ID_MAX 1024

enum rpc_id_kind {
	RPC_ID_NONE,   /* no "id" member (a notification), or none could be read */
	RPC_ID_HELD,   /* a string or a 64-bit integer: value */
	RPC_ID_TEXT,   /* a string or an integer jansson cannot hold: text only */
	RPC_ID_BAD,    /* an "id" that is no request id (null, true, 1.5, {}) */
};

struct rpc_id {
	enum rpc_id_kind kind;
	json_t *value;              /* HELD: borrowed from the message */
	char text[RPC_ID_MAX + 1];  /* TEXT: the id as the client wrote it */
};

/* What a message held that jansson cannot (rpc_in.lossy). */
enum {
	RPC_LOSSY_SURROGATE = 1,  /* a string with a lone UTF-16 surrogate escape */
	RPC_LOSSY_NUMBER = 2,     /* an integer beyond 64 bits, a real beyond a double */
	RPC_LOSSY_KEY = 4,        /* a member name with \u0000 or a lone surrogate */
};

enum rpc_read { RPC_JSON, RPC_NOT_JSON, RPC_TOO_DEEP };

struct rpc_in {
	json_t *msg;              /* RPC_JSON: the value (owned) */
	unsigned lossy;           /* RPC_LOSSY_*: what became placeholders */
	struct rpc_id scanned;    /* not JSON, too deep: the top-level id, if readable */
	char why[160];            /* not JSON: where and what */
	/* placeholders: the raw text of each value jansson could not hold */
	const char *text;
	struct rpc_span { size_t at, len; } *raw;
	size_t n_raw;
};

/* Read one message's text (valid while *in is used): RPC_JSON with
 * in->msg, else the id as far as the text shows it. Free with rpc_in_free. */
enum rpc_read rpc_read_text(const char *text, size_t len, struct rpc_in *in);
void rpc_in_free(struct rpc_in *in);

/* The "id" of one message of in (the message itself or a batch's
 * element). */
void rpc_id_of(const struct rpc_in *in, const json_t *msg, struct rpc_id *id);

/* A member that is a string without a NUL (a placeholder never is one),
 * or NULL. */
const char *rpc_string(const json_t *obj, const char *key);

/* The top-level "id" of an object whose text is never held whole (a
 * line over the size cap) or is no JSON: fed in pieces, in order. */
struct rpc_idscan {
	size_t depth;               /* below the top-level object's members */
	unsigned char state;
	bool in_str, esc, key_escaped, capturing, unreadable;
	char key[2];
	size_t key_len, id_len;
	char id[RPC_ID_MAX];        /* the id member's value, being read */
	bool found;                 /* a whole "id" member was read: */
	char found_id[RPC_ID_MAX + 1];  /* its text ("" when no request id) */
};
void rpc_idscan_init(struct rpc_idscan *s);
void rpc_idscan_feed(struct rpc_idscan *s, const char *bytes, size_t n);
/* What was read: TEXT (a complete string or integer member), BAD (an id
 * that is no request id) or NONE. */
void rpc_idscan_result(const struct rpc_idscan *s, struct rpc_id *id);

/* The JSON text of an error response (free it; NULL out of memory): the
 * id as held or as written, or no "id" member when id is NULL or neither.
 * message: a JSON string, taken. */
char *rpc_error_text(const struct rpc_id *id, int code, json_t *message);

/* A batch's responses, gathered while its requests are answered (some
 * on other threads), sent as one array when the last hold is released. */
struct rpc_batch;
struct rpc_batch *rpc_batch_new(void);   /* one hold, the reader's */
void rpc_batch_hold(struct rpc_batch *b);
/* One response's text into the batch; 0, or -1 out of memory. */
int rpc_batch_add(struct rpc_batch *b, const char *text);
/* Let go of one hold. The last one frees b and returns the array's text
 * (free it), or NULL when no response was gathered. */
char *rpc_batch_release(struct rpc_batch *b);

#endif
