/* SPDX-License-Identifier: MIT */
/*
 * mcp_content.c - a run's result as an MCP tool result (mcp_content.h).
 *
 * The text block is written for a model that has to fix its program:
 * what happened in one sentence first, then what it printed, then what
 * the sandbox refused and why, then what it left. Everything from the
 * program is hostile: its output is cut to a stated size and invalid
 * UTF-8 replaced; a picture goes out as an image only when its bytes
 * begin as a PNG or a JPEG does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "image/image.h"
#include "text/base64.h"
#include "buf.h"
#include "text/fileio.h"
#include "service/mcp_content.h"
#include "service/mcp_picture.h"
#include "service/mcp_streams.h"
#include "service/result_json.h"
#include "text/sanitize.h"
#include "json_text.h"
#include "banned.h"

__attribute__((format(printf, 2, 3)))
static void addf(struct sp_buf *b, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n > 0)
		sp_buf_add(b, s, (size_t)n);
	free(s);
}

/* The program's text into b as a terminal may show it: controls and
 * invalid bytes visible, never obeyed (text/sanitize.h); one_line also
 * shows line breaks, for a name inside a line of ours. */
static void add_visible(struct sp_buf *b, const char *text, size_t len, bool one_line)
{
	struct sanitizer san;
	size_t cap = sanitize_max_out(len), n;
	char *out = malloc(cap);

	if (!out)
		return;
	sanitize_init(&san);
	san.one_line = one_line;
	n = sanitize_feed(&san, text, len, out, cap);
	n += sanitize_finish(&san, out + n, cap - n);
	sp_buf_add(b, out, n);
	free(out);
}

static void add_clean(struct sp_buf *b, const char *text, size_t len)
{
	add_visible(b, text, len, false);
}

static void add_name(struct sp_buf *b, const char *text)
{
	add_visible(b, text, strlen(text), true);
}

json_t *mcp_string(const char *text, size_t len)
{
	struct sp_buf b = SP_BUF_INIT;
	json_t *s;

	add_clean(&b, text, len);
	s = json_stringn(b.data ? b.data : "", b.len);
	sp_buf_free(&b);
	return s;
}

const char *mcp_image_type(const unsigned char *d, size_t n)
{
	if (n >= 8 && !memcmp(d, "\x89PNG\r\n\x1a\n", 8))
		return "image/png";
	if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff)
		return "image/jpeg";
	return NULL;
}

