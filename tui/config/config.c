/* SPDX-License-Identifier: MIT */
/*
 * config.c - settings from defaults, the config file and flags, in that
 * order, so a flag always wins over the file.
 *
 * The file is INI-style `key = value` lines parsed by inih (a small, well
 * kept Debian library); we never parse it by hand. Keys: cpu, wall, memory,
 * output, disk, procs (read by tui/config/limit_fields.c, as the flags and the F4
 * dialog read them), python, theme, mouse, keep_runs, keep_bytes, prewarm,
 * preload, graphics; and [preset NAME] sections of limits, offered by the F4 dialog.
 */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "config/config.h"
#include "image/graphics.h"
#include "text/ini_lines.h"
#include "cmd/options.h"
#include "config/runfiles.h"
#include "banned.h"

/* Copy src into a fixed buffer, always NUL-terminated. */
static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* A dotted Python module name (ASCII identifiers), as the core takes it. */
static bool module_name_ok(const char *s, size_t n)
{
	bool start = true;

	if (n == 0 || n > CONFIG_MODULE_MAX || s[n - 1] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
		if (c == '.' && !start)
			start = true;
		else if (alpha || (!start && c >= '0' && c <= '9'))
			start = false;
		else
			return false;
	}
	return true;
}

/* "numpy, pandas, matplotlib.pyplot" (or empty: none) into cfg->preload;
 * all or nothing: a bad name keeps the list as it was. */
static int parse_preload(struct pg_config *cfg, const char *value, char *err,
			 size_t errlen)
{
	char names[SP_MAX_PRELOAD][CONFIG_MODULE_MAX + 1] = { { 0 } }; /* unused slots copied too */
	size_t n = 0;

	for (const char *p = value; *p;) {
		size_t len;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		len = strcspn(p, ",");
		size_t end = len;
		while (end && (p[end - 1] == ' ' || p[end - 1] == '\t'))
			end--;
		if (!module_name_ok(p, end)) {
			snprintf(err, errlen, "bad value '%s' for preload: '%.*s' is not a module "
				 "name; give names like numpy, pandas, matplotlib.pyplot, separated "
				 "by commas (or nothing, for none)", value, (int)(end > 60 ? 60 : end), p);
			return -1;
		}
		if (n == SP_MAX_PRELOAD) {
			snprintf(err, errlen, "preload: more than %d modules", SP_MAX_PRELOAD);
			return -1;
		}
		memcpy(names[n], p, end);
		names[n++][end] = '\0';
		p += len + (p[len] == ',');
	}
	memcpy(cfg->preload, names, sizeof names);
	cfg->n_preload = n;
	return 0;
}

int config_set(struct pg_config *cfg, const char *key, const char *value,
	       char *err, size_t errlen)
{
	int id = option_find(key, OPT_CONFIG);
	struct opt_value v;
	char known[300];

	if (id < 0) {
		option_names(OPT_CONFIG, known, sizeof known);
		snprintf(err, errlen, "unknown key '%s' (known: %s)", key, known);
		return -1;
	}
	/* the one option table the command line uses too: a limit goes
	 * through limit_fields.c, as the F4 dialog's, and only a value a run
	 * accepts is stored, so a bad line never leaves a broken limit */
	if (option_parse((enum opt_id)id, value, &cfg->limits, &v, err, errlen) < 0)
		return -1;
	switch (id) {
	case OPT_PYTHON: copy_str(cfg->python, sizeof cfg->python, v.s); break;
	case OPT_THEME: copy_str(cfg->theme, sizeof cfg->theme, v.s); break;
	case OPT_MOUSE: cfg->mouse = v.n != 0; break;
	case OPT_KEEP_RUNS: cfg->keep_runs = (unsigned)v.n; break;
	case OPT_KEEP_BYTES: cfg->keep_bytes = v.n; break;
	case OPT_PREWARM: cfg->prewarm = v.n != 0; break;
	case OPT_PRELOAD: return parse_preload(cfg, v.s, err, errlen);
	case OPT_GRAPHICS: {
		enum gfx_mode m;
		int is_auto;
		if (gfx_parse(v.s, &m, &is_auto) < 0) {
			snprintf(err, errlen, "bad value '%s' for graphics: give auto, kitty, "
				 "sixel or symbols", v.s);
			return -1;
		}
		copy_str(cfg->graphics, sizeof cfg->graphics, v.s);
		break;
	}
	default: break; /* a limit, stored by option_parse() */
	}
	return 0;
}

/* What the inih callback needs: the config, and every bad line. */
struct ini_ctx {
	struct pg_config *cfg;
	struct ini_lines in;
};

