/* SPDX-License-Identifier: MIT */
/*
 * test_carry.c - the carry buffer, the one explicit channel between
 * stateless runs (issue 5).
 *
 * Chains go through `sandpit run --carry IN --carry-out OUT`, the path a
 * person uses; the rest through the library. Carry values are compared as
 * JSON (jansson's json_equal), never as text.
 */
#include "itest.h"

#include <sys/stat.h>

static json_t *load_json(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	if (!j)
		fail_msg("not JSON (%s): %.500s", e.text, text);
	return j;
}

static json_t *load_json_file(const char *path)
{
	char *text = it_slurp(path, NULL);
	json_t *j;

	if (!text)
		fail_msg("cannot read %s", path);
	j = load_json(text);
	free(text);
	return j;
}

/* True when the result's carry_out equals the JSON text want. */
static bool carry_out_is(const struct sp_result *r, const char *want)
{
	json_t *a, *b;
	bool eq;

	if (!r->carry_out)
		return false;
	a = load_json(r->carry_out);
	b = load_json(want);
	eq = json_equal(a, b);
	json_decref(a);
	json_decref(b);
	return eq;
}

/* ---- the chain ---- */

static const char chain_program[] =
	"import os, json\n"
	"n = globals().get('runs', 0) + 1\n"
	"total = globals().get('total', 0) + n * 10\n"
	"seen = sorted(f for f in os.listdir('.') if f not in ('carry.json', os.path.basename(__file__)))\n"
	"inbox = json.load(open('carry.json')) if os.path.exists('carry.json') else None\n"
	"print('run', n, 'total', total, 'files', seen, 'carry.json', inbox)\n"
	"open('scratch_%d.txt' % n, 'w').write('made in run %d' % n)\n"
	"carry(runs=n, total=total)\n";

static void test_three_run_chain_keeps_only_the_carry(void **state)
{
	char *dir = it_tmpdir();
	char *name = it_name("chain");
	char *prog = it_write(dir, name, chain_program, strlen(chain_program));
	char *c1 = it_fmt("%s/c1.json", dir), *c2 = it_fmt("%s/c2.json", dir);
	char *c3 = it_fmt("%s/c3.json", dir);
	struct it_cli c;
	json_t *j, *want;

	(void)state;
	{
		const char *args[] = { "run", "--json", "--carry-out", c1, prog, NULL };
		it_cli(&c, true, args);
		IT_CLI_CHECK(&c, c.status == 0);
		IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "ok") == 0);
		IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"),
					     "run 1 total 10 files [] carry.json None"));
		it_cli_free(&c);
	}
	{
		const char *args[] = { "run", "--json", "--carry", c1, "--carry-out", c2, prog, NULL };
		it_cli(&c, true, args);
		IT_CLI_CHECK(&c, c.status == 0);
		/* the total came through; run 1's file did not */
		IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"),
			"run 2 total 30 files [] carry.json {'runs': 1, 'total': 10}"));
		IT_CLI_CHECK(&c, !it_contains(it_jstr(c.json, "stdout"), "scratch_1"));
		it_cli_free(&c);
	}
	{
		const char *args[] = { "run", "--json", "--carry", c2, "--carry-out", c3, prog, NULL };
		it_cli(&c, true, args);
		IT_CLI_CHECK(&c, c.status == 0);
		IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"),
			"run 3 total 60 files [] carry.json {'runs': 2, 'total': 30}"));
		want = load_json("{\"runs\": 3, \"total\": 60}");
		IT_CLI_CHECK(&c, json_equal(json_object_get(c.json, "carry_out"), want));
		j = load_json_file(c3);
		IT_CLI_CHECK(&c, json_equal(j, want));
		json_decref(j);
		json_decref(want);
		it_cli_free(&c);
	}
	/* without the carry, the same program starts from nothing again */
	{
		const char *args[] = { "run", "--json", prog, NULL };
		it_cli(&c, true, args);
		IT_CLI_CHECK(&c, c.status == 0);
		IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"), "run 1 total 10 files []"));
		it_cli_free(&c);
	}
	unlink(c1);
	unlink(c2);
	unlink(c3);
	free(c1);
	free(c2);
	free(c3);
	free(prog);
	free(name);
	it_rmdir(dir);
}

