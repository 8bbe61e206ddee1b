/* SPDX-License-Identifier: MIT */
/*
 * test_bytes.c - a run's bytes come back byte for byte through --json.
 *
 * The contract: valid UTF-8 is JSON text (NUL as \u0000), every other
 * byte is the lone surrogate \udcXX, and a stream that is not valid UTF-8
 * is also there as base64. A reader gets the bytes back with Python's
 * json.loads(...).encode("utf-8", "surrogateescape"); these tests read
 * the result that way, with the system's python3, and with C.
 */
#include "itest.h"

#include <sys/wait.h>

/* What the program writes and the checker expects: every byte value,
 * then 64 KiB of seeded random bytes, on stdout and (reversed) stderr,
 * and a file named with each byte 0x80..0xff. */
static const char gen[] =
	"import random\n"
	"def data():\n"
	"    return bytes(range(256)) + random.Random(15).randbytes(65536)\n";

/* Decode the --json result at path the documented way; exit 0 when every
 * byte is back. */
static const char check[] =
	"import base64, json, sys\n"
	"j = json.load(open(sys.argv[1], encoding='utf-8'))\n"
	"d = data()\n"
	"back = lambda s: s.encode('utf-8', 'surrogateescape')\n"
	"assert back(j['stdout']) == d, 'stdout differs'\n"
	"assert back(j['stderr']) == d[::-1], 'stderr differs'\n"
	"assert base64.b64decode(j['stdout_base64']) == d, 'stdout_base64 differs'\n"
	"assert base64.b64decode(j['stderr_base64']) == d[::-1], 'stderr_base64 differs'\n"
	"names = sorted(back(f['path']) for f in j['files'])\n"
	"assert names == [b'n' + bytes([b]) for b in range(0x80, 0x100)], names\n"
	"print('all bytes back')\n";

static void test_every_byte_value_comes_back_exactly(void **state)
{
	struct it_dir *f = *state;
	char *code = it_fmt("%s"
		"import os, sys\n"
		"d = data()\n"
		"for i in range(0, len(d), 4096):\n"
		"    os.write(1, d[i:i + 4096])\n"
		"os.write(2, d[::-1])\n"
		"for b in range(0x80, 0x100):\n"
		"    open(b'n' + bytes([b]), 'w').close()\n", gen);
	char *checker = it_fmt("%s%s", gen, check);
	char *prog = it_write(f->dir, "bytes.py", code, strlen(code));
	char *chk = it_write(f->dir, "check.py", checker, strlen(checker));
	const char *args[] = { "run", "--json", "--output", "1M", prog, NULL };
	struct it_cli c;
	char *res, *cmd;
	int rc;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	res = it_write(f->dir, "result.json", c.out, c.out_len);
	{
		char *qchk = it_shq(chk), *qres = it_shq(res);
		cmd = it_fmt("python3 %s %s", qchk, qres);
		free(qchk);
		free(qres);
	}
	rc = system(cmd);
	IT_CLI_CHECK(&c, WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
	/* and in C: the same bytes, through the reader of json_se.h */
	{
		json_t *s = json_object_get(c.json, "stdout");
		size_t n = 0;
		char *got = se_bytes(json_string_value(s), json_string_length(s), &n);
		IT_CLI_CHECK(&c, n == 256 + 65536);
		for (int b = 0; b < 256; b++)
			IT_CLI_CHECK(&c, (unsigned char)got[b] == b);
		free(got);
	}
	it_cli_free(&c);
	free(cmd);
	free(res);
	free(chk);
	free(prog);
	free(checker);
	free(code);
}

/* Output that is valid UTF-8 (NUL, controls, emoji) is plain JSON text,
 * with no base64 beside it. */
static void test_valid_utf8_is_text_without_base64(void **state)
{
	struct it_dir *f = *state;
	static const char code[] =
		"import os\n"
		"os.write(1, 'nul\\x00 tab\\t \\u00e9 \\U0001F600 \\\\x00'.encode())\n";
	char *prog = it_write(f->dir, "text.py", code, sizeof code - 1);
	const char *args[] = { "run", "--json", prog, NULL };
	struct it_cli c;
	json_t *s;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	s = json_object_get(c.json, "stdout");
	IT_CLI_CHECK(&c, json_string_length(s) == 22 &&
			 memcmp(json_string_value(s),
				"nul\0 tab\t \xc3\xa9 \xf0\x9f\x98\x80 \\x00", 22) == 0);
	IT_CLI_CHECK(&c, it_contains(c.out, "\"nul\\u0000 tab\\t"));
	IT_CLI_CHECK(&c, json_object_get(c.json, "stdout_base64") == NULL);
	IT_CLI_CHECK(&c, json_object_get(c.json, "stderr_base64") == NULL);
	it_cli_free(&c);
	free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte_value_comes_back_exactly),
		cmocka_unit_test(test_valid_utf8_is_text_without_base64),
	};
	return cmocka_run_group_tests_name("bytes", tests, it_dir_setup, it_dir_teardown);
}
