// SPDX-License-Identifier: MIT
// protocol.mjs - `sandpit mcp` spoken to in raw JSON-RPC lines, in each
// MCP revision it speaks, every message it sends checked against that
// revision's official schema (schema/REVISION/schema.json): the message
// itself (JSONRPCMessage) and a result against its method's result type.
// The cases: a \u0000 and a lone surrogate escape in a request (valid
// JSON jansson alone cannot hold), an id of 2^64, a line over the size
// cap (its id first, and last as the TypeScript SDK writes it), JSON that
// is no request (42, "ping", an id null), text that is no JSON, batches
// (answered in 2025-03-26, refused per id elsewhere), a 2024-11-05 client.
// Every request gets an answer bound to its id; what has no readable id
// gets an error only where the revision's schema has one without an id.
//
// usage: node protocol.mjs SANDPIT NODE_DIR SCHEMA_DIR
// Prints "ok - NAME" per check; exits 1 on the first failure.
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const [sandpit, nodeDir, schemaDir] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(nodeDir), "x.js"));
const mod = (m) => m.default ?? m;
const Ajv = mod(require("ajv"));
const Ajv2020 = mod(require("ajv/dist/2020"));
const addFormats = mod(require("ajv-formats"));

// SP_KEEP_GOING=1 goes on after a failure (to see every case fail on
// a server without the fix); SP_WAIT_MS bounds a wait for an answer.
const keepGoing = process.env.SP_KEEP_GOING === "1";
const waitMs = Number(process.env.SP_WAIT_MS ?? 120000);
let failed = 0;
function check(cond, name, detail) {
  if (!cond) {
    console.log(`not ok - ${name}`);
    if (detail !== undefined) console.log(typeof detail === "string" ? detail.slice(0, 4000) : JSON.stringify(detail, null, 1).slice(0, 4000));
    failed++;
    if (!keepGoing) process.exit(1);
    return false;
  }
  console.log(`ok - ${name}`);
  return true;
}

// ---- each revision's schema ----
const RESULT_OF = {
  initialize: "InitializeResult", ping: "EmptyResult", "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult", "resources/list": "ListResourcesResult",
};
const schemas = {};
for (const rev of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
  const schema = JSON.parse(fs.readFileSync(path.join(schemaDir, rev, "schema.json"), "utf8"));
  const is2020 = String(schema.$schema).includes("2020-12");
  const ajv = is2020 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(schema, rev);
  const defs = is2020 ? "$defs" : "definitions";
  const get = (name) => {
    const v = ajv.getSchema(`${rev}#/${defs}/${name}`);
    if (!v) throw new Error(`${rev} has no ${name}`);
    return v;
  };
  schemas[rev] = { message: get("JSONRPCMessage"), result: (name) => get(name) };
}

// ---- a server spoken to in raw lines ----
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "sandpit-mcp-protocol-"));
const env = { ...process.env, TMPDIR: path.join(scratch, "tmp"), XDG_STATE_HOME: path.join(scratch, "state") };
fs.mkdirSync(env.TMPDIR);
fs.mkdirSync(env.XDG_STATE_HOME);
const key = (id) => JSON.stringify(id);