/* ---- carry-out ---- */

static void test_non_serializable_value_is_a_clear_error(void **state)
{
	char *name = it_name("nonser");
	struct sp_result *r;

	(void)state;
	r = it_run("import math\n"
		   "for name, value in [('a_set', {1, 2}), ('a_func', len),\n"
		   "                    ('an_obj', object()), ('not_finite', math.nan)]:\n"
		   "    try:\n"
		   "        carry(**{name: value})\n"
		   "        print(name, 'ACCEPTED')\n"
		   "    except (TypeError, ValueError) as e:\n"
		   "        print(type(e).__name__ + ':', e)\n"
		   "carry(fine=[1, 'two', {'three': 3.0}])\n"
		   "carry(last={1, 2, 3})\n", name);
	IT_CHECK(r, r->status == SP_STATUS_ERROR);
	IT_CHECK(r, !it_contains(it_out(r), "ACCEPTED"));
	IT_CHECK(r, it_contains(it_out(r), "TypeError: carry(): the value of 'a_set'"));
	IT_CHECK(r, it_contains(it_out(r), "'a_func'"));
	IT_CHECK(r, it_contains(it_out(r), "'an_obj'"));
	IT_CHECK(r, it_contains(it_out(r), "'not_finite'"));
	IT_CHECK(r, it_contains(it_out(r), "set"));
	/* uncaught: a traceback at the user's line, naming the value */
	IT_CHECK(r, it_contains(it_err(r), "line 10"));
	IT_CHECK(r, it_contains(it_err(r), "TypeError"));
	IT_CHECK(r, it_contains(it_err(r), "'last'"));
	/* the run went on after each error, and what was fine was carried */
	IT_CHECK(r, carry_out_is(r, "{\"fine\": [1, \"two\", {\"three\": 3.0}]}"));
	sp_result_free(r);
	free(name);
}

static void test_later_carry_calls_update_earlier_names(void **state)
{
	char *name = it_name("update");
	struct sp_result *r;

	(void)state;
	r = it_run("carry(a=1, b=2)\n"
		   "carry(b=3)\n"
		   "carry(c=None, d=True)\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, carry_out_is(r, "{\"a\": 1, \"b\": 3, \"c\": null, \"d\": true}"));
	sp_result_free(r);
	free(name);
}