char *mcp_uri_path(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *out = malloc(n * 3 + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p)) {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

/* A run stopped by one of its limits: what the program did, the limit
 * it had (its time or its size in words), and what to do about it. */
static void add_limit_stop(struct sp_buf *b, const struct sp_result *r)
{
	static const struct {
		enum sp_status status;
		const char *did, *advice;
	} stops[] = {
		{ SP_STATUS_CPU_LIMIT, "used up its CPU time limit of",
		  "make it do less work, or ask a higher limits.cpu" },
		{ SP_STATUS_WALL_LIMIT, "ran past its wall-clock limit of",
		  "it may wait for input that never comes, or sleep" },
		{ SP_STATUS_MEMORY_LIMIT, "went over its memory limit of",
		  "use less memory, or ask a higher limits.memory" },
		{ SP_STATUS_OUTPUT_LIMIT, "wrote more than its output limit of", "print less" },
	};
	const struct sp_limits *l = &r->limits;
	char v[32];

	if (r->status == SP_STATUS_CPU_LIMIT || r->status == SP_STATUS_WALL_LIMIT)
		sp_format_ms(r->status == SP_STATUS_CPU_LIMIT ? l->cpu_ms : l->wall_ms, v, sizeof v);
	else
		sp_format_bytes(r->status == SP_STATUS_MEMORY_LIMIT ? l->memory_bytes : l->output_bytes,
				v, sizeof v);
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		if (stops[i].status == r->status)
			addf(b, "stopped: the program %s %s (%s)", stops[i].did, v, stops[i].advice);
}

/* The status in words, as one sentence. */
static void add_status(struct sp_buf *b, const struct sp_result *r)
{
	addf(b, "Status: %s - ", sp_status_name(r->status));
	switch (r->status) {
	case SP_STATUS_OK:
		if (r->exit_code == 0)
			addf(b, "the program ended normally (exit 0)");
		else
			addf(b, "the program ended with exit status %d", r->exit_code);
		break;
	case SP_STATUS_ERROR:
		if (r->exit_code >= 0)
			addf(b, "the program failed with exit status %d (an uncaught exception "
			     "prints its traceback on stderr)", r->exit_code);
		else
			addf(b, "the program was killed by signal %d", r->signal);
		break;
	case SP_STATUS_CPU_LIMIT:
	case SP_STATUS_WALL_LIMIT:
	case SP_STATUS_MEMORY_LIMIT:
	case SP_STATUS_OUTPUT_LIMIT:
		add_limit_stop(b, r);
		break;
	case SP_STATUS_KILLED:
		addf(b, "the run was cancelled and killed");
		break;
	case SP_STATUS_SANDBOX_ERROR:
		addf(b, "the sandbox failed, the program did not run: %s", r->error);
		break;
	}
	addf(b, ".\n");
}

static void add_usage(struct sp_buf *b, const struct sp_result *r)
{
	char wall[32], cpu[32], mem[32], out[32], lc[32], lw[32], lm[32], lo[32];

	sp_format_ms(r->usage.wall_ms, wall, sizeof wall);
	sp_format_ms(r->usage.cpu_ms, cpu, sizeof cpu);
	sp_format_bytes(r->usage.peak_memory_bytes, mem, sizeof mem);
	sp_format_bytes(r->usage.output_bytes, out, sizeof out);
	sp_format_ms(r->limits.cpu_ms, lc, sizeof lc);
	sp_format_ms(r->limits.wall_ms, lw, sizeof lw);
	sp_format_bytes(r->limits.memory_bytes, lm, sizeof lm);
	sp_format_bytes(r->limits.output_bytes, lo, sizeof lo);
	addf(b, "Used: %s wall, %s CPU, peak memory %s, %s of output (limits: %s CPU, %s wall, "
	     "%s memory, %s output).\n", wall, cpu, mem, out, lc, lw, lm, lo);
}

/* One stream, its shown bytes: stdout keeps its head, stderr its tail
 * (where a traceback ends); a cut says where the rest is. */
static void add_stream(struct sp_buf *b, const char *name, const char *data, size_t len,
		       size_t shown, bool tail, const struct mcp_content_opts *o)
{
	char all[32], cut[32];

	if (len == 0) {
		addf(b, "\n%s: (empty)\n", name);
		return;
	}
	sp_format_bytes(len, all, sizeof all);
	if (len <= shown) {
		addf(b, "\n%s (%s):\n", name, all);
		add_clean(b, data, len);
	} else {
		sp_format_bytes(shown, cut, sizeof cut);
		addf(b, "\n%s (%s, cut: only its %s %s shown here; the %s in the JSON block "
		     "below as %s_rest", name, all, tail ? "last" : "first", cut,
		     tail ? "bytes before them" : "rest", name);
		if (o->output_uri)
			addf(b, ", and all of it at %s%s", o->output_uri, name);
		sp_buf_adds(b, "):\n");
		if (tail) {
			sp_buf_adds(b, "...");
			add_clean(b, data + len - shown, shown);
		} else {
			add_clean(b, data, shown);
			sp_buf_adds(b, "...");
		}
	}
	if (b->len && b->data[b->len - 1] != '\n')
		sp_buf_adds(b, "\n");
}

/* The value of the program's last expression, as a notebook's Out:
 * (program-made: cleaned like the streams, and bounded by the engine). */
static void add_last_value(struct sp_buf *b, const struct sp_result *r)
{
	if (!r->last_value_repr)
		return;
	addf(b, "\nOut (the last expression's value, of type %s):\n",
	     r->last_value_type ? r->last_value_type : "value");
	add_clean(b, r->last_value_repr, strlen(r->last_value_repr));
	if (b->len && b->data[b->len - 1] != '\n')
		sp_buf_adds(b, "\n");
}

static void add_findings(struct sp_buf *b, const struct sp_result *r)
{
	if (r->n_violations)
		addf(b, "\nViolations (the sandbox refused these; every limit is the kernel's):\n");
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		addf(b, "%zu. %s", i + 1, sp_violation_kind_name(v->kind));
		if (v->line > 0)
			addf(b, " at line %d", v->line);
		sp_buf_adds(b, ": ");
		add_name(b, v->what);
		if (v->count > 1)
			addf(b, " (%u times)", v->count);
		sp_buf_adds(b, "\n   ");
		add_clean(b, v->message, strlen(v->message));
		sp_buf_adds(b, "\n");
	}
	if (r->n_hints)
		addf(b, "\nHints (why the error above happened here):\n");
	for (size_t i = 0; i < r->n_hints; i++) {
		const struct sp_hint *h = &r->hints[i];
		addf(b, "- %s", h->about);
		if (h->line > 0)
			addf(b, " at line %d", h->line);
		sp_buf_adds(b, ": ");
		add_clean(b, h->message, strlen(h->message));
		sp_buf_adds(b, "\n");
	}
}

