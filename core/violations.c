/* SPDX-License-Identifier: MIT */
/*
 * violations.c - violation records: merged by (kind, source, what, line),
 * bounded in number, each with a message in plain words: what happened,
 * which of the five constraints it hit, why the sandbox has it, and the
 * usual way around it.
 *
 * Each record has an id (1, 2, ... in order of first sight) that names it
 * for the whole run: a front end keys its list on the id, never on the
 * text, because the program chooses the text of a runtime record and
 * could otherwise make one that looks like (and hides) a kernel record.
 */
#include <stdlib.h>
#include <string.h>

#include "result.h"
#include "buf.h"
#include "banned.h"

const char *sp_violation_kind_name(enum sp_violation_kind k)
{
	static const char *const names[] = {
		[SP_VIOL_NETWORK] = "network",
		[SP_VIOL_FILESYSTEM] = "filesystem",
		[SP_VIOL_PROCESS] = "process",
		[SP_VIOL_SYSCALL] = "syscall",
		[SP_VIOL_CPU] = "cpu",
		[SP_VIOL_WALL] = "wall",
		[SP_VIOL_MEMORY] = "memory",
		[SP_VIOL_OUTPUT] = "output",
		[SP_VIOL_DISK] = "disk",
		[SP_VIOL_CARRY] = "carry",
	};
	if ((unsigned)k >= SP_ARRAY_SIZE(names))
		return "unknown";
	return names[k];
}

const char *sp_violation_message(enum sp_violation_kind kind, const char *what)
{
	(void)what;
	switch (kind) {
	case SP_VIOL_NETWORK:
		return "The program tried to reach a network. Constraint 1, no network: "
		       "the sandbox has no network at all (no HTTP, no DNS, no remote "
		       "databases), so a run cannot leak data or depend on the outside "
		       "world. Workaround: bring the data in yourself - attach the file "
		       "(F7, or sandpit run --file), paste it into the program or put it "
		       "in the carry buffer - instead of fetching it.";
	case SP_VIOL_FILESYSTEM:
		return "The program reached for a file outside its sandbox. Constraint 2, "
		       "limited filesystem: only the work dir /work (also /tmp) is "
		       "writable, and host system files and other users' files are not "
		       "there at all. Workaround: read and write files under /work; bring "
		       "input data in as a file (F7, or sandpit run --file: a copy lands "
		       "in /work), through the program or the carry buffer.";
	case SP_VIOL_PROCESS:
		return "The program hit the limit on processes and threads, so a fork or "
		       "a new thread failed. The limit stops fork bombs from taking the "
		       "machine down. Workaround: use fewer workers (a small pool), or do "
		       "the work in one process.";
	case SP_VIOL_SYSCALL:
		return "The program made a system call the sandbox forbids; the kernel "
		       "answered with an error instead of running it. Calls like ptrace, "
		       "mount, unshare, io_uring, bpf or TIOCSTI could reach outside the "
		       "sandbox or into the kernel's riskiest parts. Workaround: plain "
		       "Python computation needs none of them; do the same work without it.";
	case SP_VIOL_CPU:
		return "The program used up its CPU time and was stopped. Constraint 4, "
		       "time limits: the sandbox is for short computations (seconds). "
		       "Workaround: work on a representative sample, use a faster "
		       "algorithm, or split the work across runs and keep partial results "
		       "in the carry buffer.";
	case SP_VIOL_WALL:
		return "The program ran past its wall-clock limit and was stopped "
		       "(sleeping and waiting count too). Constraint 4, time limits. "
		       "Workaround: do not wait for things that will not come (there is "
		       "no network); split long work across runs with the carry buffer.";
	case SP_VIOL_MEMORY:
		return "The program asked for more memory than its limit. Constraint 5, "
		       "memory limits: large allocations fail or the program is stopped. "
		       "Workaround: process data in chunks, use a representative sample, "
		       "or keep compact types (arrays instead of lists of objects).";
	case SP_VIOL_OUTPUT:
		return "The program printed more than the output limit; what came first "
		       "is kept and the program was stopped. Workaround: print a summary "
		       "(counts, head and tail) instead of everything.";
	case SP_VIOL_DISK:
		return "The program filled its work dir (or one file reached the size "
		       "limit), so a write failed. Constraint 2: the work dir is small and "
		       "temporary. Workaround: write less, keep results in memory, or "
		       "return a summary through the carry buffer.";
	case SP_VIOL_CARRY:
		return "The carry-out could not be taken: it was too large, not JSON, or "
		       "not a set of name=value pairs. Only what carry(name=value) sends, "
		       "within the size limit, is carried to the next run. Workaround: "
		       "carry small results (numbers, short lists, summaries).";
	}
	return "";
}

