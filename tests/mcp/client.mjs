// SPDX-License-Identifier: MIT
// client.mjs - `sandpit mcp` driven by the official TypeScript SDK's
// Client over StdioClientTransport, as an assistant would drive it, plus
// raw JSON-RPC lines for what the SDK will not send (bad JSON, a 100 MiB
// line, an old protocol, a client that leaves mid-run).
//
// usage: node client.mjs SANDPIT NODE_DIR   (NODE_DIR holds node_modules)
// Prints "ok - NAME" per check; exits 1 on the first failure.
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [sandpit, nodeDir] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeDir), "x.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");
const { CallToolResultSchema } = require("@modelcontextprotocol/sdk/types.js");
const Ajv = require("ajv");

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpit-mcp-test-"));
const tmp = path.join(scratch, "tmp");          // the server's TMPDIR: must end empty
const state = path.join(scratch, "state");      // its XDG_STATE_HOME: the history
const allowed = path.join(scratch, "allowed");  // its one --allow-dir
for (const d of [tmp, state, allowed]) fs.mkdirSync(d);
fs.writeFileSync(path.join(allowed, "data.csv"), "a,b\n1,2\n");
const env = { ...process.env, TMPDIR: tmp, XDG_STATE_HOME: state };

function check(cond, name, detail) {
  if (!cond) {
    console.log(`not ok - ${name}`);
    if (detail !== undefined) console.log(typeof detail === "string" ? detail : JSON.stringify(detail, null, 1).slice(0, 4000));
    process.exit(1);
  }
  console.log(`ok - ${name}`);
}
const text = (r) => r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");

const stderrLines = [];
const transport = new StdioClientTransport({
  command: sandpit,
  args: ["mcp", "--jobs", "3", "--allow-dir", allowed, "--max-cpu", "3"],
  env, stderr: "pipe",
});
transport.stderr.on("data", (d) => stderrLines.push(String(d)));
const client = new Client({ name: "sandpit-test", version: "1.0" });
await client.connect(transport);
check(client.getServerVersion()?.name === "sandpit", "initialize: the server says it is sandpit");

const { tools } = await client.listTools();
const run = tools.find((t) => t.name === "run_python");
check(run && tools.some((t) => t.name === "sandbox_info"), "tools/list: run_python and sandbox_info");
check(run.annotations?.readOnlyHint === true && run.annotations?.openWorldHint === false,
  "run_python is read-only and closed-world", run.annotations);
check(run.outputSchema?.type === "object", "run_python publishes an outputSchema");
const validate = new Ajv({ strict: false }).compile(run.outputSchema);
const call = (args, opts) => client.callTool({ name: "run_python", arguments: args }, CallToolResultSchema, opts);
function valid(r, name) {
  check(validate(r.structuredContent), `${name}: structuredContent fits the outputSchema`, validate.errors);
}

let r = await call({ code: "print('hi')" });
check(r.isError === false && r.structuredContent.stdout === "hi\n" && r.structuredContent.status === "ok",
  "a print: ok, stdout in structuredContent", r);
check(/Status: ok/.test(r.content[0].text) && /hi/.test(r.content[0].text), "a print: the text block says so", r.content[0].text);
check(r.content.some((c) => c.type === "text" && c.text.startsWith("{") && JSON.parse(c.text).status === "ok"),
  "a print: the JSON result is a text block too");
valid(r, "a print");

r = await call({ code: "x = 6\nx * 7\n" });
check(r.isError === false && r.structuredContent.last_value?.repr === "42" &&
  r.structuredContent.last_value?.type === "int", "a bare last expression: last_value in structuredContent", r.structuredContent);