/* A line of a [preset NAME] section: a limit over the defaults. */
static int preset_set(struct pg_config *cfg, const char *section, const char *name,
		      const char *value, char *err, size_t errlen)
{
	const char *pname = section + 6;
	struct limit_preset *p;
	int lim = limit_find(name);

	while (*pname == ' ')
		pname++;
	if (!pname[0] || strlen(pname) >= sizeof p->name) {
		snprintf(err, errlen, "a preset needs a name of at most 31 characters: "
			 "[preset NAME]");
		return -1;
	}
	p = NULL;
	for (size_t i = 0; i < cfg->n_presets; i++)
		if (!strcmp(cfg->presets[i].name, pname))
			p = &cfg->presets[i];
	if (!p) {
		if (cfg->n_presets >= LIMIT_PRESET_MAX) {
			snprintf(err, errlen, "at most %d presets", LIMIT_PRESET_MAX);
			return -1;
		}
		p = &cfg->presets[cfg->n_presets++];
		sp_limits_default(&p->limits);
		copy_str(p->name, sizeof p->name, pname);
	}
	if (lim < 0) {
		char known[128] = "";
		for (int i = 0; i < LIM_COUNT; i++)
			snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s",
				 i ? ", " : "", limit_fields[i].key);
		snprintf(err, errlen, "unknown key '%s' in a preset (known: %s)", name, known);
		return -1;
	}
	if (limit_parse((enum limit_id)lim, value, &p->limits, err, errlen) < 0)
		return -1;
	return 0;
}

/* inih handler: 1 to accept the line, 0 to make ini_parse report it. */
static int ini_handler_cb(void *user, const char *section, const char *name,
			  const char *value)
{
	struct ini_ctx *ctx = user;
	char err[256];
	bool bad_value = true;       /* a value of the line is wrong, not where it is */

	if (!strncmp(section, "preset", 6) && (section[6] == ' ' || !section[6])) {
		if (preset_set(ctx->cfg, section, name, value, err, sizeof err) == 0)
			return 1;
	} else if (section[0]) {
		snprintf(err, sizeof err, "sections are not used ([%s]), but for [preset NAME]",
			 section);
		bad_value = false;
	} else if (config_set(ctx->cfg, name, value, err, sizeof err) == 0) {
		return 1;
	}
	if (bad_value && limit_find(name) >= 0) {
		char named[300];
		snprintf(named, sizeof named, "%s: %s", name, err);
		return ini_lines_error(&ctx->in, named);
	}
	return ini_lines_error(&ctx->in, err);
}

/* Read the config file; a missing default file is no error. Every bad
 * line is reported (cfg->error, "FILE:LINE: what", one a line), and the
 * good ones still apply. */
static void load_file(struct pg_config *cfg, const char *path, bool explicit)
{
	struct ini_ctx ctx = { .cfg = cfg };
	char err[sizeof cfg->error];
	char *text;
	int rc;

	copy_str(cfg->config_path, sizeof cfg->config_path, path);
	text = ini_lines_read_file(path, 1u << 20, err, sizeof err);
	if (!text) {
		if (explicit || errno != ENOENT)
			copy_str(cfg->error, sizeof cfg->error, err);
		cfg->config_path[0] = '\0';
		return;
	}
	ini_lines_init(&ctx.in, text);
	rc = ini_parse_stream(ini_lines_reader, &ctx.in, ini_handler_cb, &ctx);
	if (rc < 0) {
		snprintf(cfg->error, sizeof cfg->error, "%s: out of memory", path);
	} else {
		ini_lines_finish(&ctx.in, rc);
		ini_lines_format(&ctx.in, path, cfg->error, sizeof cfg->error);
	}
	free(text);
}

void config_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		snprintf(buf, len, "%s/sandpit/config", xdg);
	else if (home && home[0])
		snprintf(buf, len, "%s/.config/sandpit/config", home);
	else if (len)
		buf[0] = '\0';
}

/* mkdir -p for the state directory; errors show up later on write. */
static void make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	mkdir(path, 0700);
}

int config_state_path(const char *name, char *buf, size_t len, bool create)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	const char *home = getenv("HOME");
	char dir[CONFIG_PATH_MAX];
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(dir, sizeof dir, "%s/sandpit", xdg);
	else if (home && home[0])
		n = snprintf(dir, sizeof dir, "%s/.local/state/sandpit", home);
	else
		return -1;
	if (n < 0 || (size_t)n >= sizeof dir)
		return -1;
	if (create)
		make_dirs(dir);
	n = snprintf(buf, len, "%s/%s", dir, name);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * Split "--name=value" or "--name value" at argv[*i]. Returns the value
 * (advancing *i when it was the next word) or NULL when missing.
 */
