/* SPDX-License-Identifier: MIT */
/*
 * doctor_stack.c - the scientific stack as the sandbox sees it: which of
 * the default stack (numpy, pandas, matplotlib, scipy, scikit-learn,
 * statsmodels, seaborn, sympy, openpyxl: what hosted code interpreters
 * ship) its Python can import, and which version. Measured by a real sandboxed run under the default limits, so
 * it says what a program will meet (a package the host has but the
 * sandbox cannot load, under its memory or process limits, shows as the
 * error the program would get).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandpit.h"
#include "cmd/commands.h"
#include "text/sanitize.h"
#include "buf.h"
#include "banned.h"

static const char probe[] =
	"import importlib\n"
	"for m in ('numpy', 'pandas', 'matplotlib', 'scipy', 'sklearn', 'statsmodels',\n"
	"          'seaborn', 'sympy', 'openpyxl'):\n"
	"    try:\n"
	"        v = getattr(importlib.import_module(m), '__version__', '?')\n"
	"        print(m, 'yes', v)\n"
	"    except BaseException as e:\n"
	"        print(m, 'NO', type(e).__name__ + ':', str(e).splitlines()[0][:80] if str(e) else '')\n";

/* the module a program imports, and Debian's package that has it */
static const struct { const char *module, *debian; } packages[] = {
	{ "numpy", "python3-numpy" }, { "pandas", "python3-pandas" },
	{ "matplotlib", "python3-matplotlib" }, { "scipy", "python3-scipy" },
	{ "sklearn", "python3-sklearn" }, { "statsmodels", "python3-statsmodels" },
	{ "seaborn", "python3-seaborn" }, { "sympy", "python3-sympy" },
	{ "openpyxl", "python3-openpyxl" },
};

/* One line of the probe's output for package name, or NULL. */
static const char *find_line(const char *out, size_t len, const char *name, size_t *line_len)
{
	size_t nl = strlen(name);

	for (size_t i = 0; i < len;) {
		const char *end = memchr(out + i, '\n', len - i);
		size_t l = end ? (size_t)(end - (out + i)) : len - i;
		if (l > nl && memcmp(out + i, name, nl) == 0 && out[i + nl] == ' ') {
			*line_len = l - nl - 1;
			return out + i + nl + 1;
		}
		i += l + 1;
	}
	return NULL;
}

int doctor_print_stack(void)
{
	struct sp_config cfg;
	struct sp_result *r = NULL;
	struct sp_error err = { "" };
	int missing = 0;
	char apt[512] = "";

	sp_config_init(&cfg);
	cfg.code = probe;
	cfg.code_len = sizeof probe - 1;
	cfg.filename = "doctor.py";
	cfg.keep_output = true;
	/* nine imports in one run: a few seconds of CPU, more on a slow or
	 * busy machine; one program rarely imports them all */
	cfg.limits.cpu_ms = 20000;
	cfg.limits.wall_ms = 40000;
	printf("\nPython packages (imported in a sandboxed run, default limits but\n"
	       "20 s of CPU for all nine):\n\n");
	if (sp_run_blocking(&cfg, &r, &err) < 0 || !r ||
	    r->status == SP_STATUS_SANDBOX_ERROR) {
		printf("  not measured: the sandbox could not run (%s)\n",
		       r ? r->error : err.msg);
		sp_result_free(r);
		return 1;
	}
	for (size_t i = 0; i < SP_ARRAY_SIZE(packages); i++) {
		size_t l = 0;
		const char *line = find_line(r->out, r->out_len, packages[i].module, &l);
		char *text = NULL;

		if (line) {
			char *raw = strndup(line, l);
			text = raw ? sanitize_dup(raw, true) : NULL;
			free(raw);
		}
		if (!text || strncmp(text, "yes ", 4) != 0) {
			missing = 1;
			snprintf(apt + strlen(apt), sizeof apt - strlen(apt), " %s",
				 packages[i].debian);
		}
		if (text && strncmp(text, "yes ", 4) == 0)
			printf("  %-18s yes  %s\n", packages[i].module, text + 4);
		else
			printf("  %-18s NO   %s\n", packages[i].module,
			       text ? text + (strncmp(text, "NO ", 3) == 0 ? 3 : 0)
				    : sp_status_name(r->status));
		free(text);
	}
	printf("  (%.2f s wall, peak memory %.1f MiB for the imports)\n",
	       (double)r->usage.wall_ms / 1000.0,
	       (double)r->usage.peak_memory_bytes / 1048576.0);
	if (missing)
		printf("\nA package is missing: a program that imports it gets ModuleNotFoundError,\n"
		       "and the demos that use it say so. A run can never install one (it has\n"
		       "no network); the machine's owner can, outside the sandbox. On Debian or\n"
		       "Ubuntu: sudo apt-get install%s\n"
		       "(`make run` installs the default stack), or give --python a virtual\n"
		       "environment's python3 (see man sandpit).\n", apt);
	sp_result_free(r);
	return missing;
}