static void test_over_size_carry_out_is_dropped_with_a_violation(void **state)
{
	char *name = it_name("bigout");
	struct sp_result *r;

	(void)state;
	/* carry() refuses it itself; a message sent around carry() is dropped
	 * by the supervisor, with a record */
	r = it_run("import json, os\n"
		   "carry(small=1)\n"
		   "try:\n"
		   "    carry(big='x' * (2 << 20))\n"
		   "except ValueError as e:\n"
		   "    print('refused:', e)\n"
		   "os.write(3, (json.dumps({'t': 'carry', 'v': {'big2': 'x' * (1 << 20)}}) + '\\n').encode())\n"
		   "carry(after=2)\n"
		   "print('still running')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "still running"));
	IT_CHECK(r, it_contains(it_out(r), "refused: carry(): carrying big would make the carry-out"));
	IT_CHECK(r, carry_out_is(r, "{\"small\": 1, \"after\": 2}"));
	IT_CHECK(r, it_viol(r, SP_VIOL_CARRY, "over 1 MiB") != NULL);
	sp_result_free(r);
	free(name);
}

/*
 * The cap holds on the merged carry-out, byte for byte, however many calls
 * build it: 600 random calls (new names, replaced names, values of every
 * JSON type, non-ASCII text, and many within two bytes of the cap) against
 * a 300-byte cap. The program keeps its
 * own copy by the rule (compact, ASCII-only JSON of the merge within the
 * cap, else the whole call is dropped) and prints it; the two must agree.
 */
static void test_the_cap_holds_exactly_over_many_calls(void **state)
{
	char *name = it_name("capexact");
	struct sp_config cfg = it_config(
		"import json, os, random\n"
		"cap = 300\n"
		"mine = {}\n"
		"dropped = 0\n"
		"rnd = random.Random(5)\n"
		"def size(d):\n"
		"    return len(json.dumps(d, separators=(',', ':'), ensure_ascii=True))\n"
		"for i in range(600):\n"
		"    k = rnd.choice('abcdefgh')\n"
		"    old = mine.get(k)\n"
		"    # the room left if k became '', give or take a few bytes\n"
		"    room = cap - size(mine) + (len(old) if isinstance(old, str) else -len(k) - 6)\n"
		"    edge = 'x' * max(0, room + rnd.randrange(-2, 3))\n"
		"    v = rnd.choice([1, None, True, 'x' * rnd.randrange(120), '\\u00e9' * rnd.randrange(30),\n"
		"                    '\\U0001f600' * rnd.randrange(8), [1, 2, {'z': None}], 2.5, -70,\n"
		"                    edge, edge])\n"
		"    new = dict(mine)\n"
		"    new[k] = v\n"
		"    if size(new) <= cap:\n"
		"        mine = new\n"
		"    else:\n"
		"        dropped += 1\n"
		"    try:\n"
		"        carry(**{k: v})\n"
		"        refused = False\n"
		"    except ValueError:\n"
		"        refused = True\n"
		"        # and past carry(), straight to the supervisor, which drops it too\n"
		"        os.write(3, (json.dumps({'t': 'carry', 'v': {k: v}}) + '\\n').encode())\n"
		"    assert refused == (mine is not new), (k, v)\n"
		"print(json.dumps({'mine': mine, 'dropped': dropped}))\n", name);
	struct sp_result *r;
	const struct sp_violation *v;
	json_t *want, *got;

	(void)state;
	cfg.limits.carry_bytes = 300;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	want = load_json(it_out(r));
	got = r->carry_out ? load_json(r->carry_out) : NULL;
	IT_CHECK(r, got && json_equal(got, json_object_get(want, "mine")));
	/* and call by call: as many calls were dropped as the rule says */
	v = it_viol(r, SP_VIOL_CARRY, "carry-out over 300 B");
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, v->count == json_integer_value(json_object_get(want, "dropped")));
	json_decref(want);
	json_decref(got);
	sp_result_free(r);
	free(name);
}

/* The channel is watched only from the run's first wake-up after the
 * interpreter starts (core/run.c). A program that fills its pipe several
 * times over before it writes anything else, then waits, must not wait
 * for ever: the first sample wakes the supervisor, which then reads all
 * of it (the last value wins), and nothing is lost or refused. */