class Session {
  constructor(rev) {
    this.rev = rev;
    this.p = spawn(sandpit, ["mcp", "--jobs", "2"], { env, stdio: ["pipe", "pipe", "pipe"] });
    this.got = [];       // {m, raw}, not yet taken
    this.waiting = [];
    this.methods = new Map(); // id -> the method asked, for the result's type
    this.stderr = "";
    let buf = "";
    this.p.stdout.on("data", (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf("\n")) >= 0) {
        const raw = buf.slice(0, i);
        buf = buf.slice(i + 1);
        this.take(raw);
      }
    });
    this.p.stderr.on("data", (d) => { this.stderr += d; });
    this.exited = new Promise((res) => this.p.on("exit", res));
    this.p.stdin.on("error", () => {});
  }

  // every line the server sends: JSON, valid against the revision's schema
  take(raw) {
    let m;
    try {
      m = JSON.parse(raw);
    } catch (e) {
      check(false, `${this.rev}: the server sent JSON`, raw);
      return;
    }
    const s = schemas[this.rev];
    if (!s.message(m))
      check(false, `${this.rev}: a message valid against the ${this.rev} schema`, { raw: raw.slice(0, 600), errors: s.message.errors.slice(0, 8) });
    for (const r of Array.isArray(m) ? m : [m]) {
      const method = "result" in r ? this.methods.get(key(r.id)) : undefined;
      if (method && RESULT_OF[method]) {
        const v = s.result(RESULT_OF[method]);
        if (!v(r.result))
          check(false, `${this.rev}: a ${method} result valid as ${RESULT_OF[method]}`, { raw: raw.slice(0, 600), errors: v.errors.slice(0, 8) });
      }
    }
    this.got.push({ m, raw });
    this.waiting.splice(0).forEach((f) => f());
  }

  send(msg) {
    for (const r of Array.isArray(msg) ? msg : [msg])
      if (r && typeof r === "object" && "id" in r && r.method) this.methods.set(key(r.id), r.method);
    this.p.stdin.write((typeof msg === "string" ? msg : JSON.stringify(msg)) + "\n");
  }

  // the first message pred likes (a hang is a failure, not a stalled run)
  async waitFor(pred, what) {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const i = this.got.findIndex(pred);
      if (i >= 0) return this.got.splice(i, 1)[0];
      if (Date.now() > deadline) {
        check(false, `${this.rev}: an answer came: ${what}`, this.stderr.slice(-2000));
        return { m: {}, raw: "" };
      }
      await new Promise((res) => { this.waiting.push(res); setTimeout(res, 1000); });
    }
  }

  // stderr is another pipe: what it says may come after a later answer
  async stderrSays(re) {
    const deadline = Date.now() + waitMs;
    while (!re.test(this.stderr) && Date.now() < deadline)
      await new Promise((res) => this.p.stderr.once("data", res) && setTimeout(res, 1000));
    return re.test(this.stderr);
  }

  async next(what) {
    return this.waitFor(() => true, what);
  }

  async reply(id, what) {
    return (await this.waitFor((g) => !Array.isArray(g.m) && key(g.m.id) === key(id), what ?? `id ${key(id)}`)).m;
  }

  async init(asked = this.rev) {
    this.send({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: asked, capabilities: {}, clientInfo: { name: "protocol-test", version: "1" } } });
    const m = await this.reply(0);
    check(m.result?.protocolVersion === this.rev, `${asked}: initialize answered in ${this.rev}`, m?.result?.protocolVersion);
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return m;
  }

  // nothing was sent since the last answer: the next ping's is the next line
  async nothingSince(what) {
    const id = `quiet-${Math.random()}`;
    this.send({ jsonrpc: "2.0", id, method: "ping" });
    const g = await this.next(what);
    check(key(g.m.id) === key(id) && g.m.result, `${this.rev}: ${what}`, g.raw);
  }

  async close() {
    this.p.stdin.end();
    const code = await this.exited;
    check(code === 0 && !/Sanitizer|runtime error/.test(this.stderr), `${this.rev}: the server ended cleanly`,
      `exit ${code}\n${this.stderr.slice(-3000)}`);
    check(this.got.length === 0, `${this.rev}: no message left unaccounted for`, this.got.map((g) => g.raw.slice(0, 300)));
  }
}

const call = (id, args) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "run_python", arguments: args } });
const text = (r) => (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
const hugeCode = "#".repeat(65 << 20); // over the 64 MiB line cap

// ---- 2025-11-25 ----
let s = new Session("2025-11-25");
await s.init();

// a \u0000 is valid JSON: the request is served, the byte kept
s.send(call(10, { code: "import sys\nprint(repr(sys.stdin.read()))", stdin: "a\u0000b" }));
let m = await s.reply(10);
check(m.result && !m.result.isError && m.result.structuredContent?.stdout === "'a\\x00b'\n",
  "a \\u0000 in stdin: the request is served, the NUL byte reaches the program", m);

// a lone surrogate escape is valid JSON that no UTF-8 text holds: refused, bound to its id
s.send(call(11, { code: "print('\ud800')" }));
m = await s.reply(11);
check(m.result?.isError === true && /lone UTF-16 surrogate/.test(text(m.result)) && /nothing ran/.test(text(m.result)),
  "a lone \\ud800 in the code: a tool error bound to the request, nothing ran", m);

s.send({ jsonrpc: "2.0", id: 12, method: "resources/read", params: { uri: "sandpit://runs/\udc00" } });
m = await s.reply(12);
check(m.error?.code === -32602 && /surrogate/.test(m.error.message), "a lone surrogate in another request's params: -32602, bound to its id", m);

s.send('{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"run_python","arguments":{"code":"print(1)","limits":{"memory":123456789012345678901234567890}}}}');
m = await s.reply(13);
check(m.result?.isError === true && /beyond what this server reads/.test(text(m.result)),
  "a number beyond 64 bits in the arguments: a tool error bound to the request", m);

// an id of 2^64: answered with the very digits sent
s.send('{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}');
let g = await s.waitFor((x) => x.raw.includes("18446744073709551616"), "the id 2^64");
check(/"id":18446744073709551616[,}]/.test(g.raw) && g.m.error?.code === -32600,
  "an id of 2^64: -32600, the id echoed digit for digit", g.raw);
