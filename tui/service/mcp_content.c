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

#include "text/base64.h"
#include "buf.h"
#include "text/fileio.h"
#include "service/mcp_content.h"
#include "service/mcp_picture.h"
#include "service/result_json.h"
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

/* text into b, invalid UTF-8 replaced by U+FFFD */
static void add_clean(struct sp_buf *b, const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)text + i,
						      (utf8proc_ssize_t)(len - i), &c);
		if (n <= 0) {
			sp_buf_adds(b, "\xef\xbf\xbd");
			i++;
			continue;
		}
		sp_buf_add(b, text + i, (size_t)n);
		i += (size_t)n;
	}
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

/* One stream, cut at shown bytes: stdout keeps its head, stderr its
 * tail (where a traceback ends). */
static void add_stream(struct sp_buf *b, const char *name, const char *data, size_t len,
		       size_t shown, bool tail)
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
		addf(b, "\n%s (%s, cut: only its %s %s shown here; structuredContent.%s has it "
		     "all):\n", name, all, tail ? "last" : "first", cut, name);
		if (tail) {
			size_t at = len - shown;
			/* start on a character, not inside one */
			while (at < len && ((unsigned char)data[at] & 0xc0) == 0x80)
				at++;
			sp_buf_adds(b, "...");
			add_clean(b, data + at, len - at);
		} else {
			size_t n = shown;
			while (n > 0 && ((unsigned char)data[n] & 0xc0) == 0x80)
				n--;
			add_clean(b, data, n);
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
		add_clean(b, v->what, strlen(v->what));
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

/* A picture file as an image block if it decodes (mcp_picture.h): 0, with
 * the sentence the text says of it in how; else -1 and why in how. */
static int add_picture(json_t *content, const char *data, size_t n, char *how, size_t how_len)
{
	struct mcp_picture p;
	int rc = mcp_picture_make(data, n, (MCP_MAX_IMAGE_BYTES + 2) / 3 * 4, &p);

	if (rc == 0) {
		json_array_append_new(content, json_pack("{s:s, s:s, s:s}", "type", "image", "data",
							 p.base64, "mimeType", p.mime));
		if (p.shrunk)
			snprintf(how, how_len, "a picture of %dx%d pixels, shown as an image shrunk to "
				 "%dx%d (over 8000 pixels a side; the file is whole at the link)",
				 p.file_w, p.file_h, p.w, p.h);
		else
			snprintf(how, how_len, "a picture, shown as an image");
	} else {
		snprintf(how, how_len, "%s: its bytes at the link", p.why);
	}
	mcp_picture_free(&p);
	return rc == 0 ? 0 : -1;
}

/* The files: images, embedded text or links appended to content, and a
 * line each in the text. */
static void add_files(struct sp_buf *b, json_t *content, const struct sp_result *r,
		      const struct mcp_content_opts *o)
{
	unsigned images = 0;

	if (!r->n_files)
		return;
	addf(b, "\nFiles the program left in its work dir (gone now; each run starts empty):\n");
	for (size_t i = 0; i < r->n_files; i++) {
		const struct sp_file *f = &r->files[i];
		char size[32], how_buf[400], *data = NULL, *up = NULL, *uri = NULL;
		const char *how;
		size_t n = 0;
		struct fio_error e;
		json_t *link;

		sp_format_bytes(f->bytes, size, sizeof size);
		sp_buf_adds(b, "- ");
		add_clean(b, f->path, strlen(f->path));
		if (!f->kept || o->text_only || !o->uri_base) {
			addf(b, " (%s%s%s)\n", size, f->skipped ? ", not kept: " : "",
			     f->skipped ? f->skipped : "");
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
		if (f->bytes <= MCP_MAX_IMAGE_BYTES)
			data = fio_read(f->kept, MCP_MAX_IMAGE_BYTES, FIO_NOFOLLOW, &n, &e);
		if (data && mcp_image_type((unsigned char *)data, n) && images < MCP_MAX_IMAGES) {
			if (add_picture(content, data, n, how_buf, sizeof how_buf) == 0) {
				images++;
				json_decref(link);
				link = NULL;
			}
			how = how_buf;
		} else if (data && mcp_image_type((unsigned char *)data, n)) {
			how = "a picture over the 4 sent with a result: read it at the link";
		} else if (data && n <= MCP_EMBED_TEXT_BYTES && mcp_is_text(data, n)) {
			json_array_append_new(content, json_pack("{s:s, s:{s:s, s:s, s:s%}}",
					      "type", "resource", "resource", "uri", uri,
					      "mimeType", "text/plain", "text", data, n));
			how = "its text is attached";
			json_decref(link);
			link = NULL;
		} else {
			how = "read it with resources/read at the link";
		}
		if (link)
			json_array_append_new(content, link);
		addf(b, " (%s): %s, %s\n", size, how, uri);
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
		sp_buf_adds(b, "... (cut; structuredContent.carry_out has it all)");
	sp_buf_adds(b, "\nPass this object as \"carry\" in the next run_python call: its names "
		    "become globals there (runs share no other state).\n");
}

static bool clean_end(const struct sp_result *r)
{
	return r->status == SP_STATUS_OK && r->exit_code == 0 && r->n_violations == 0;
}

json_t *mcp_tool_result(const struct sp_result *r, const char *why,
			const struct sp_limits *limits, const struct mcp_content_opts *o)
{
	struct sp_buf b = SP_BUF_INIT;
	json_t *res = json_object(), *content = json_array(), *obj, *text;
	struct sp_result failed;
	char *dump;

	r = result_or_unstarted(r, why, limits, &failed);
	add_status(&b, r);
	add_usage(&b, r);
	if (o->clamped && o->clamped[0])
		addf(&b, "Limits asked over the server's maxima were lowered: %s.\n", o->clamped);
	add_stream(&b, "stdout", r->out, r->out_len, MCP_STDOUT_SHOWN, false);
	add_stream(&b, "stderr", r->err, r->err_len, MCP_STDERR_SHOWN, true);
	add_last_value(&b, r);
	if (r->truncated)
		addf(&b, "(the output stopped at the output limit)\n");
	add_findings(&b, r);
	text = json_object();
	json_array_append_new(content, text);
	add_files(&b, content, r, o);
	add_carry(&b, r);
	json_object_set_new(text, "type", json_string("text"));
	json_object_set_new(text, "text", json_stringn(b.data ? b.data : "", b.len));
	sp_buf_free(&b);
	obj = result_json(r, why, limits);
	dump = obj ? sp_json_dumps(obj, JSON_COMPACT) : NULL;
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
