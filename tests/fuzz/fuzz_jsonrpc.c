/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/service/jsonrpc.c core/json_dump.c core/buf.c */
/*
 * fuzz_jsonrpc.c - a client's line through `sandpit mcp`'s framing
 * (tui/service/jsonrpc.c), the first parser a client's bytes meet.
 *
 * Whatever the line holds:
 *  - rpc_read_text must not crash, and a line it reads as JSON has a
 *    value; a line jansson reads as it is has no placeholder;
 *  - an id it calls TEXT is a JSON string or integer as written, and the
 *    error that echoes it starts {"id":TEXT,;
 *  - the id scan gives the same answer fed whole, in two pieces split
 *    anywhere, or one byte at a time (a line over the cap comes in
 *    pieces the reader chooses).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "service/jsonrpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void scan(const char *text, size_t n, size_t split, int bytewise, struct rpc_id *id)
{
	struct rpc_idscan s;

	rpc_idscan_init(&s);
	if (bytewise) {
		for (size_t i = 0; i < n; i++)
			rpc_idscan_feed(&s, text + i, 1);
	} else {
		rpc_idscan_feed(&s, text, split);
		rpc_idscan_feed(&s, text + split, n - split);
	}
	rpc_idscan_result(&s, id);
}

static int same(const struct rpc_id *a, const struct rpc_id *b)
{
	return a->kind == b->kind && !strcmp(a->text, b->text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct rpc_in in;
	struct rpc_id id, whole, two, bytes;
	json_error_t e;
	json_t *plain;
	size_t split;

	if (size == 0 || size > (64u << 10))
		return 0;
	split = data[0] % size;
	plain = json_loadb(text, size, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
	switch (rpc_read_text(text, size, &in)) {
	case RPC_JSON:
		if (!in.msg || (plain && (in.n_raw || in.lossy)))
			abort();
		if (json_is_object(in.msg))
			rpc_id_of(&in, in.msg, &id);
		else
			id.kind = RPC_ID_NONE;
		break;
	default:
		if (in.msg || plain)
			abort();
		id = in.scanned;
		break;
	}
	if (id.kind == RPC_ID_TEXT) {
		char *err = rpc_error_text(&id, -32600, json_string("x"));
		size_t n = strlen(id.text);
		if (!n || (id.text[0] != '"' && id.text[0] != '-' && (id.text[0] < '0' || id.text[0] > '9')))
			abort();
		if (err && (strncmp(err, "{\"id\":", 6) || strncmp(err + 6, id.text, n) || err[6 + n] != ','))
			abort();
		free(err);
	}
	json_decref(plain);
	rpc_in_free(&in);
	scan(text, size, size, 0, &whole);
	scan(text, size, split, 0, &two);
	scan(text, size, 0, 1, &bytes);
	if (!same(&whole, &two) || !same(&whole, &bytes))
		abort();
	return 0;
}