check(/Out \(the last expression's value, of type int\):\n42\n/.test(r.content[0].text),
  "a bare last expression: the text block shows it as Out", r.content[0].text);
valid(r, "a last value");

r = await call({ code: "import matplotlib\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()\n" });
const img = r.content.find((c) => c.type === "image");
check(img && img.mimeType === "image/png" && Buffer.from(img.data, "base64").subarray(1, 4).toString() === "PNG",
  "a chart: one PNG image block", r.content.map((c) => c.type));
valid(r, "a chart");

r = await call({ code: "print(open('in.txt').read().upper(), open('b.bin','rb').read(), open('data.csv').read().split()[1])",
  files: [{ name: "in.txt", text: "hello" }, { name: "b.bin", base64: "AAEC" },
          { name: "data.csv", path: path.join(allowed, "data.csv") }] });
check(r.structuredContent.stdout === "HELLO b'\\x00\\x01\\x02' 1,2\n", "files in: text, base64 and an allowed path", r.structuredContent);

r = await call({ code: "import socket\ns = socket.socket()\ntry:\n    s.connect(('1.1.1.1', 80))\nexcept OSError as e:\n    print('refused', e)\n" });
const v = r.structuredContent.violations;
check(r.isError === true && v.length > 0 && v[0].kind === "network", "a network attempt: a violation, isError", r.structuredContent.violations);
check(/Violations/.test(r.content[0].text) && /network at line [0-9]/.test(r.content[0].text),
  "a network attempt: the text names it with its line", r.content[0].text);
valid(r, "a network attempt");

r = await call({ code: "print('x' * 100000)\nraise ValueError('bad value')\n" });
check(r.structuredContent.stdout.length === 100001 && /stdout \([0-9.]+ KiB, cut: only its first 16 KiB shown/.test(r.content[0].text)
  && r.content[0].text.length < 40000, "a long stdout is cut in the text, saying so, and whole in structuredContent", r.content[0].text.slice(0, 300));
check(r.isError === true && /exit status 1/.test(r.content[0].text) && /ValueError: bad value/.test(r.content[0].text),
  "an exception: isError, the exit status in words and the traceback's end", r.content[0].text.slice(-600));

r = await call({ code: "while True:\n    pass\n", limits: { cpu: 1 } });
check(r.isError === true && r.structuredContent.status === "cpu_limit" && /CPU time limit/.test(r.content[0].text),
  "a limit: cpu_limit in words, isError", r.content[0].text);

r = await call({ code: "print('x')", limits: { cpu: 60 } });
check(r.structuredContent.limits.cpu_ms === 3000 && /lowered to the server's maximum/.test(r.content[0].text),
  "a limit over the maximum is clamped and said", r.content[0].text);

r = await call({ code: "carry(total=41 + 1, names=['a'])" });
const carried = r.structuredContent.carry_out;
check(carried && carried.total === 42 && /carry_out/.test(r.content[0].text), "carry: carry_out comes back", r.structuredContent);
// a float as Python wrote it, in every text the server sends (the JSON
// block too, not 17 digits: 534039.59999999998)
r = await call({ code: "carry(price=534039.6, third=1/3)" });
const texts = r.content.filter((c) => c.type === "text").map((c) => c.text).join("\n");
check(r.structuredContent.carry_out.price === 534039.6 && !/534039\.5999/.test(texts) &&
  /"price":\s*534039\.6\b/.test(texts), "carry: floats in their shortest form", texts);
// output that is not UTF-8: still a whole result (U+FFFD for each such byte)
r = await call({ code: "import sys\nsys.stdout.buffer.write(b'\\xffok\\n')" });
check(r.structuredContent && r.structuredContent.status === "ok" &&
  r.structuredContent.stdout === "\ufffdok\n", "output that is not UTF-8", r);
r = await call({ code: "print(total, names)", carry: carried });
check(r.structuredContent.stdout === "42 ['a']\n", "carry: passed back, its names are globals", r.structuredContent);

r = await call({ code: "open('small.txt','w').write('tiny text')\nopen('big.txt','w').write('y' * 20000)\n" });
const emb = r.content.find((c) => c.type === "resource");
const link = r.content.find((c) => c.type === "resource_link");
check(emb && emb.resource.text === "tiny text", "a small kept file is embedded text", r.content);
check(link && /^sandpit:\/\/runs\/.*big\.txt$/.test(link.uri), "a big kept file is a resource link", r.content);
const read = await client.readResource({ uri: link.uri });
check(read.contents[0].text === "y".repeat(20000), "resources/read serves the linked file");

let progress = 0;
r = await call({ code: "import time\nt = time.time()\nwhile time.time() - t < 2.5:\n    pass\nprint('done')\n" },
  { onprogress: () => progress++, timeout: 30000 });
check(r.structuredContent.stdout === "done\n" && progress >= 1, `progress: ${progress} notifications during a 2.5 s run`);

const ac = new AbortController();
const t0 = Date.now();
const pending = call({ code: "import time\nwhile True:\n    time.sleep(0.1)\n", limits: { wall: 60 } }, { signal: ac.signal });
setTimeout(() => ac.abort(), 800);
let aborted = false;
try { await pending; } catch { aborted = true; }
check(aborted, "a cancellation: the call ends at the client's word");
r = await call({ code: "print('after')" });
check(r.structuredContent.stdout === "after\n" && Date.now() - t0 < 20000, "after a cancellation the server goes on");
await new Promise((res) => setTimeout(res, 500));
check(stderrLines.join("").includes("(cancelled)"), "the cancelled run was killed (the server says so on stderr)", stderrLines.join(""));

const many = await Promise.all([...Array(8).keys()].map((i) => call({ code: `print(${i} * ${i})` })));
check(many.every((x, i) => x.structuredContent.stdout === `${i * i}\n`), "8 concurrent calls, each its own answer");

r = await client.callTool({ name: "sandbox_info", arguments: {} });
check(/Python 3\.[0-9]+/.test(text(r)) && /carry/.test(text(r)), "sandbox_info: versions and carry", text(r));
const envr = await client.readResource({ uri: "sandpit://environment" });
check(/Limits/.test(envr.contents[0].text), "the resource sandpit://environment");

// each bad input: a clear error, and the server keeps serving
const bad = [
  [{ code: 5 }, /code: give the Python program as a string/, "wrong type"],
  [{}, /code: missing/, "missing code"],
  [{ code: "1", files: Array.from({ length: 65 }, (_, i) => ({ name: `f${i}`, text: "" })) }, /at most 64/, "65 files"],
  [{ code: "1", files: [{ name: "../x", text: "" }] }, /plain file name/, "a name with / or .."],
  [{ code: "1", files: [{ name: "..", text: "" }] }, /plain file name/, "the name .."],
  [{ code: "1", files: [{ name: "p", path: "/etc/passwd" }] }, /outside the directories/, "a path outside --allow-dir"],
  [{ code: "1", files: [{ name: "b", base64: "@@@" }] }, /not base64/, "base64 that does not decode"],
  [{ code: "1", limits: { memory: "lots" } }, /limits.memory/, "a limit that is no size"],
  [{ code: "1", carry: [1] }, /carry: give an object/, "carry not an object"],
];
for (const [args, re, name] of bad) {
  r = await call(args);
  check(r.isError === true && re.test(text(r)), `bad input, ${name}: ${text(r).slice(0, 90)}`, text(r));
}
let threw = "";
try { await client.callTool({ name: "no_such_tool", arguments: {} }); } catch (e) { threw = String(e.message); }
check(/unknown tool/.test(threw), "an unknown tool: a JSON-RPC error", threw);
r = await call({ code: "print('still here')" });
check(r.structuredContent.stdout === "still here\n", "the server still serves after every bad input");

await client.close();
await new Promise((res) => setTimeout(res, 300));

// ---- raw lines: what the SDK will not send ----
function rawServer(args = []) {
  const p = spawn(sandpit, ["mcp", "--jobs", "2", ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
  let buf = "";
  const waiting = [];
  const msgs = [];
  p.stdout.on("data", (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      msgs.push(m);
      waiting.splice(0).forEach((f) => f());
    }
  });
  p.stderr.on("data", () => {});
  const next = async () => {
    while (!msgs.length) await new Promise((res) => waiting.push(res));
    return msgs.shift();
  };
  const send = (o) => p.stdin.write((typeof o === "string" ? o : JSON.stringify(o)) + "\n");
  const exited = new Promise((res) => p.on("exit", (code) => res(code)));
  return { p, next, send, exited };
}

let s = rawServer();
s.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "old", version: "1" } } });
let m = await s.next();
check(m.result.protocolVersion === "2025-03-26", "protocol 2025-03-26 accepted");
s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
s.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "run_python", arguments: { code: "import matplotlib.pyplot as plt\nplt.plot([1])\nplt.show()\nprint(7)" } } });
m = await s.next();
check(m.id === 2 && m.result.content.every((c) => c.type === "text") && !("structuredContent" in m.result),
  "2025-03-26: text-only results", m.result.content.map((c) => c.type));