static void test_a_channel_filled_before_any_output_is_read(void **state)
{
	char *name = it_name("chanfull");
	struct sp_config cfg = it_config(
		"import time\n"
		"for i in range(4000):\n"
		"    carry(k='x' * 100 + str(i))\n"
		"time.sleep(0.2)\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.wall_ms = 20000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->out_len == 0);
	IT_CHECK(r, r->n_violations == 0);
	IT_CHECK(r, r->carry_out && strstr(r->carry_out, "x3999\"") != NULL);
	sp_result_free(r);
	free(name);
}

/* Whatever a program does, its carry_out is a valid carry-in for the next
 * run: names that are not Python identifiers are dropped with a record. */
static void test_carry_out_names_must_be_identifiers(void **state)
{
	char *name = it_name("badnames");
	struct sp_result *r;
	struct sp_error err = { "" };

	(void)state;
	r = it_run("import os\n"
		   "for bad in ({'not an id': 1}, {'for': 2}, {'1x': 3}, {'__x__': 4}, {'fine': 1, 'a-b': 5}):\n"
		   "    try:\n"
		   "        carry(**bad)\n"
		   "    except ValueError as e:\n"
		   "        print('refused', e)\n"
		   "os.write(3, b'{\"t\": \"carry\", \"v\": {\"__builtins__\": 4, \"a-b\": 5}}\\n')\n"
		   "os.write(3, b'{\"t\": \"carry\", \"v\": {\"good\": 4, \"a-b\": 5}}\\n')\n"
		   "carry(ok=1)\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, carry_out_is(r, "{\"ok\": 1}"));
	IT_CHECK(r, it_contains(it_out(r), "refused carry(): the name 'a-b' cannot be carried"));
	IT_CHECK(r, it_viol(r, SP_VIOL_CARRY, "this carry() call was dropped") != NULL);
	IT_CHECK(r, sp_carry_validate(r->carry_out, strlen(r->carry_out), 1u << 20, &err) == 0);
	sp_result_free(r);
	free(name);
}

/* stdout that looks like carry never becomes carry; garbage on every open
 * fd (the carry channel among them) is rejected with a record, and the run
 * ends normally. */
static void test_stdout_and_garbage_never_become_carry(void **state)
{
	char *name = it_name("garbage");
	struct sp_result *r;

	(void)state;
	r = it_run("import os, json, sys\n"
		   "print(json.dumps({'t': 'carry', 'v': {'evil': 1}}))\n"
		   "print(json.dumps({'evil': 2}))\n"
		   "sys.stderr.write(json.dumps({'t': 'carry', 'v': {'evil': 3}}) + '\\n')\n"
		   "junk = [b'\\x00\\xff\\xfe garbage {not json\\n', b'{\"t\": \"carry\"\\n',\n"
		   "        b'[1, 2, 3]\\n', b'\"str\"\\n', b'{\"t\": 42}\\n', b'{\"t\": \"nope\"}\\n',\n"
		   "        b'\\n\\n\\n', b'x' * 100000 + b'\\n', b'{\"t\": \"carry\", \"v\": 7}\\n',\n"
		   "        b'{\"t\": \"carry\", \"v\": {\"a\": 1}, \"t\": \"carry\"}\\n']\n"
		   "fds = sorted(int(f) for f in os.listdir('/proc/self/fd'))\n"
		   "for fd in fds:\n"
		   "    for j in junk:\n"
		   "        try:\n"
		   "            os.write(fd, j)\n"
		   "        except OSError:\n"
		   "            pass\n"
		   "carry(good=1)\n"
		   "print('done')\n"
		   "os.write(3, b'{\"t\": \"carry\", \"v\": {\"unterminated\": 1}}')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	/* the output holds NUL bytes: search all of it */
	IT_CHECK(r, memmem(r->out, r->out_len, "done", 4) != NULL);
	IT_CHECK(r, memmem(r->out, r->out_len, "{\"t\": \"carry\", \"v\": {\"evil\": 1}}", 32) != NULL);
	IT_CHECK(r, r->carry_out != NULL);
	IT_CHECK(r, !it_contains(r->carry_out, "evil"));
	IT_CHECK(r, it_contains(r->carry_out, "\"good\""));
	IT_CHECK(r, it_viol(r, SP_VIOL_CARRY, NULL) != NULL);
	sp_result_free(r);
	free(name);
}

/* ---- carry-in ---- */

struct bad_carry {
	const char *what;
	const char *text;
	const char *says;   /* a substring of the message */
};

/*
 * carry() of a value JSON cannot carry (an integer beyond 64 bits, NaN,
 * Infinity, a lone surrogate, too deep, too big) is an error in the
 * program that names the value, raised before anything is sent: the call
 * carries none of its values (friend never arrives), and no malformed
 * message reaches the supervisor. The edges of 64 bits are carried.
 */
static void test_values_json_cannot_carry_fail_the_call_whole(void **state)
{
	char *name = it_name("uncarryable");
	struct sp_config cfg = it_config(
		"cases = [dict(big=2**64), dict(neg=-2**63 - 1), dict(nan=float('nan')),\n"
		"         dict(inf=float('inf')), dict(ninf=-float('inf')),\n"
		"         dict(sur='ok \\udc80'), dict(key={'a': {'b\\ud800': 1}}),\n"
		"         dict(inlist=[1, [2, 2**70]]), dict(deep=eval('[' * 65 + ']' * 65)),\n"
		"         dict(huge='x' * 5000)]\n"
		"for c in cases:\n"
		"    c['friend'] = 1\n"
		"    try:\n"
		"        carry(**c)\n"
		"        print('ACCEPTED', list(c))\n"
		"    except ValueError as e:\n"
		"        print('refused:', e)\n"
		"carry(edge_hi=2**63 - 1, edge_lo=-2**63)\n", name);
	static const char *const says[] = {
		"'big' cannot be carried: big is an integer of 65 bits",
		"'neg' cannot be carried: neg is an integer of 64 bits",
		"'nan' cannot be carried: nan is nan",
		"'inf' cannot be carried: inf is inf",
		"'ninf' cannot be carried: ninf is -inf",
		"'sur' cannot be carried: sur holds the lone surrogate U+DC80 at index 3",
		"'key' cannot be carried: a key of key['a'] holds the lone surrogate U+D800",
		"'inlist' cannot be carried: inlist[1][1] is an integer of 71 bits",
		"'deep' cannot be carried: deep[0][0]",
		"carrying friend, huge would make the carry-out",
	};
	struct sp_result *r;

	(void)state;
	cfg.limits.carry_bytes = 4096;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, !it_contains(it_out(r), "ACCEPTED"));
	for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
		IT_CHECK(r, it_contains(it_out(r), says[i]));
	IT_CHECK(r, carry_out_is(r, "{\"edge_hi\": 9223372036854775807, "
				 "\"edge_lo\": -9223372036854775808}"));
	IT_CHECK(r, it_viol(r, SP_VIOL_CARRY, NULL) == NULL);
	sp_result_free(r);
	free(name);
}

/* carry() counts the carry-out as the supervisor writes it: each float in
 * the fewest digits that read back to the same double (0.1, 534039.6, as
 * Python's repr), so a call that fits by json.dumps fits the supervisor
 * too, and what is carried reads as it was written. */
static void test_carry_counts_floats_as_the_supervisor_does(void **state)
{
	char *name = it_name("floats");
	struct sp_config cfg = it_config(
		"import json\n"
		"def pysize(d):\n"
		"    return len(json.dumps(d, separators=(',', ':')))\n"
		"n = max(n for n in range(60) if pysize({'f': [0.1] * n}) <= 100)\n"
		"try:\n"
		"    carry(f=[0.1] * n)\n"
		"    print('ACCEPTED')\n"
		"except ValueError as e:\n"
		"    print('refused:', e)\n"
		"try:\n"
		"    carry(f=[0.1] * (n + 1))\n"
		"except ValueError as e:\n"
		"    print('refused:', e)\n"
		"carry(f=[0.5, 1e16, 1e-7, 534039.6, 1/3])\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.carry_bytes = 100;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "ACCEPTED\nrefused: carry(): carrying f would make the carry-out"));
	IT_CHECK(r, it_viol(r, SP_VIOL_CARRY, NULL) == NULL);
	IT_CHECK(r, carry_out_is(r, "{\"f\": [0.5, 1e16, 1e-7, 534039.6, 0.3333333333333333]}"));
	IT_CHECK(r, strstr(r->carry_out, "[0.5,1e16,1e-7,534039.6,0.3333333333333333]") != NULL);
	sp_result_free(r);
	free(name);
}

static void test_bad_carry_in_files_are_refused_before_anything_runs(void **state)
{
	static const struct bad_carry cases[] = {
		{ "malformed", "{\"total\": 1,", "not valid JSON" },
		{ "trailing", "{\"a\": 1} {\"b\": 2}", "not valid JSON" },
		{ "array", "[1, 2, 3]", "object" },
		/* jansson's "'[' or '{' expected" is clear enough here */
		{ "string", "\"total\"", "{" },
		{ "number", "42", "{" },
		{ "empty", "", "JSON" },
		{ "not_an_identifier", "{\"not a name\": 1}", "not a name" },
		{ "keyword", "{\"class\": 1}", "keyword" },
		{ "duplicate", "{\"a\": 1, \"a\": 2}", "a" },
	};
	char *dir = it_tmpdir();
	char *name = it_name("refused");
	const char *code = "open('/work/ran', 'w').write('x')\nprint('PROGRAM RAN')\n";
	char *prog = it_write(dir, name, code, strlen(code));
	char *out = it_fmt("%s/out.json", dir);

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *path = it_write(dir, "in.json", cases[i].text, strlen(cases[i].text));
		const char *args[] = { "run", "--carry", path, "--carry-out", out, prog, NULL };
		struct stat before, after;
		struct it_cli c;
		char *now;

		assert_int_equal(stat(path, &before), 0);
		it_cli(&c, false, args);
		print_message("carry-in %s: exit %d: %s", cases[i].what, c.status, c.err);
		IT_CLI_CHECK(&c, c.status == 2);
		IT_CLI_CHECK(&c, !it_contains(c.out, "PROGRAM RAN"));
		IT_CLI_CHECK(&c, c.out_len == 0);
		IT_CLI_CHECK(&c, it_contains(c.err, "--carry"));
		IT_CLI_CHECK(&c, it_contains(c.err, cases[i].says));
		IT_CLI_CHECK(&c, access(out, F_OK) < 0);
		/* the person's file is exactly as it was */
		assert_int_equal(stat(path, &after), 0);
		now = it_slurp(path, NULL);
		IT_CLI_CHECK(&c, strcmp(now, cases[i].text) == 0);
		IT_CLI_CHECK(&c, before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
				 before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
		free(now);
		it_cli_free(&c);
		free(path);
	}
	free(out);
	free(prog);
	free(name);
	it_rmdir(dir);
}

/* nested n lists deep, as the value of "x" in a carry object */
static char *nested(int n)
{
	char *t = malloc((size_t)n * 2 + 16);

	assert_non_null(t);
	strcpy(t, "{\"x\": ");
	for (int i = 0; i < n; i++)
		strcat(t, "[");
	for (int i = 0; i < n; i++)
		strcat(t, "]");
	strcat(t, "}");
	return t;
}

/*
 * Values nest at most 64 deep both ways: a deeper carry-in would make the
 * next run's Python fail in its JSON reader before the program starts, and
 * a deeper carry() value would make such a carry-in.
 */
static void test_values_nest_at_most_64_deep(void **state)
{
	char *ok = nested(SP_CARRY_MAX_DEPTH), *deep = nested(SP_CARRY_MAX_DEPTH + 1);
	char *name = it_name("deep");
	struct sp_error err = { "" };
	struct sp_config cfg;
	struct sp_result *r;

	(void)state;
	assert_int_equal(sp_carry_validate(ok, strlen(ok), 1 << 20, &err), 0);
	assert_int_equal(sp_carry_validate(deep, strlen(deep), 1 << 20, &err), -1);
	assert_non_null(strstr(err.msg, "64 levels"));

	/* the deepest allowed arrives whole; a deeper carry() is refused whole,
	 * by carry() itself and by the supervisor when sent around it */
	cfg = it_config("import os\n"
			"d, v = 0, x\n"
			"while v:\n"
			"    d, v = d + 1, v[0] if v[0] else None\n"
			"print('depth', d + 1)\n"
			"try:\n"
			"    carry(y=eval('[' * 65 + ']' * 65), w=1)\n"
			"except ValueError as e:\n"
			"    print(e)\n"
			"os.write(3, b'{\"t\": \"carry\", \"v\": {\"y\": ' + b'[' * 65 + b']' * 65 + b', \"w\": 1}}\\n')\n"
			"carry(z=1)\n", name);
	cfg.carry_in = ok;
	cfg.carry_in_len = strlen(ok);
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "depth 64"));
	IT_CHECK(r, it_contains(it_out(r), "nests deeper than 64 levels"));
	IT_CHECK(r, carry_out_is(r, "{\"z\": 1}"));
	IT_CHECK(r, it_viol(r, SP_VIOL_CARRY, "64 levels") != NULL);
	sp_result_free(r);
	free(name);
	free(ok);
	free(deep);
}

