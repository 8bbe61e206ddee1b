/* SPDX-License-Identifier: MIT */
/*
 * mcp_streams.c - stdout and stderr shared out among a tool result's
 * parts (mcp_streams.h), and JSON text a terminal host may print.
 *
 * Why the JSON block no longer repeats the streams: the text block has
 * already shown their head and tail, and structuredContent has them all;
 * a 40,000-character print made 58,026 characters of text when the
 * block held the whole object, and four prints of that size filled a
 * model's context twice over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "buf.h"
#include "json_text.h"
#include "service/mcp_streams.h"
#include "service/result_json.h"
#include "text/sanitize.h"
#include "banned.h"

static bool continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t mcp_head_bytes(const char *d, size_t len, size_t max)
{
	size_t n;

	if (len <= max)
		return len;
	/* back off a character cut in two (at most 3 bytes: else it was no UTF-8) */
	n = max;
	for (int i = 0; i < 3 && n > 0 && continuation((unsigned char)d[n]); i++)
		n--;
	return continuation((unsigned char)d[n]) ? max : n;
}

size_t mcp_tail_bytes(const char *d, size_t len, size_t max)
{
	size_t at;

	if (len <= max)
		return len;
	at = len - max;
	for (int i = 0; i < 3 && at < len && continuation((unsigned char)d[at]); i++)
		at++;
	return continuation((unsigned char)d[at]) ? max : len - at;
}

/* d as a JSON string, each byte that is not UTF-8 as U+FFFD */
static json_t *clean_string(const char *d, size_t len)
{
	struct sp_buf b = SP_BUF_INIT;
	json_t *s;

	for (size_t i = 0; i < len;) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)d + i,
						      (utf8proc_ssize_t)(len - i), &c);
		if (n <= 0) {
			sp_buf_adds(&b, "\xef\xbf\xbd");
			i++;
		} else {
			sp_buf_add(&b, d + i, (size_t)n);
			i += (size_t)n;
		}
	}
	s = json_stringn(b.data ? b.data : "", b.len);
	sp_buf_free(&b);
	return s;
}

static void set_cut(json_t *obj, const char *key, size_t bytes, size_t kept, const char *base,
		    const char *stream)
{
	json_t *cut = json_pack("{s:I, s:I}", "bytes", (json_int_t)bytes, "kept", (json_int_t)kept);
	char *uri = NULL;

	if (base && asprintf(&uri, "%s%s", base, stream) >= 0)
		json_object_set_new(cut, "uri", json_string(uri));
	free(uri);
	json_object_set_new(obj, key, cut);
}

json_t *mcp_streams_object(const struct sp_result *r, const struct mcp_cut *cut,
			   const char *output_uri)
{
	struct sp_result c = *r;
	json_t *obj;

	c.out_len = cut->out_kept;
	c.err = r->err ? r->err + (r->err_len - cut->err_kept) : NULL;
	c.err_len = cut->err_kept;
	obj = result_json(&c, NULL, &c.limits);
	if (!obj)
		return NULL;
	if (cut->out_kept < r->out_len)
		set_cut(obj, "stdout_cut", r->out_len, cut->out_kept, output_uri, "stdout");
	if (cut->err_kept < r->err_len)
		set_cut(obj, "stderr_cut", r->err_len, cut->err_kept, output_uri, "stderr");
	return obj;
}

json_t *mcp_streams_block(const json_t *obj, const struct sp_result *r, const struct mcp_cut *cut,
			  bool keep_base64)
{
	json_t *b = json_deep_copy(obj);

	if (!b)
		return NULL;
	json_object_del(b, "stdout");
	json_object_del(b, "stderr");
	if (!keep_base64) {
		json_object_del(b, "stdout_base64");
		json_object_del(b, "stderr_base64");
	}
	if (cut->out_kept > cut->out_shown)
		json_object_set_new(b, "stdout_rest", clean_string(r->out + cut->out_shown,
								   cut->out_kept - cut->out_shown));
	if (cut->err_kept > cut->err_shown)
		json_object_set_new(b, "stderr_rest",
				    clean_string(r->err + (r->err_len - cut->err_kept),
						 cut->err_kept - cut->err_shown));
	return b;
}

