// SPDX-License-Identifier: MIT
// content.mjs - what run_python's result carries, through the official
// TypeScript SDK's Client: every byte of the output reaches the client
// (U+FFFD or a visible escape in text, exact in structuredContent and
// base64), no terminal control in a text block, pictures decoded before
// they are sent (broken ones named, over-wide ones shrunk), one size
// budget per result with what it cuts at a resource, and
// structuredContent valid against an outputSchema that lists every field
// (checked with ajv, every object closed to fields it does not list).
//
// usage: node content.mjs SANDPIT NODE_DIR   (NODE_DIR holds node_modules)
// Prints "ok - NAME" per check; a case stops at its first failure (or an
// error the SDK raises) and the others still run; exits 1 if any failed.
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [sandpit, nodeDir] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeDir), "x.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { CallToolResultSchema } = require("@modelcontextprotocol/sdk/types.js");
const Ajv = require("ajv");

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpit-mcp-content-"));
const env = { ...process.env, TMPDIR: scratch, XDG_STATE_HOME: scratch };
const BUDGET = 1 << 20;   // the default --max-result

function check(cond, name, detail) {
  if (!cond) {
    console.log(`not ok - ${name}`);
    if (detail !== undefined) console.log(typeof detail === "string" ? detail.slice(0, 4000) : JSON.stringify(detail, null, 1).slice(0, 4000));
    throw new Error("checked");
  }
  console.log(`ok - ${name}`);
}
const failed = [];
async function test(name, body) {
  try {
    await body();
  } catch (e) {
    if (e.message !== "checked") console.log(`not ok - ${name}: ${e.message}`);
    failed.push(name);
  }
}

async function connect(args) {
  const transport = new StdioClientTransport({ command: sandpit, args: ["mcp", "--jobs", "2", ...args], env, stderr: "ignore" });
  const client = new Client({ name: "sandpit-content-test", version: "1.0" });
  await client.connect(transport);
  return client;
}

// The published schema with every object that lists its properties
// closed to others: a field the schema does not list fails.
function closed(schema) {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== "object") return schema;
  const out = {};
  for (const [k, v] of Object.entries(schema)) out[k] = closed(v);
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const client = await connect(["--max-output", "8M"]);
const { tools } = await client.listTools();
const schema = tools.find((t) => t.name === "run_python").outputSchema;
const validate = new Ajv({ strict: false }).compile(closed(schema));
// the SDK checks structuredContent against the outputSchema itself (and
// throws when a result has none): a call that returns is one that passed
const call = (code, opts) => client.callTool({ name: "run_python", arguments: { code, limits: { output: "8M" } } },
  CallToolResultSchema, { timeout: 120000, ...opts });
const texts = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text);
const summary = (r) => r.content[0].text;
const block = (r) => JSON.parse(r.content.filter((c) => c.type === "text").at(-1).text);
const size = (r) => Buffer.byteLength(JSON.stringify(r));
// what a terminal would obey: C0 but \n and \t, DEL, C1, the bidi controls
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// what every result must be; checked after each case's own checks
function whole(r, name) {
  check(texts(r).every((t) => !CONTROL.test(t)), `${name}: no terminal control in any text block`,
    texts(r).map((t) => JSON.stringify(t).slice(0, 600)));
  check(size(r) <= BUDGET, `${name}: the result is within the budget (${size(r)} bytes)`);
  check(r.structuredContent && validate(r.structuredContent),
    `${name}: structuredContent fits the outputSchema, every field listed`, validate.errors ?? r);
}
const images = (r) => r.content.filter((c) => c.type === "image");
// a PNG's size from its IHDR
const pngSize = (b64) => { const b = Buffer.from(b64, "base64"); return [b.readUInt32BE(16), b.readUInt32BE(20)]; };