// 2025-03-26 has no error without an id: stderr alone hears of it
// (protocol.mjs checks each revision's case against its schema)
s.send("this is not json");
s.send({ jsonrpc: "2.0", id: 3, method: "no/such" });
m = await s.next();
check(m.error?.code === -32601 && m.id === 3, "an unknown method: method not found", m);
const huge = '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"run_python","arguments":{"code":"' + "#".repeat(100 << 20) + '"}}}';
s.send(huge);
m = await s.next();
check(m.error?.code === -32600 && m.id === 4 && /over 64 MiB/.test(m.error.message),
  "a 100 MiB request line: a clear error, bound to its id", m);
s.send({ jsonrpc: "2.0", id: 5, method: "ping" });
m = await s.next();
check(m.id === 5 && m.result, "the server still answers after all that");
// the client leaves mid-run: everything is killed, the server ends
s.send({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "run_python", arguments: { code: "while True:\n    pass", limits: { wall: 60 } } } });
await new Promise((res) => setTimeout(res, 700));
const left = Date.now();
s.p.stdin.end();
const code = await s.exited;
check(code === 0 && Date.now() - left < 15000, `a client that leaves mid-run: the server ends (${Date.now() - left} ms)`);

const leftovers = fs.readdirSync(tmp);
check(leftovers.length === 0, "no temp file left", leftovers);
const runs = fs.readdirSync(path.join(state, "sandpit", "mcp-runs"));
check(runs.length > 10 && fs.existsSync(path.join(state, "sandpit", "mcp-runs", runs[0], "code.py")),
  `every run kept in the history (${runs.length})`);
fs.rmSync(scratch, { recursive: true, force: true });
console.log("all ok");
