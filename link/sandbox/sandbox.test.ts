// Real tools in the real sandbox: what a tool cannot do, what it gets when it behaves. Every test
// runs twice: in a sandbox started for the job (cold) and in one booted before it (warm).
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobResult, Limits, NetPolicy } from "./policy";
import { Sandbox } from "./run";
import { tempDir } from "../../test/helpers/temp-dir";
import { processesOf } from "../../test/helpers/processes";

const TEST_HOST = "api.openvibe.test";
let sandbox: Sandbox;
let server: http.Server;
let port = 0;
let hits: string[] = [];
let linkKeyFile: string;
let otherJob: ReturnType<Sandbox["newJobFolder"]>;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ served: req.url }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  port = (server.address() as { port: number }).port;
  sandbox = await Sandbox.create({
    warm: true,
    allowedHosts: [TEST_HOST],
    hosts: { [TEST_HOST]: `127.0.0.1:${port}` },
    // Names the tests use under `public`: one that resolves to the Link's loopback.
    resolve: async (host) =>
      host === "loopback.example.test" ? ["127.0.0.1"] : host === "metadata.example.test" ? ["169.254.169.254"] : [],
  });
  const keyDir = tempDir("link-home");
  linkKeyFile = path.join(keyDir, "link.key");
  writeFileSync(linkKeyFile, "PRIVATE-KEY-OF-THE-LINK", { mode: 0o600 });
  otherJob = sandbox.newJobFolder();
  writeFileSync(path.join(otherJob.files, "secret.json"), '{"secret":"other job"}', { mode: 0o644 });
});

afterAll(async () => {
  await sandbox.close();
  sandbox.removeJobFolder(otherJob);
  server.close();
});

type RunOptions = { input?: unknown; net?: NetPolicy; wall_ms?: number; mem_bytes?: number };
type Mode = "cold" | "warm";

/** A job folder: a fresh one (cold), or that of a sandbox booted for exactly this policy and these limits (warm). */
async function folderFor(sb: Sandbox, mode: Mode, net: NetPolicy, limits: Limits) {
  if (mode === "cold") return sb.newJobFolder();
  expect(await sb.warmUp({ net, limits })).toBe(true);
  return sb.newJobFolder({ net, limits });
}

/** Runs the job, and in warm mode checks it did run in a sandbox booted before it. */
async function runIn(sb: Sandbox, mode: Mode, job: Parameters<Sandbox["run"]>[0]): Promise<JobResult> {
  const warmBefore = sb.warmJobsRun;
  const result = await sb.run(job);
  expect(sb.warmJobsRun - warmBefore).toBe(mode === "warm" ? 1 : 0);
  return result;
}

/** Starts a tool; `marks` identify its processes (the job folder on bwrap's, the unique entry on Node's, the id on a warm one's). */
async function start(
  mode: Mode,
  source: string,
  options: RunOptions = {},
): Promise<{ marks: string[]; done: Promise<JobResult> }> {
  const net = options.net ?? "deny";
  const limits = { wall_ms: options.wall_ms ?? 10_000, mem_bytes: options.mem_bytes ?? 134_217_728 };
  const folder = await folderFor(sandbox, mode, net, limits);
  const entry = `tool-${folder.id}.js`;
  writeFileSync(path.join(folder.files, entry), source);
  const done = runIn(sandbox, mode, {
    folder,
    entry,
    input: Buffer.from(JSON.stringify(options.input ?? {})),
    net,
    limits,
  }).finally(async () => {
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
  });
  return { marks: [folder.root, `/job/${entry}`, folder.id], done };
}

/** Wraps attempts so each reports what happened: `denied: CODE` or what it got. */
const attempts = (body: string) => `
const out = {};
const attempt = async (name, fn) => { try { out[name] = { got: await fn() }; } catch (e) { out[name] = { denied: String(e && (e.code || e.message || e)) }; } };
(async () => { ${body}
  process.stdout.write(JSON.stringify(out));
})();`;