bool mcp_is_text(const char *d, size_t n)
{
	size_t i = 0;

	if (memchr(d, '\0', n))
		return false;
	while (i < n) {
		utf8proc_int32_t c;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)d + i,
						      (utf8proc_ssize_t)(n - i), &c);
		if (k <= 0)
			return false;
		i += (size_t)k;
	}
	return true;
}

/* Is d (n bytes) text a terminal shows as it is: UTF-8 with no control
 * but line breaks and tabs? Only such a file is embedded as text. */
static bool shows_as_is(const char *d, size_t n)
{
	if (!mcp_is_text(d, n))
		return false;
	for (size_t i = 0; i < n;) {
		utf8proc_int32_t c;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)d + i,
						      (utf8proc_ssize_t)(n - i), &c);
		if (k <= 0 || sanitize_hides((unsigned)c))
			return false;
		i += (size_t)k;
	}
	return true;
}

/* What an image block costs beside its base64 (type, mimeType, JSON). */
#define IMAGE_BLOCK_BYTES 64

/* The pictures the files may hold (by their names), at most MCP_MAX_IMAGES. */
static size_t pictures_named(const struct sp_result *r, size_t from, size_t *bytes)
{
	size_t n = 0;

	if (bytes)
		*bytes = 0;
	for (size_t i = from; i < r->n_files && n < MCP_MAX_IMAGES; i++)
		if (r->files[i].kept && image_name_is_image(r->files[i].path)) {
			n++;
			if (bytes)
				*bytes += (r->files[i].bytes + 2) / 3 * 4 + IMAGE_BLOCK_BYTES;
		}
	return n;
}

/* An upper bound on the bytes the files' lines take in the text block. */
static size_t files_text_bound(const struct sp_result *r)
{
	size_t n = 200;

	for (size_t i = 0; i < r->n_files; i++)
		/* the name shown (<= 8 bytes a byte, JSON escapes at most double
		 * that), its URI (3 a byte), a sentence and sizes */
		n += strlen(r->files[i].path) * 19 + (r->files[i].skipped ?
		     strlen(r->files[i].skipped) * 16 : 0) + 400;
	return n;
}

/* A picture file as an image block, if it decodes and fits its share of
 * *left (then *link is dropped); what the text says of it in how, and
 * how it names the link in *at. */
static void add_picture(json_t *content, json_t **link, const char *data, size_t n,
			size_t share, size_t *left, unsigned *images, char *how, size_t how_len,
			const char **at)
{
	struct mcp_picture p;
	int rc = mcp_picture_make(data, n, share > IMAGE_BLOCK_BYTES ? share - IMAGE_BLOCK_BYTES : 0,
				  &p);

	if (rc == 0) {
		size_t cost = strlen(p.base64) + IMAGE_BLOCK_BYTES;
		json_array_append_new(content, json_pack("{s:s, s:s, s:s}", "type", "image", "data",
							 p.base64, "mimeType", p.mime));
		*left = *left > cost ? *left - cost : 0;
		(*images)++;
		if (p.shrunk)
			snprintf(how, how_len, "a picture of %dx%d pixels, shown as an image shrunk to "
				 "%dx%d (%s)", p.file_w, p.file_h, p.w, p.h,
				 p.file_w > MCP_PICTURE_SIDE || p.file_h > MCP_PICTURE_SIDE ?
				 "over 8000 pixels a side" : "to fit the result's size budget");
		else
			snprintf(how, how_len, "a picture, shown as an image");
		*at = p.shrunk ? "the file whole at" : "the file at";
		json_decref(*link);
		*link = NULL;
	} else {
		snprintf(how, how_len, "%s", p.why);
		*at = "its bytes at";
	}
	mcp_picture_free(&p);
}

