// SPDX-License-Identifier: MIT
// content.mjs - what run_python's result carries, through the official
// TypeScript SDK's Client: every result has structuredContent (a NUL
// byte, binary stdout), valid against an outputSchema that lists every
// field (checked with ajv, every object closed to fields it does not
// list); pictures decoded before they are sent (broken ones named,
// over-wide ones shrunk).
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

const client = await connect([]);
const { tools } = await client.listTools();
const schema = tools.find((t) => t.name === "run_python").outputSchema;
const validate = new Ajv({ strict: false }).compile(closed(schema));
// the SDK checks structuredContent against the outputSchema itself (and
// throws when a result has none): a call that returns is one that passed
const call = (code, opts) => client.callTool({ name: "run_python", arguments: { code } },
  CallToolResultSchema, { timeout: 120000, ...opts });
const summary = (r) => r.content[0].text;
const images = (r) => r.content.filter((c) => c.type === "image");
// a PNG's size from its IHDR
const pngSize = (b64) => { const b = Buffer.from(b64, "base64"); return [b.readUInt32BE(16), b.readUInt32BE(20)]; };
// what every result must be; checked after each case's own checks
function whole(r, name) {
  check(r.structuredContent && validate(r.structuredContent),
    `${name}: structuredContent fits the outputSchema, every field listed`, validate.errors ?? r);
}

let r;
await test("a NUL byte", async () => {
  r = await call("print('a\\x00b')");
  check(r.structuredContent.stdout === "a\u0000b\n", "a NUL byte: exact in structuredContent", r);
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
await client.close();
fs.rmSync(scratch, { recursive: true, force: true });
if (failed.length) {
  console.log(`FAIL: ${failed.length} cases: ${failed.join("; ")}`);
  process.exit(1);
}
console.log("all ok");