function allDenied(output: unknown): void {
  for (const [name, outcome] of Object.entries(output as Record<string, { got?: unknown; denied?: string }>)) {
    expect(outcome, name).toHaveProperty("denied");
  }
}

describe.each(["cold", "warm"] as const)("%s", (mode) => {
  const run = async (source: string, options: RunOptions = {}) => (await start(mode, source, options)).done;

  describe("a well-behaved tool", () => {
    it("gets its input on stdin and its one JSON value back, with limits honoured", async () => {
      const result = await run(
        `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s);console.log(JSON.stringify({sum:i.a+i.b}))})`,
        { input: { a: 2, b: 3 } },
      );
      expect(result).toMatchObject({ status: "ok", output: { sum: 5 }, stderr: "" });
      // Ended by the Link as soon as its one value was complete.
      expect(result.exit).toBeNull();
      expect(result.wall_ms).toBeGreaterThan(0);
      expect(result.max_rss_bytes).toBeGreaterThan(1_000_000);
      expect(result.max_rss_bytes).toBeLessThanOrEqual(134_217_728);
    });

    it("reads its input synchronously from descriptor 0, as under plain node", async () => {
      const result = await run(
        `const i=JSON.parse(require("node:fs").readFileSync(0,"utf8"));process.stdout.write(JSON.stringify({sum:i.a+i.b}))`,
        { input: { a: 4, b: 5 } },
      );
      expect(result).toMatchObject({ status: "ok", output: { sum: 9 }, stderr: "" });
    });

    it("keeps the exit code when it exits on its own before its value is complete", async () => {
      const result = await run(`process.stdout.write("42")`);
      expect(result).toMatchObject({ status: "ok", output: 42, exit: 0 });
    });

    it("is ended once it wrote one complete value, even with a timer left open", async () => {
      const result = await run(`setInterval(()=>{},1000);process.stdout.write('{"done":true}')`, { wall_ms: 5000 });
      expect(result).toMatchObject({ status: "ok", output: { done: true } });
      expect(result.wall_ms).toBeLessThan(2000);
    });

    it("reaches an allowlisted host under openvibe-only through the Link's proxy", async () => {
      hits = [];
      const result = await run(
        `fetch("http://${TEST_HOST}/hello").then(r=>r.json()).then(j=>console.log(JSON.stringify(j)))`,
        { net: "openvibe-only" },
      );
      expect(result).toMatchObject({ status: "ok", output: { served: "/hello" } });
      expect(hits).toEqual([`${TEST_HOST}/hello`]);
    });
  });

  describe("the job result", () => {
    it("says error when the tool throws", async () => {
      const result = await run(`throw new Error("boom")`);
      expect(result.status).toBe("error");
      expect(result.exit).toBe(1);
      expect(result.stderr).toContain("boom");
    });

    it("says output when stdout is not exactly one JSON value", async () => {
      expect((await run(`console.log("hello")`)).status).toBe("output");
      expect((await run(`console.log('{"a":1}{"b":2}')`)).status).toBe("output");
      expect((await run(``)).status).toBe("output");
    });

    it("says limit when stdout goes over 64 KiB", async () => {
      const result = await run(`process.stdout.write(JSON.stringify({x:"a".repeat(70000)}))`);
      expect(result.status).toBe("limit");
      expect(result.output).toBeNull();
    });

    it("keeps at most 16 KiB of a stderr flood, with a marker, and still returns the output", async () => {
      const result = await run(
        `for(let i=0;i<2000;i++)process.stderr.write("x".repeat(1000));process.stdout.write("[1]")`,
      );
      expect(result.status).toBe("ok");
      expect(Buffer.byteLength(result.stderr)).toBeLessThanOrEqual(16 * 1024);
      expect(result.stderr).toMatch(/stderr truncated, \d+ more bytes dropped/);
    });
  });

  describe("a tool cannot", () => {
    it("read the environment", async () => {
      const result = await run(`console.log(JSON.stringify({env:process.env,keys:Object.keys(process.env)}))`);
      expect(result.output).toEqual({ env: {}, keys: [] });
    });

    it("spawn a process, fork, or fork-bomb", async () => {
      const result = await run(
        attempts(`
      await attempt("childProcess", () => require("node:child_process").spawnSync("/bin/sh", ["-c", "id"]).pid);
      await attempt("fork", () => { const cp = require("child_process"); for (let i = 0; i < 50; i++) cp.fork(__filename); return 50; });
      await attempt("builtin", () => process.getBuiltinModule("child_process").execFileSync("/usr/bin/node", ["-e", "0"]));
      await attempt("cluster", () => require("node:cluster").fork());
      await attempt("execve", () => process.execve("/usr/bin/node", ["node", "-e", "0"]));
      await attempt("bindingSpawn", () => process.binding("spawn_sync").spawn({ file: "/usr/bin/node", args: ["node"], stdio: [] }));`),
      );
      expect(result.status).toBe("ok");
      allDenied(result.output);
    });

    it("write a file anywhere", async () => {
      const result = await run(
        attempts(`
      const fs = require("node:fs");
      await attempt("job", () => fs.writeFileSync("/job/out.txt", "x"));
      await attempt("tmp", () => fs.writeFileSync("/tmp/out.txt", "x"));
      await attempt("promises", () => require("node:fs/promises").writeFile("/job/p.txt", "x"));
      await attempt("mkdir", () => fs.mkdirSync("/job/d"));
      await attempt("sqlite", () => new (require("node:sqlite").DatabaseSync)("/job/db.sqlite"));`),
      );
      allDenied(result.output);
    });

    it("open a socket or resolve DNS under deny", async () => {
      const result = await run(
        attempts(`
      const net = require("node:net");
      const connect = (host, port) => new Promise((res, rej) => { const s = net.connect(port, host, () => { s.destroy(); res("connected"); }); s.on("error", rej); });
      await attempt("hostLoopback", () => connect("127.0.0.1", ${port}));
      await attempt("internet", () => connect("1.1.1.1", 80));
      await attempt("metadata", () => connect("169.254.169.254", 80));
      await attempt("dnsLookup", () => require("node:dns/promises").lookup("openvibe.services"));
      await attempt("dnsResolve", () => require("node:dns/promises").resolve4("openvibe.services"));
      await attempt("fetch", () => fetch("http://${TEST_HOST}/").then((r) => r.status));
      await attempt("udp", () => new Promise((res, rej) => { const s = require("node:dgram").createSocket("udp4"); s.send("x", 53, "1.1.1.1", (e) => { s.close(); e ? rej(e) : res("sent"); }); }));`),
      );
      expect(result.status).toBe("ok");
      // A UDP send "succeeds" only if a route exists; with nothing in the namespace it fails.
      allDenied(result.output);
    });

    it("read outside its folder: /etc/passwd, the Link's key, another job, host /proc", async () => {
      const result = await run(
        attempts(`
      const fs = require("node:fs");
      for (const [name, file] of Object.entries({ passwd: "/etc/passwd", key: ${JSON.stringify(linkKeyFile)}, otherJob: ${JSON.stringify(path.join(otherJob.files, "secret.json"))}, proc: "/proc/1/environ", self: "/proc/self/environ", root: "/" })) {
        await attempt(name, () => fs.readFileSync(file, "utf8"));
        await attempt(name + "Dir", () => fs.readdirSync(file));
        await attempt(name + "Promises", () => require("node:fs/promises").readFile(file, "utf8"));
      }
      await attempt("traversal", () => fs.readFileSync("/job/../etc/passwd", "utf8"));
      await attempt("bufferPath", () => fs.readFileSync(Buffer.from("/job/../etc/passwd"), "utf8"));
      await attempt("urlPath", () => fs.readFileSync(new URL("file:///etc/passwd"), "utf8"));`),
      );
      expect(result.status).toBe("ok");
      allDenied(result.output);
      expect(JSON.stringify(result.output)).not.toMatch(/PRIVATE-KEY|other job|root:x:0/);
    });

    it("create a worker, load an addon, use process.binding, eval or new Function", async () => {
      const result = await run(
        attempts(`
      await attempt("worker", () => new (require("node:worker_threads").Worker)("1", { eval: true }));
      await attempt("dlopen", () => process.dlopen({ exports: {} }, "/job/addon.node"));
      await attempt("bindingFs", () => process.binding("fs"));
      await attempt("eval", () => eval("1+1"));
      await attempt("newFunction", () => new Function("return 1")());
      await attempt("constructor", () => (() => 0).constructor("return process")());
      await attempt("inspector", () => require("node:inspector").open(9229));
      await attempt("wasi", () => new (require("node:wasi").WASI)({ version: "preview1" }));`),
      );
      expect(result.status).toBe("ok");
      allDenied(result.output);
    });

    it("reach a host off the allowlist, an address or another port under openvibe-only", async () => {
      hits = [];
      const result = await run(
        attempts(`
      const get = (url) => fetch(url).then((r) => { if (!r.ok) throw new Error("status " + r.status); return r.status; });
      await attempt("otherHost", () => get("http://evil.example.test/"));
      await attempt("otherHostTls", () => get("https://evil.example.test/"));
      await attempt("apexLookalike", () => get("http://${TEST_HOST}.evil.example/"));
      await attempt("literal", () => get("http://127.0.0.1:${port}/"));
      await attempt("port", () => get("http://${TEST_HOST}:${port}/"));
      await attempt("direct", () => new Promise((res, rej) => { const s = require("node:net").connect(${port}, "127.0.0.1", () => res("connected")); s.on("error", rej); }));`),
        { net: "openvibe-only" },
      );
      expect(result.status).toBe("ok");
      allDenied(result.output);
      expect(hits).toEqual([]);
    });

    it("reach the Link's loopback, private or metadata addresses under public", async () => {
      hits = [];
      const result = await run(
        attempts(`
      const get = (url) => fetch(url).then((r) => { if (!r.ok) throw new Error("status " + r.status); return r.status; });
      await attempt("literal", () => get("http://127.0.0.1/"));
      await attempt("literalPort", () => get("http://127.0.0.1:${port}/"));
      await attempt("localhost", () => get("http://localhost/"));
      await attempt("nameToLoopback", () => get("http://loopback.example.test/"));
      await attempt("metadata", () => get("http://169.254.169.254/latest/meta-data/"));
      await attempt("nameToMetadata", () => get("http://metadata.example.test/"));
      await attempt("mappedV6", () => get("http://[::ffff:127.0.0.1]/"));
      await attempt("private", () => get("https://10.0.0.1/"));
      await attempt("direct", () => new Promise((res, rej) => { const s = require("node:net").connect(${port}, "127.0.0.1", () => res("connected")); s.on("error", rej); }));`),
        { net: "public" },
      );
      expect(result.status).toBe("ok");
      allDenied(result.output);
      expect(hits).toEqual([]);
    });

    it("outlive its wall time: the whole sandbox is killed", async () => {
      const started = Date.now();
      const job = await start(mode, `setInterval(() => {}, 1000); while (true) {}`, { wall_ms: 1500 });
      let seen: number[] = [];
      while (seen.length < 2 && Date.now() - started < 1400) {
        seen = processesOf(...job.marks);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // bwrap, the namespace's init and the tool itself were all there while it ran...
      expect(seen.length).toBeGreaterThanOrEqual(2);
      const result = await job.done;
      expect(result.status).toBe("timeout");
      expect(Date.now() - started).toBeLessThan(4000);
      // ...and none of them is left.
      expect(processesOf(...job.marks)).toEqual([]);
    });

    it("exceed its memory: Buffers outside the heap, and the heap", async () => {
      const buffers = await run(`const a=[];for(;;)a.push(Buffer.alloc(8<<20,1))`, { mem_bytes: 67_108_864 });
      expect(buffers.status).toBe("oom");
      expect(buffers.max_rss_bytes).toBeLessThanOrEqual(67_108_864);
      const heap = await run(`const a=[];for(;;)a.push(new Array(1e5).fill({x:1}))`, { mem_bytes: 67_108_864 });
      expect(heap.status).toBe("oom");
    });

    it("signal its parent or anyone else", async () => {
      const result = await run(
        attempts(`
      await attempt("parent", () => process.kill(process.ppid, "SIGKILL"));
      await attempt("everyone", () => process.kill(-1, "SIGKILL") && "sent-but-nobody-else-exists");
      await attempt("linkPid", () => process.kill(${process.pid}, "SIGKILL"));
      await attempt("debugProcess", () => process._debugProcess(${process.pid}));`),
      );
      // kill(-1) succeeds only toward the tool's own namespace, where nobody else lives.
      const output = result.output as Record<string, { got?: unknown; denied?: string }>;
      expect(result.status).toBe("ok");
      expect(output.linkPid).toHaveProperty("denied");
      expect(output.debugProcess).toHaveProperty("denied");
      expect(process.pid).toBeGreaterThan(0);
    });
  });

  describe("a Link without a writable cgroup", () => {
    it("falls back to the heap limit plus rlimits, and still stops a Buffer bomb", async () => {
      const fallback = await Sandbox.create({
        cgroups: { enforcement: "heap-rlimit", reason: "test" },
        warm: mode === "warm",
      });
      const limits = { wall_ms: 10_000, mem_bytes: 67_108_864 };
      const runTool = async (source: string) => {
        const folder = await folderFor(fallback, mode, "deny", limits);
        writeFileSync(path.join(folder.files, "tool.js"), source);
        const result = await runIn(fallback, mode, {
          folder,
          entry: "tool.js",
          input: Buffer.from("{}"),
          net: "deny",
          limits,
        });
        fallback.removeJobFolder(folder);
        return result;
      };
      try {
        expect(await runTool(`console.log(JSON.stringify({ok:true}))`)).toMatchObject({
          status: "ok",
          output: { ok: true },
          max_rss_bytes: null,
        });
        expect((await runTool(`const a=[];for(;;)a.push(Buffer.alloc(8<<20,1))`)).status).toBe("oom");
        expect((await runTool(`const a=[];for(;;)a.push(new Array(1e5).fill({x:1}))`)).status).toBe("oom");
      } finally {
        await fallback.close();
      }
    });
  });

  describe("a Link that cannot enforce the policy", () => {
    it("refuses the job instead of running it with less isolation", async () => {
      const weak = await Sandbox.create({
        cgroups: { enforcement: "cgroup-v1", memoryParent: "/nonexistent/memory", pidsParent: "/nonexistent/pids" },
        warm: mode === "warm",
      });
      const limits = { wall_ms: 1000, mem_bytes: 67_108_864 };
      // No warm sandbox boots without its cgroup, and the job then runs cold: refused, never run weaker.
      if (mode === "warm") expect(await weak.warmUp({ net: "deny", limits })).toBe(false);
      const folder = weak.newJobFolder({ net: "deny", limits });
      writeFileSync(path.join(folder.files, "tool.js"), `console.log(1)`);
      const result = await weak.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits });
      weak.removeJobFolder(folder);
      await weak.close();
      expect(result).toMatchObject({ status: "refused", code: "link.sandbox.refused", output: null });
      expect(weak.sandboxesStarted).toBe(0);
    });
  });
});