/*
 * Records are bounded per kind and per source, not in all: otherwise a
 * program could fill the list with made-up runtime reports (or distinct
 * denied calls) and hide a real violation that comes after. Past its bound
 * a group's new records are counted in one overflow record of the group.
 */
#define PER_GROUP_MAX 32

static struct sp_violation *find(struct sp_violations *vs, enum sp_violation_kind kind,
				 const char *what, bool from_kernel, int line, size_t *in_group)
{
	*in_group = 0;
	for (size_t i = 0; i < vs->n; i++) {
		struct sp_violation *v = &vs->v[i];
		if (v->kind != kind || v->from_kernel != from_kernel)
			continue;
		if (v->line == line && strcmp(v->what, what) == 0)
			return v;
		(*in_group)++;
	}
	return NULL;
}

struct sp_violation *sp_violations_add(struct sp_violations *vs,
				       enum sp_violation_kind kind,
				       const char *what, bool from_kernel,
				       int line)
{
	static const char overflow[] =
		"more distinct violations of this kind than are listed; the rest are counted here";
	struct sp_violation *v;
	size_t in_group;

	if ((unsigned)kind > SP_VIOL_CARRY) {
		vs->dropped++;
		return NULL;
	}
	v = find(vs, kind, what, from_kernel, line, &in_group);
	if (!v && in_group >= PER_GROUP_MAX - 1) {
		what = overflow;
		line = 0;
		v = find(vs, kind, what, from_kernel, line, &in_group);
	}
	if (v) {
		v->count++;
		return v;
	}
	if (vs->n == vs->cap) {
		/* three arrays side by side: each grows from the same cap to
		 * the same new one */
		size_t cap_v = vs->cap, cap_sent = vs->cap, cap_ctx = vs->cap;
		struct sp_violation *bigger = sp_grow(vs->v, &cap_v, vs->n + 1, sizeof *bigger);
		unsigned *sent;
		char **ctx;
		if (!bigger) {
			vs->dropped++;
			return NULL;
		}
		vs->v = bigger;
		sent = sp_grow(vs->announced, &cap_sent, vs->n + 1, sizeof *sent);
		if (!sent) {
			vs->dropped++;
			return NULL;
		}
		vs->announced = sent;
		ctx = sp_grow(vs->context, &cap_ctx, vs->n + 1, sizeof *ctx);
		if (!ctx) {
			vs->dropped++;
			return NULL;
		}
		vs->context = ctx;
		vs->cap = cap_v < cap_sent ? cap_v : cap_sent;
		vs->cap = vs->cap < cap_ctx ? vs->cap : cap_ctx;
	}
	v = &vs->v[vs->n];
	v->what = strdup(what);
	v->message = strdup(sp_violation_message(kind, what));
	if (!v->what || !v->message) {
		free(v->what);
		free(v->message);
		vs->dropped++;
		return NULL;
	}
	vs->context[vs->n] = NULL;
	v->kind = kind;
	v->from_kernel = from_kernel;
	v->line = line;
	v->count = 1;
	v->id = (unsigned)vs->n + 1;
	vs->announced[vs->n] = 0;
	vs->n++;
	return v;
}

long sp_violations_next_grown(struct sp_violations *vs, size_t *from)
{
	for (size_t i = *from; i < vs->n; i++)
		if (vs->v[i].count != vs->announced[i]) {
			vs->announced[i] = vs->v[i].count;
			*from = i + 1;
			return (long)i;
		}
	*from = vs->n;
	return -1;
}

void sp_violations_free(struct sp_violations *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->v[i].what);
		free(vs->v[i].message);
		free(vs->context[i]);
	}
	free(vs->v);
	free(vs->context);
	free(vs->announced);
	memset(vs, 0, sizeof *vs);
}