s.send('{"jsonrpc":"2.0","id":"x\\ud800","method":"ping"}');
g = await s.waitFor((x) => x.raw.includes("ud800") || x.raw.includes("\ud800"), "the id with a lone surrogate");
check(g.m.id === "x\ud800" && g.m.error?.code === -32600, "a string id with a lone surrogate: -32600, the id echoed as sent", g.raw);

// JSON that is no request: -32600 (not -32700); 2025-11-25 has an error without an id
for (const line of ["42", '"ping"', '{"jsonrpc":"2.0","id":null,"method":"ping"}', "[]"]) {
  s.send(line);
  m = (await s.next(line)).m;
  check(m.error?.code === -32600 && !("id" in m), `${line}: -32600, without an id (the schema has no null id)`, m);
}
s.send('{"jsonrpc":"2.0","id":14,"method":"ping\\u0000x"}');
m = await s.reply(14);
check(m.error?.code === -32600, "a method with a \\u0000: refused, bound to its id", m);

// JSON nested deeper than the server reads is still JSON: -32600, bound
s.send('{"jsonrpc":"2.0","id":19,"method":"ping","params":{"a":' + "[".repeat(3000) + "]".repeat(3000) + "}}");
m = await s.reply(19);
check(m.error?.code === -32600 && /deeper/.test(m.error.message), "JSON nested 3000 deep: -32600 bound to its id", m);

// text that is no JSON: -32700, bound to the id when the text shows one
s.send("this is not json");
m = (await s.next("no JSON")).m;
check(m.error?.code === -32700 && !("id" in m), "text that is no JSON: -32700, without an id", m);
s.send('{"jsonrpc":"2.0","id":15,"method":"ping"');
m = await s.reply(15);
check(m.error?.code === -32700, "a cut message whose id was whole: -32700 bound to it", m);

// a line over the cap, never held whole: its id read as it is dropped
s.send('{"jsonrpc":"2.0","id":"first","method":"tools/call","params":{"name":"run_python","arguments":{"code":"' + hugeCode + '"}}}');
m = await s.reply("first");
check(m.error?.code === -32600 && /over 64 MiB/.test(m.error.message), "a line over 64 MiB, its id first: -32600 bound to it", m);
s.send('{"method":"tools/call","params":{"name":"run_python","arguments":{"code":"' + hugeCode + '"}},"jsonrpc":"2.0","id":16}');
m = await s.reply(16);
check(m.error?.code === -32600, "a line over 64 MiB, its id last (the TypeScript SDK's order): -32600 bound to it", m);

// a batch outside 2025-03-26: each request refused, bound to its id
s.send([{ jsonrpc: "2.0", id: 17, method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 18, method: "tools/list" }]);
for (const id of [17, 18]) {
  m = await s.reply(id);
  check(m.error?.code === -32600 && /2025-03-26/.test(m.error.message), `2025-11-25: a batch's request ${id} refused, bound to its id`, m);
}
await s.nothingSince("the batch's notification got no answer");
await s.close();

// ---- 2025-06-18: an error must carry a request id ----
s = new Session("2025-06-18");
await s.init();
for (const line of ["42", '"ping"', "this is not json", '{"jsonrpc":"2.0","id":null,"method":"ping"}', "[]"])
  s.send(line);