/* A kept file's bytes as far as they may be sent: a picture (by its
 * first bytes) up to MCP_MAX_IMAGE_BYTES, else text up to
 * MCP_EMBED_TEXT_BYTES; NULL for anything else, or a file that cannot be
 * read. Never a large file read for nothing. */
static char *read_kept(const struct sp_file *f, size_t *n)
{
	struct fio_error e;
	char *head;

	if (f->bytes <= MCP_EMBED_TEXT_BYTES)
		return fio_read(f->kept, MCP_EMBED_TEXT_BYTES, FIO_NOFOLLOW, n, &e);
	if (f->bytes > MCP_MAX_IMAGE_BYTES)
		return NULL;
	head = fio_read(f->kept, 8, FIO_NOFOLLOW | FIO_PREFIX, n, &e);
	if (!head || !mcp_image_type((unsigned char *)head, *n)) {
		free(head);
		return NULL;
	}
	free(head);
	return fio_read(f->kept, MCP_MAX_IMAGE_BYTES, FIO_NOFOLLOW, n, &e);
}

/* The files: images, embedded text or links appended to content, and a
 * line each in the text; *left is the budget they may take. */
static void add_files(struct sp_buf *b, json_t *content, const struct sp_result *r,
		      const struct mcp_content_opts *o, size_t *left)
{
	unsigned images = 0;

	if (!r->n_files)
		return;
	addf(b, "\nFiles the program left in its work dir (gone now; each run starts empty):\n");
	for (size_t i = 0; i < r->n_files; i++) {
		const struct sp_file *f = &r->files[i];
		char size[32], how[400] = "", *data = NULL, *up = NULL, *uri = NULL;
		const char *at = "read it with resources/read at";
		size_t n = 0;
		json_t *link;

		sp_format_bytes(f->bytes, size, sizeof size);
		sp_buf_adds(b, "- ");
		add_name(b, f->path);
		if (!f->kept || o->text_only || !o->uri_base) {
			addf(b, " (%s%s", size, f->skipped ? ", not kept: " : "");
			if (f->skipped)
				add_name(b, f->skipped);
			sp_buf_adds(b, ")\n");
			continue;
		}
		if ((up = mcp_uri_path(f->path)) && asprintf(&uri, "%s%s", o->uri_base, up) < 0)
			uri = NULL;
		free(up);
		if (!uri) {
			addf(b, " (%s)\n", size);
			continue;
		}
		link = json_pack("{s:s, s:s, s:o, s:I}", "type", "resource_link", "uri", uri,
				 "name", mcp_string(f->path, strlen(f->path)), "size",
				 (json_int_t)f->bytes);
		data = read_kept(f, &n);
		if (data && mcp_image_type((unsigned char *)data, n) && images < MCP_MAX_IMAGES) {
			size_t pending = pictures_named(r, i + 1, NULL) + 1;
			add_picture(content, &link, data, n, *left / pending, left, &images, how,
				    sizeof how, &at);
		} else if (data && mcp_image_type((unsigned char *)data, n)) {
			snprintf(how, sizeof how, "a picture over the %d sent with a result",
				 MCP_MAX_IMAGES);
		} else if (data && n <= MCP_EMBED_TEXT_BYTES && shows_as_is(data, n) &&
			   n * 2 + strlen(uri) + 80 <= *left) {
			json_array_append_new(content, json_pack("{s:s, s:{s:s, s:s, s:s%}}",
					      "type", "resource", "resource", "uri", uri,
					      "mimeType", "text/plain", "text", data, n));
			*left -= n * 2 + strlen(uri) + 80;
			at = "its text is attached as";
			json_decref(link);
			link = NULL;
		}
		if (link) {
			size_t cost = mcp_json_size(link);
			*left = *left > cost ? *left - cost : 0;
			json_array_append_new(content, link);
		}
		addf(b, " (%s): %s%s%s %s\n", size, how, how[0] ? "; " : "", at, uri);
		free(data);
		free(uri);
	}
}

