// SPDX-License-Identifier: MIT
// content.mjs - what run_python's result carries, through the official
// TypeScript SDK's Client: every result has structuredContent (a NUL
// byte, binary stdout), valid against an outputSchema that lists every
// field (checked with ajv, every object closed to fields it does not
// list).
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
await client.close();
fs.rmSync(scratch, { recursive: true, force: true });
if (failed.length) {
  console.log(`FAIL: ${failed.length} cases: ${failed.join("; ")}`);
  process.exit(1);
}
console.log("all ok");