await s.nothingSince("42, \"ping\", no JSON, an id null, []: no message the 2025-06-18 schema refuses (stderr has them)");
check(await s.stderrSays(/not a JSON-RPC message/) && await s.stderrSays(/not JSON/), "2025-06-18: stderr says what was refused");
s.send([{ jsonrpc: "2.0", id: 20, method: "ping" }, { jsonrpc: "2.0", id: 21, method: "ping" }]);
for (const id of [20, 21]) {
  m = await s.reply(id);
  check(m.error?.code === -32600, `2025-06-18: a batch's request ${id} refused, bound to its id`, m);
}
s.send('{"jsonrpc":"2.0","id":22,"method":"ping"');
m = await s.reply(22);
check(m.error?.code === -32700, "2025-06-18: a cut message whose id was whole: -32700 bound to it", m);
await s.close();

// ---- 2025-03-26: batches are part of it ----
s = new Session("2025-03-26");
await s.init();
s.send([
  { jsonrpc: "2.0", id: 30, method: "ping" },
  { jsonrpc: "2.0", id: 31, method: "tools/list" },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  call(32, { code: "print(6 * 7)" }),
  { jsonrpc: "2.0", id: 33, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } } },
  { jsonrpc: "2.0", id: 34, method: "no/such" },
]);
g = await s.next("the batch's answer");
check(Array.isArray(g.m) && g.m.length === 5, "2025-03-26: a batch answered as one array, one answer per request", g.raw.slice(0, 2000));
const by = new Map((Array.isArray(g.m) ? g.m : []).map((r) => [r.id, r]));
check(by.get(30)?.result && by.get(31)?.result?.tools?.length === 2, "2025-03-26: the batch's ping and tools/list answered", g.m);
check(/42/.test(text(by.get(32)?.result ?? {})), "2025-03-26: the batch's tools/call answered when its run ended", by.get(32));
check(by.get(33)?.error?.code === -32600 && by.get(34)?.error?.code === -32601,
  "2025-03-26: initialize inside a batch refused, an unknown method -32601, each bound", g.m);
s.send("[]");
s.send("[1, 2]");
s.send([{ jsonrpc: "2.0", method: "notifications/initialized" }]);
await s.nothingSince("[], [1, 2] and a batch of notifications: nothing the 2025-03-26 schema refuses");
await s.close();

// ---- 2024-11-05: spoken when asked ----
s = new Session("2024-11-05");
m = await s.init();
check(m.result && !("title" in m.result.serverInfo), "2024-11-05: serverInfo as that revision has it (no title)", m.result.serverInfo);
s.send({ jsonrpc: "2.0", id: 40, method: "tools/list" });
m = await s.reply(40);
check(m.result?.tools.every((t) => !("annotations" in t) && !("title" in t) && !("outputSchema" in t)),
  "2024-11-05: tools without annotations, titles or outputSchema (later revisions' fields)", m.result?.tools.map((t) => Object.keys(t)));
s.send({ ...call(41, { code: "import time\ntime.sleep(2.5)\nprint('done')" }), params: { name: "run_python", arguments: { code: "import time\ntime.sleep(2.5)\nprint('done')" }, _meta: { progressToken: "p" } } });
m = await s.reply(41);
check(m.result && !m.result.isError && m.result.content?.every((c) => c.type === "text") && /done/.test(text(m.result)),
  "2024-11-05: a run's result in text blocks", m);
const notes = s.got.filter((x) => x.m.method === "notifications/progress");
check(notes.every((x) => !("message" in x.m.params)), `2024-11-05: progress without a message (${notes.length} seen)`, notes.map((x) => x.raw));
s.got = s.got.filter((x) => x.m.method !== "notifications/progress");
s.send([{ jsonrpc: "2.0", id: 42, method: "ping" }]);
m = await s.reply(42);
check(m.error?.code === -32600, "2024-11-05: a batch refused, bound to its id", m);
await s.close();

// the 2024-11-05 revision is asked for, and an unknown one gets the latest
s = new Session("2025-11-25");
await s.init("1999-01-01");
await s.close();

const leftovers = fs.readdirSync(env.TMPDIR);
check(leftovers.length === 0, "no temp file left", leftovers);
fs.rmSync(scratch, { recursive: true, force: true });
if (failed) {
  console.log(`${failed} checks failed`);
  process.exit(1);
}
console.log("all ok");