static void test_over_size_carry_in_is_refused(void **state)
{
	char *dir = it_tmpdir();
	char *name = it_name("bigin");
	const char *code = "print('PROGRAM RAN')\n";
	char *prog = it_write(dir, name, code, strlen(code));
	size_t n = (1u << 20) + 4096;
	char *big = malloc(n + 1), *path, *now;
	struct it_cli c;

	(void)state;
	/* a valid object, just too big for the default 1 MiB */
	assert_non_null(big);
	memset(big, 'x', n);
	memcpy(big, "{\"big\": \"", 9);
	memcpy(big + n - 2, "\"}", 2);
	big[n] = '\0';
	path = it_write(dir, "in.json", big, n);
	{
		const char *args[] = { "run", "--carry", path, prog, NULL };
		it_cli(&c, false, args);
		IT_CLI_CHECK(&c, c.status == 2);
		IT_CLI_CHECK(&c, c.out_len == 0);
		IT_CLI_CHECK(&c, it_contains(c.err, "--carry"));
		it_cli_free(&c);
	}
	/* and a small file over a small --carry-max */
	{
		const char *args[] = { "run", "--carry-max", "1K", "--carry", path, prog, NULL };
		it_cli(&c, false, args);
		IT_CLI_CHECK(&c, c.status == 2);
		IT_CLI_CHECK(&c, c.out_len == 0);
		it_cli_free(&c);
	}
	now = it_slurp(path, NULL);
	assert_memory_equal(now, big, n);
	free(now);
	free(big);
	free(path);
	free(prog);
	free(name);
	it_rmdir(dir);
}