/* What the two JSON parts cost as sent: structuredContent (unless the
 * client gets text only) and the JSON block, a string holding JSON. */
static size_t streams_cost(const struct sp_result *r, const struct mcp_cut *cut,
			   bool text_only, const char *output_uri, json_t **obj, char **block)
{
	json_t *blk, *s;
	size_t cost;

	json_decref(*obj);
	free(*block);
	*obj = mcp_streams_object(r, cut, output_uri);
	blk = *obj ? mcp_streams_block(*obj, r, cut, text_only) : NULL;
	*block = blk ? mcp_json_visible(blk) : NULL;
	s = *block ? json_string(*block) : NULL;
	cost = (text_only ? 0 : mcp_json_size(*obj)) + (s ? mcp_json_size(s) : 0);
	json_decref(s);
	json_decref(blk);
	return cost;
}

size_t mcp_streams_fit(const struct sp_result *r, size_t avail, size_t pictures,
		       struct mcp_cut *cut, bool text_only, const char *output_uri, json_t **obj,
		       char **block)
{
	struct mcp_cut least = *cut;
	size_t base, cost, allowance;

	/* the usual case, in one try: everything fits beside the pictures */
	cut->out_kept = r->out_len;
	cut->err_kept = r->err_len;
	cost = streams_cost(r, cut, text_only, output_uri, obj, block);
	if (cost <= avail - (pictures < avail / 2 ? pictures : avail / 2))
		return cost;
	least.out_kept = cut->out_shown;
	least.err_kept = cut->err_shown;
	base = streams_cost(r, &least, text_only, output_uri, obj, block);
	avail = avail > base ? avail - base : 0;
	allowance = avail - (pictures < avail / 2 ? pictures : avail / 2);
	for (int i = 0; i < 6; i++) {
		double ratio;

		cost = streams_cost(r, cut, text_only, output_uri, obj, block);
		if (cost <= base + allowance)
			return cost;
		ratio = (double)allowance / (double)(cost - base) * 0.9;
		cut->out_kept = mcp_head_bytes(r->out, r->out_len, cut->out_shown +
			(size_t)((double)(cut->out_kept - cut->out_shown) * ratio));
		cut->err_kept = mcp_tail_bytes(r->err, r->err_len, cut->err_shown +
			(size_t)((double)(cut->err_kept - cut->err_shown) * ratio));
	}
	*cut = least;
	return streams_cost(r, cut, text_only, output_uri, obj, block);
}

/* cp as JSON's \u escape (a pair of them past the BMP) */
static void add_escape(struct sp_buf *b, unsigned cp)
{
	char e[16];

	if (cp > 0xffff) {
		cp -= 0x10000;
		snprintf(e, sizeof e, "\\u%04X\\u%04X", 0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
	} else {
		snprintf(e, sizeof e, "\\u%04X", cp);
	}
	sp_buf_adds(b, e);
}

char *mcp_json_visible(const json_t *v)
{
	char *text = sp_json_dumps(v, JSON_COMPACT);
	struct sp_buf b = SP_BUF_INIT;
	size_t len;

	if (!text)
		return NULL;
	len = strlen(text);
	/* jansson writes valid UTF-8 and escapes C0 itself; what is raw past
	 * ASCII can only be inside a string, where an escape means the same */
	for (size_t i = 0; i < len;) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)text + i,
						      (utf8proc_ssize_t)(len - i), &c);
		if (n <= 0)
			n = 1, c = 0xfffd;
		if (sanitize_hides((unsigned)c))
			add_escape(&b, (unsigned)c);
		else
			sp_buf_add(&b, text + i, (size_t)n);
		i += (size_t)n;
	}
	free(text);
	return sp_buf_detach(&b, NULL);
}

size_t mcp_json_size(const json_t *v)
{
	char *text = sp_json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	size_t n = text ? strlen(text) : 0;

	free(text);
	return n;
}