let r;
await test("a NUL byte", async () => {
  r = await call("print('a\\x00b')");
  check(r.structuredContent.stdout === "a\u0000b\n" && /a\^@b/.test(summary(r)),
    "a NUL byte: exact in structuredContent, ^@ in the text", r);
  whole(r, "a NUL byte");
});
await test("binary stdout", async () => {
  r = await call("import sys\nsys.stdout.buffer.write(bytes(range(256)) * 4)\n");
  check(Buffer.from(r.structuredContent.stdout_base64, "base64").equals(Buffer.concat(Array(4).fill(Buffer.from([...Array(256).keys()])))),
    "binary stdout: stdout_base64 holds the exact bytes", r.structuredContent);
  whole(r, "binary stdout");
});
await test("a last value", async () => {
  r = await call("x = 6\nx * 7\n");
  check(r.structuredContent.last_value?.repr === "42", "a last value: last_value in structuredContent", r.structuredContent);
  whole(r, "a last value");
});
await test("terminal controls", async () => {
  r = await call("print('\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202egnp.exe\\x7f')\nimport sys\nsys.stderr.write('\\x1b[31mred\\n')\n" +
    "carry(k='\\x1b[5m\\u202e')\nopen('n\\x1b[2Jame.txt', 'w').write('\\x1b]52;c;Y2xpcA==\\x07')\n");
  check(/\^\[\]0;pwned\^G\^\[\[2J\\x9b31m<U\+202E>gnp\.exe\^\?/.test(summary(r)) && /\^\[\[31mred/.test(summary(r)),
    "terminal controls: shown as the Output pane shows them", summary(r));
  check(r.structuredContent.stdout === "\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202egnp.exe\u007f\n",
    "terminal controls: exact in structuredContent", r.structuredContent.stdout);
  check(!r.content.some((c) => c.type === "resource" && CONTROL.test(c.resource.text)),
    "terminal controls: a file holding them is linked, not embedded", r.content);
  whole(r, "terminal controls");
});
await test("a 40,000-character print", async () => {
  r = await call("print('x' * 40000)");
  const head = summary(r).match(/stdout \([^)]*\):\n([x]*)\.\.\./);
  check(head && head[1].length + (block(r).stdout_rest?.length ?? 0) === 40001 && r.structuredContent.stdout.length === 40001,
    "a 40,000-character print: the text's head and the JSON block's stdout_rest make it once", { head: head?.[1].length, rest: block(r).stdout_rest?.length });
  const chars = texts(r).join("").length;
  check(chars < 40001 + 4000 && !("stdout" in block(r)), `a 40,000-character print: ${chars} characters of text, not 58,026`, chars);
  whole(r, "a 40,000-character print");
});
await test("3 MB of stdout", async () => {
  r = await call("import sys\nsys.stdout.write('y' * 3000000)\nsys.stderr.write('e' * 100000 + 'END')\n");
  const cut = r.structuredContent.stdout_cut;
  check(cut && cut.bytes === 3000000 && cut.kept === r.structuredContent.stdout.length && /^sandpit:\/\/output\//.test(cut.uri),
    "3 MB of stdout: cut in structuredContent, saying how and where", r.structuredContent.stdout_cut);
  check(summary(r).includes(cut.uri), "3 MB of stdout: the text names the resource", summary(r).slice(0, 1500));
  let res = await client.readResource({ uri: cut.uri });
  check(res.contents[0].text === "y".repeat(3000000), "3 MB of stdout: resources/read serves it whole");
  res = await client.readResource({ uri: r.structuredContent.stderr_cut?.uri ?? cut.uri.replace(/stdout$/, "stderr") });
  check(res.contents[0].text.length === 100003 && r.structuredContent.stderr.endsWith("END"), "3 MB of stdout: stderr whole at its resource, its tail kept");
  whole(r, "3 MB of stdout");
});
const pngOf = (w, h, body) => `import struct, zlib
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
def png(w, h, body):
    return b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0)) + chunk(b'IDAT', body) + chunk(b'IEND', b'')
`;
await test("broken pictures", async () => {
  r = await call(pngOf() + "import io, matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nb = io.BytesIO()\nplt.savefig(b, format='png')\n" +
    "open('half.png', 'wb').write(b.getvalue()[:len(b.getvalue()) // 2])\n" +
    "open('bomb.png', 'wb').write(png(40000, 40000, zlib.compress(b'\\0' * 40001 * 200)))\n" +
    "open('huge.png', 'wb').write(png(2**31 - 1, 2**31 - 1, zlib.compress(b'\\0' * 100)))\n");
  check(images(r).length === 0, "broken pictures: a truncated PNG, a 40000x40000 bomb and a 2^31 header are not sent",
    r.content.map((c) => c.type));
  check(["half.png", "bomb.png", "huge.png"].every((n) => new RegExp(`${n.replace(".", "\\.")} \\([^)]*\\): a broken picture, not shown`).test(summary(r))),
    "broken pictures: each named in the text, with why", summary(r));
  check(r.content.filter((c) => c.type === "resource_link").every((l) => !l.mimeType), "broken pictures: their links claim no image type", r.content);
  const half = r.content.find((c) => c.type === "resource_link" && /half\.png$/.test(c.uri));
  const read = await client.readResource({ uri: half.uri });
  check(read.contents[0].mimeType === "application/octet-stream", "broken pictures: resources/read serves one as bytes, not as an image",
    read.contents[0].mimeType);
  whole(r, "broken pictures");
});
await test("a 10000-pixel-wide chart", async () => {
  r = await call("import matplotlib.pyplot as plt\nplt.figure(figsize=(100, 3), dpi=100)\nplt.plot(range(50))\nplt.show()\n");
  check(images(r).length === 1 && pngSize(images(r)[0].data)[0] <= 8000 && pngSize(images(r)[0].data)[0] >= 7000,
    `a 10000-pixel-wide chart: sent shrunk to ${images(r).length ? pngSize(images(r)[0].data) : "none"}`);
  check(/figure-1\.png \([^)]*\): a picture of 10000x300 pixels, shown as an image shrunk to [0-9]+x[0-9]+ \(over 8000 pixels a side/.test(summary(r)),
    "a 10000-pixel-wide chart: the text says it was shrunk", summary(r));
  whole(r, "a 10000-pixel-wide chart");
});
const noise = "import numpy as np, matplotlib.pyplot as plt\nnp.random.seed(1)\nfor i in range(4):\n" +
  "    plt.figure(figsize=(7, 7), dpi=100)\n    plt.imshow(np.random.rand(700, 700, 3))\nplt.show()\nprint('four')\n";
await test("four large charts", async () => {
  r = await call(noise);
  check(images(r).length >= 1 && /shrunk to [0-9]+x[0-9]+ \(to fit the result's size budget/.test(summary(r)),
    `four large charts: ${images(r).length} sent, shrunk to fit, the text says so`, summary(r));
  whole(r, "four large charts");
});
await client.close();

await test("--max-result 200K", async () => {
  const small = await connect(["--max-result", "200K"]);
  await small.listTools();
  r = await small.callTool({ name: "run_python", arguments: { code: noise.replace("print('four')", "print('z' * 300000)") } },
    CallToolResultSchema, { timeout: 120000 });
  check(r.structuredContent && validate(r.structuredContent) && size(r) <= 200 * 1024,
    `--max-result 200K: four charts and 300 kB of stdout in ${size(r)} bytes`, size(r));
  await small.close();
});
fs.rmSync(scratch, { recursive: true, force: true });
if (failed.length) {
  console.log(`FAIL: ${failed.length} cases: ${failed.join("; ")}`);
  process.exit(1);
}
console.log("all ok");