/* Through the library too: sp_run_start refuses, with the reason. */
static void test_library_refuses_bad_carry_in(void **state)
{
	char *name = it_name("libcarry");
	struct sp_config cfg = it_config("print('PROGRAM RAN')\n", name);
	struct sp_run *run = NULL;
	struct sp_error err = { "" };

	(void)state;
	cfg.carry_in = "[1, 2]";
	cfg.carry_in_len = 6;
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_null(run);
	assert_true(it_contains(err.msg, "object"));
	free(name);
}

/* ---- names and text ---- */

static void test_names_that_shadow_builtins(void **state)
{
	static const char carry_in[] =
		"{\"len\": 5, \"print\": \"not print\", \"list\": [1, 2], \"sum\": -1,"
		" \"open\": null, \"json\": \"not json\", \"os\": 0}";
	char *name = it_name("shadow");
	struct sp_config cfg = it_config(
		"import builtins, sys\n"
		"sys.stdout.write('len=%r print=%r list=%r sum=%r open=%r json=%r os=%r\\n'\n"
		"                 % (len, print, list, sum, open, json, os))\n"
		"builtins.print('builtins still', builtins.len('abc'), builtins.sum([1, 2]))\n"
		"import json, os\n"
		"builtins.print('modules', json.dumps([1]), os.getcwd())\n"
		"carry(len=len + 1, print=print.upper())\n", name);
	struct sp_result *r;

	(void)state;
	cfg.carry_in = carry_in;
	cfg.carry_in_len = strlen(carry_in);
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "len=5 print='not print' list=[1, 2] sum=-1 "
					   "open=None json='not json' os=0"));
	IT_CHECK(r, it_contains(it_out(r), "builtins still 3 3"));
	IT_CHECK(r, it_contains(it_out(r), "modules [1] /work"));
	IT_CHECK(r, carry_out_is(r, "{\"len\": 6, \"print\": \"NOT PRINT\"}"));
	IT_CHECK(r, r->n_violations == 0);
	sp_result_free(r);
	free(name);
}