static void add_carry(struct sp_buf *b, const struct sp_result *r)
{
	if (!r->carry_out)
		return;
	sp_buf_adds(b, "\ncarry_out: ");
	add_clean(b, r->carry_out, strlen(r->carry_out) > 2000 ? 2000 : strlen(r->carry_out));
	if (strlen(r->carry_out) > 2000)
		sp_buf_adds(b, "... (cut; the JSON block below and structuredContent.carry_out "
			    "have it all)");
	sp_buf_adds(b, "\nPass this object as \"carry\" in the next run_python call: its names "
		    "become globals there (runs share no other state).\n");
}

static bool clean_end(const struct sp_result *r)
{
	return r->status == SP_STATUS_OK && r->exit_code == 0 && r->n_violations == 0;
}

bool mcp_output_cut(const struct sp_result *r)
{
	return r && (r->out_len > MCP_STDOUT_SHOWN || r->err_len > MCP_STDERR_SHOWN);
}

/* The text block up to the files: the status, usage, the streams' shown
 * parts, Out, the findings. */
static void add_summary(struct sp_buf *b, const struct sp_result *r, const struct mcp_cut *cut,
			const struct mcp_content_opts *o)
{
	add_status(b, r);
	add_usage(b, r);
	if (o->clamped && o->clamped[0])
		addf(b, "Limits asked over the server's maxima were lowered: %s.\n", o->clamped);
	add_stream(b, "stdout", r->out, r->out_len, cut->out_shown, false, o);
	add_stream(b, "stderr", r->err, r->err_len, cut->err_shown, true, o);
	add_last_value(b, r);
	if (r->truncated)
		addf(b, "(the output stopped at the output limit)\n");
	add_findings(b, r);
}

/* What a result takes beside its blocks' contents: the content array,
 * the blocks' keys, isError, the JSON-RPC envelope and its id. */
#define RESULT_FRAME_BYTES 256

json_t *mcp_tool_result(const struct sp_result *r, const char *why,
			const struct sp_limits *limits, const struct mcp_content_opts *o)
{
	struct sp_buf b = SP_BUF_INIT, tail = SP_BUF_INIT;
	json_t *res = json_object(), *content = json_array(), *text, *obj = NULL, *s;
	size_t budget = o->budget ? o->budget : MCP_RESULT_BUDGET, fixed, left, cost, pictures = 0;
	struct sp_result failed;
	struct mcp_cut cut;
	char *dump = NULL;

	r = result_or_unstarted(r, why, limits, &failed);
	cut.out_shown = mcp_head_bytes(r->out, r->out_len, MCP_STDOUT_SHOWN);
	cut.err_shown = mcp_tail_bytes(r->err, r->err_len, MCP_STDERR_SHOWN);
	add_summary(&b, r, &cut, o);
	add_carry(&tail, r);

	/* the budget: the text first (its files' lines bounded ahead), then
	 * the JSON with the streams, then the pictures and files */
	s = json_stringn(b.data ? b.data : "", b.len);
	fixed = mcp_json_size(s) + tail.len * 2 + files_text_bound(r) + RESULT_FRAME_BYTES;
	json_decref(s);
	if (!o->text_only && o->uri_base)
		pictures_named(r, 0, &pictures);
	left = budget > fixed ? budget - fixed : 0;
	cost = mcp_streams_fit(r, left, pictures, &cut, o->text_only, o->output_uri, &obj, &dump);
	left = left > cost ? left - cost : 0;

	text = json_object();
	json_array_append_new(content, text);
	add_files(&b, content, r, o, &left);
	sp_buf_add(&b, tail.data ? tail.data : "", tail.len);
	sp_buf_free(&tail);
	json_object_set_new(text, "type", json_string("text"));
	json_object_set_new(text, "text", json_stringn(b.data ? b.data : "", b.len));
	sp_buf_free(&b);
	if (dump)
		json_array_append_new(content, json_pack("{s:s, s:s}", "type", "text", "text", dump));
	free(dump);
	json_object_set_new(res, "content", content);
	if (obj && !o->text_only)
		json_object_set_new(res, "structuredContent", obj);
	else
		json_decref(obj);
	json_object_set_new(res, "isError", json_boolean(!clean_end(r)));
	return res;
}

json_t *mcp_tool_error(const char *text)
{
	return json_pack("{s:[{s:s, s:o}], s:b}", "content", "type", "text", "text",
			 mcp_string(text, strlen(text)), "isError", 1);
}