static const char *flag_value(int argc, char **argv, int *i, size_t namelen)
{
	const char *a = argv[*i] + 2 + namelen;
	if (*a == '=')
		return a + 1;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/* The settings before the file and the flags: the engine's limits and
 * the playground's own defaults. */
static void set_defaults(struct pg_config *cfg, char *usage_err, size_t errlen)
{
	memset(cfg, 0, sizeof *cfg);
	sp_limits_default(&cfg->limits);
	cfg->mouse = true;
	cfg->prewarm = true;
	parse_preload(cfg, CONFIG_PRELOAD_DEFAULT, usage_err, errlen);
	cfg->keep_runs = RUNFILES_DEFAULT_RUNS;
	cfg->keep_bytes = RUNFILES_DEFAULT_BYTES;
}

/* Is a "--name" or "--name=value" (len is strlen("--name"))? */
static bool is_flag(const char *a, const char *name, size_t len)
{
	return !strncmp(a, name, len) && (a[len] == '=' || !a[len]);
}

/* --config FILE, found first since the file comes before the flags:
 * *path, or NULL when none. 0, or -1 with usage_err. */
static int find_config_flag(int argc, char **argv, const char **path, char *usage_err,
			    size_t errlen)
{
	*path = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (is_flag(argv[i], "--config", 8) && !(*path = flag_value(argc, argv, &i, 6))) {
			snprintf(usage_err, errlen, "--config needs a FILE");
			return -1;
		}
	}
	return 0;
}

/* A flag of the option table (options.c) that takes a value, at argv[*i]:
 * it sets what its config key sets. 1 taken, 0 no such flag, -1 refused
 * with usage_err. */
static int take_value_flag(struct pg_config *cfg, int argc, char **argv, int *i,
			   char *usage_err, size_t errlen)
{
	const char *a = argv[*i];
	size_t n = strcspn(a + 2, "=");
	char name[64], err[256];
	const char *v;
	int id = -1;

	if (a[1] == '-' && n < sizeof name) {
		snprintf(name, sizeof name, "%.*s", (int)n, a + 2);
		id = option_find(name, OPT_PLAY);
	}
	if (id < 0 || !options[id].arg || !(options[id].where & OPT_CONFIG))
		return 0;
	if (!(v = flag_value(argc, argv, i, n))) {
		snprintf(usage_err, errlen, "--%s needs a value", name);
		return -1;
	}
	if (config_set(cfg, name, v, err, sizeof err) < 0) {
		snprintf(usage_err, errlen, "--%s: %s", name, err);
		return -1;
	}
	return 1;
}

/* One word of the command line, argv[*i] (*i moves past a flag's value).
 * 0 on to the next; 1 the end ("--" and the FILE after it); -1 refused
 * with usage_err. */
static int take_arg(struct pg_config *cfg, int argc, char **argv, int *i, char *usage_err,
		    size_t errlen)
{
	const char *a = argv[*i];
	int taken;

	if (!strcmp(a, "--")) {
		if (*i + 1 < argc)
			cfg->file = argv[*i + 1];
		if (*i + 2 < argc) {
			snprintf(usage_err, errlen, "only one FILE may be given");
			return -1;
		}
		return 1;
	}
	if (a[0] != '-' || !a[1]) {
		if (cfg->file) {
			snprintf(usage_err, errlen, "only one FILE may be given");
			return -1;
		}
		cfg->file = a;
		return 0;
	}
	if (is_flag(a, "--lessons", 9)) {
		cfg->lessons_dir = flag_value(argc, argv, i, 7);
		if (!cfg->lessons_dir || !cfg->lessons_dir[0]) {
			snprintf(usage_err, errlen, "--lessons needs a DIR");
			return -1;
		}
		return 0;
	}
	if (!strcmp(a, "--step")) {
		cfg->step = true;
		return 0;
	}
	if (!strcmp(a, "--no-mouse")) {
		cfg->mouse = false;
		return 0;
	}
	if (is_flag(a, "--config", 8)) {
		if (!a[8])
			++*i;
		return 0;
	}
	if ((taken = take_value_flag(cfg, argc, argv, i, usage_err, errlen)) != 0)
		return taken < 0 ? -1 : 0;
	snprintf(usage_err, errlen, "unknown option '%s' (see --help)", a);
	return -1;
}

int config_load(struct pg_config *cfg, int argc, char **argv,
		char *usage_err, size_t errlen)
{
	char path[CONFIG_PATH_MAX];
	const char *explicit_path;
	int rc = 0;

	set_defaults(cfg, usage_err, errlen);
	if (find_config_flag(argc, argv, &explicit_path, usage_err, errlen) < 0)
		return -1;
	if (explicit_path) {
		load_file(cfg, explicit_path, true);
	} else {
		config_default_path(path, sizeof path);
		if (path[0])
			load_file(cfg, path, false);
	}
	for (int i = 1; i < argc && rc == 0; i++)
		rc = take_arg(cfg, argc, argv, &i, usage_err, errlen);
	return rc < 0 ? -1 : 0;
}