static void test_unicode_keys_and_values_round_trip(void **state)
{
	static const char carry_in[] =
		"{\"caf\xc3\xa9\": \"cr\xc3\xa8me br\xc3\xbbl\xc3\xa9\xe9\x9d\x9e \xe2\x98\x95\","
		" \"\xe6\x95\xb0\xe6\x8d\xae\": [\"\xf0\x9f\x8e\x89\", \"\xf0\x9d\x84\x9e\", \"e\xcc\x81\"],"
		" \"\xce\xbb\": {\"\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87\": \"\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d\","
		" \"esc\": \"tab\\t quote\\\" backslash\\\\ bell\\u0007\"},"
		" \"_x\": \"\\u00e9\\ud83d\\ude00\"}";
	char *dir = it_tmpdir();
	char *name = it_name("unicode");
	const char *code =
		"import json\n"
		"names = json.load(open('carry.json', encoding='utf-8'))\n"
		"assert sorted(names) == sorted(['caf\xc3\xa9', '\xe6\x95\xb0\xe6\x8d\xae', '\xce\xbb', '_x'])\n"
		"assert \xce\xbb['esc'].endswith('\\x07') and _x == '\\u00e9\\U0001F600'\n"
		"print(caf\xc3\xa9, \xe6\x95\xb0\xe6\x8d\xae[0])\n"
		"carry(**{k: globals()[k] for k in names})\n";
	char *prog = it_write(dir, name, code, strlen(code));
	char *in = it_write(dir, "in.json", carry_in, strlen(carry_in));
	char *out = it_fmt("%s/out.json", dir);
	struct it_cli c;
	json_t *want = load_json(carry_in), *got;
	const char *args[] = { "run", "--json", "--carry", in, "--carry-out", out, prog, NULL };

	(void)state;
	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "stdout"),
				     "cr\xc3\xa8me br\xc3\xbbl\xc3\xa9\xe9\x9d\x9e \xe2\x98\x95 \xf0\x9f\x8e\x89"));
	IT_CLI_CHECK(&c, json_equal(json_object_get(c.json, "carry_out"), want));
	got = load_json_file(out);
	IT_CLI_CHECK(&c, json_equal(got, want));
	json_decref(got);
	json_decref(want);
	it_cli_free(&c);
	unlink(out);
	free(out);
	free(in);
	free(prog);
	free(name);
	it_rmdir(dir);
}

static void test_tracebacks_and_records_keep_the_users_line_numbers(void **state)
{
	static const char carry_in[] = "{\"a\": 1, \"b\": [1, 2, 3], \"c\": {\"d\": \"e\"}}";
	char *name = it_name("lines"), *want;
	struct sp_config cfg = it_config(
		"# line 1\n"
		"import socket\n"
		"try:\n"
		"    socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"except OSError:\n"
		"    pass\n"
		"\n"
		"def f(x):\n"
		"    return x / 0\n"
		"\n"
		"f(a)\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	cfg.carry_in = carry_in;
	cfg.carry_in_len = strlen(carry_in);
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_ERROR);
	want = it_fmt("File \"%s\", line 11, in <module>", name);
	IT_CHECK(r, it_contains(it_err(r), want));
	free(want);
	want = it_fmt("File \"%s\", line 9, in f", name);
	IT_CHECK(r, it_contains(it_err(r), want));
	free(want);
	IT_CHECK(r, it_contains(it_err(r), "ZeroDivisionError"));
	/* no frame of the sandbox's own machinery in the person's traceback */
	IT_CHECK(r, !it_contains(it_err(r), "prelude"));
	v = it_viol(r, SP_VIOL_NETWORK, NULL);
	IT_CHECK(r, v != NULL && v->line == 4);
	sp_result_free(r);

	/* a syntax error points at its own line too */
	cfg = it_config("x = 1\ny = 2\nz = (\n", name);
	cfg.carry_in = carry_in;
	cfg.carry_in_len = strlen(carry_in);
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_ERROR);
	IT_CHECK(r, it_contains(it_err(r), "SyntaxError"));
	IT_CHECK(r, it_contains(it_err(r), "line 3"));
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_run_chain_keeps_only_the_carry),
		cmocka_unit_test(test_non_serializable_value_is_a_clear_error),
		cmocka_unit_test(test_later_carry_calls_update_earlier_names),
		cmocka_unit_test(test_over_size_carry_out_is_dropped_with_a_violation),
		cmocka_unit_test(test_values_json_cannot_carry_fail_the_call_whole),
		cmocka_unit_test(test_carry_counts_floats_as_the_supervisor_does),
		cmocka_unit_test(test_the_cap_holds_exactly_over_many_calls),
		cmocka_unit_test(test_a_channel_filled_before_any_output_is_read),
		cmocka_unit_test(test_carry_out_names_must_be_identifiers),
		cmocka_unit_test(test_stdout_and_garbage_never_become_carry),
		cmocka_unit_test(test_bad_carry_in_files_are_refused_before_anything_runs),
		cmocka_unit_test(test_over_size_carry_in_is_refused),
		cmocka_unit_test(test_values_nest_at_most_64_deep),
		cmocka_unit_test(test_library_refuses_bad_carry_in),
		cmocka_unit_test(test_names_that_shadow_builtins),
		cmocka_unit_test(test_unicode_keys_and_values_round_trip),
		cmocka_unit_test(test_tracebacks_and_records_keep_the_users_line_numbers),
	};

	return cmocka_run_group_tests_name("integration/carry", tests, NULL, NULL);
}
