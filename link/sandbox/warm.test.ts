// Sandboxes booted before their job: one job each, nothing of one job visible to the next, and
// exactly the job's policy and limits. (sandbox.test.ts runs every security test on them too.)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobResult, Limits, NetPolicy } from "./policy";
import { Sandbox } from "./run";
import { processesOf } from "../../test/helpers/processes";

let sandbox: Sandbox;
const limits: Limits = { wall_ms: 10_000, mem_bytes: 134_217_728 };

beforeAll(async () => {
  sandbox = await Sandbox.create({ warm: true });
});

afterAll(async () => {
  await sandbox.close();
});

async function runWarm(
  files: Record<string, string>,
  net: NetPolicy = "deny",
  jobLimits: Limits = limits,
): Promise<{ id: string; result: JobResult }> {
  expect(await sandbox.warmUp({ net, limits: jobLimits })).toBe(true);
  const folder = sandbox.newJobFolder({ net, limits: jobLimits });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder.files, name), text);
  const before = sandbox.warmJobsRun;
  const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net, limits: jobLimits });
  expect(sandbox.warmJobsRun).toBe(before + 1);
  await sandbox.idle();
  sandbox.removeJobFolder(folder);
  return { id: folder.id, result };
}

describe("a warm sandbox", () => {
  it("waits with Node under the permission flags naming /job, before any job exists", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    const [idle] = sandbox.warm!.idleSandboxes();
    const pid = idle!.sandbox.pid.value!;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    expect(cmdline).toEqual(
      expect.arrayContaining([
        "--permission",
        "--allow-fs-read=/job",
        "--disallow-code-generation-from-strings",
        "/job/.openvibe/warm.cjs",
      ]),
    );
    expect(cmdline).not.toContainEqual(expect.stringMatching(/^--allow-(fs-write|child-process|worker|addons|wasi)/));
  });

  it("shows the next job nothing the last one left: files, timers, globals, open handles", async () => {
    const first = await runWarm({
      "tool.js": `
        const fs = require("node:fs");
        const tried = {};
        for (const file of ["/job/left.txt", "/tmp/left.txt", "/left.txt", "/dev/shm/left.txt"]) {
          try { fs.writeFileSync(file, "A"); tried[file] = "written"; } catch (e) { tried[file] = e.code; }
        }
        globalThis.leftBehind = "A";
        Object.prototype.leakedFromA = "A";
        JSON.parse = () => "A";
        process.env.LEFT_BY_A = "1";
        setInterval(() => process.stdout.write("tick-from-A"), 1000);
        setTimeout(() => { try { fs.writeFileSync("/job/late.txt", "A"); } catch {} }, 50);
        require("node:net").createServer((s) => s.end("A")).listen(4000, "127.0.0.1", () => {
          process.stdout.write(JSON.stringify({ tried, listening: true }));
        });`,
      "secret-of-a.txt": "A's input",
    });
    expect(first.result).toMatchObject({ status: "ok", output: { listening: true } });
    expect(Object.values((first.result.output as { tried: Record<string, string> }).tried)).not.toContain("written");
    // The first job's sandbox is gone, every process of it.
    expect(processesOf(first.id)).toEqual([]);

    const second = await runWarm({
      "tool.js": `
        const fs = require("node:fs");
        const seen = {
          files: fs.readdirSync("/job").sort(),
          hidden: fs.readdirSync("/job/.openvibe").sort(),
          global: typeof globalThis.leftBehind,
          proto: ({}).leakedFromA === undefined,
          json: JSON.parse("1"),
          env: Object.keys(process.env),
          modules: Object.keys(require.cache).filter((f) => !f.startsWith("/job/.openvibe/")),
        };
        const connect = new Promise((resolve) => {
          const s = require("node:net").connect(4000, "127.0.0.1", () => resolve("connected"));
          s.on("error", (e) => resolve(e.code));
        });
        setTimeout(() => connect.then((c) => process.stdout.write(JSON.stringify({ ...seen, connect: c }))), 120);`,
    });
    expect(second.id).not.toBe(first.id);
    expect(second.result.status).toBe("ok");
    expect(second.result.output).toEqual({
      files: [".openvibe", "tool.js"],
      hidden: ["boot.cjs", "warm.cjs"],
      global: "undefined",
      proto: true,
      json: 1,
      env: [],
      modules: ["/job/tool.js"],
      connect: "ECONNREFUSED",
    });
    expect(second.result.stderr).toBe("");
  });

  it("runs a job of another cap cold, then keeps one booted for that cap", async () => {
    const small = { wall_ms: 5_000, mem_bytes: 67_108_864 };
    const folder = sandbox.newJobFolder({ net: "deny", limits: small });
    writeFileSync(path.join(folder.files, "tool.js"), `process.stdout.write("1")`);
    const warmBefore = sandbox.warmJobsRun;
    expect(
      await sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits: small }),
    ).toMatchObject({ status: "ok", output: 1 });
    expect(sandbox.warmJobsRun).toBe(warmBefore);
    sandbox.removeJobFolder(folder);
    // Now booted for 64 MiB: its heap limit and its cgroup are that job's.
    const { result } = await runWarm({ "tool.js": `const a=[];for(;;)a.push(Buffer.alloc(8<<20,1))` }, "deny", small);
    expect(result.status).toBe("oom");
    expect(result.max_rss_bytes).toBeLessThanOrEqual(67_108_864);
    const heap = await runWarm({ "tool.js": `process.stdout.write(JSON.stringify(process.execArgv))` }, "deny", small);
    expect(heap.result.output).toContain("--max-old-space-size=48");
  });

  it("measures the wall clock from the job, not from the boot", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const { result } = await runWarm({ "tool.js": `setTimeout(() => process.stdout.write("1"), 300)` }, "deny", {
      wall_ms: 1_000,
      mem_bytes: limits.mem_bytes,
    });
    expect(result).toMatchObject({ status: "ok", output: 1 });
  });

  it("gives a job that arrives while its sandbox still boots that sandbox, not a cold start", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    // The ready one goes with a job that never runs; its replacement boots from the next tick.
    sandbox.removeJobFolder(sandbox.newJobFolder({ net: "deny", limits }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(sandbox.warm!.idleSandboxes().some((warm) => warm.isReady)).toBe(false);
    const folder = await sandbox.jobFolder({ net: "deny", limits });
    writeFileSync(path.join(folder.files, "tool.js"), `process.stdout.write("2")`);
    const warmBefore = sandbox.warmJobsRun;
    const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits });
    expect(result).toMatchObject({ status: "ok", output: 2 });
    expect(sandbox.warmJobsRun).toBe(warmBefore + 1);
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
  });

  it("boots the next one, and tears the used one down, only once the result is handed on", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    const folder = await sandbox.jobFolder({ net: "deny", limits });
    writeFileSync(path.join(folder.files, "tool.js"), `process.stdout.write("3")`);
    let handOn!: () => void;
    const settled = new Promise<void>((resolve) => (handOn = resolve));
    const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits, settled });
    expect(result).toMatchObject({ status: "ok", output: 3 });
    sandbox.removeJobFolder(folder, settled);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Nothing booted meanwhile; the used sandbox's folder is still there.
    expect(sandbox.warm!.idleSandboxes()).toEqual([]);
    expect(readdirSync(path.dirname(folder.root))).toContain(path.basename(folder.root));
    handOn();
    await sandbox.idle();
    expect(await sandbox.warm!.ready()).toBe(true);
    expect(sandbox.warm!.idleSandboxes().length).toBe(1);
    expect(readdirSync(path.dirname(folder.root))).not.toContain(path.basename(folder.root));
    expect(processesOf(folder.id)).toEqual([]);
  });

  it("is destroyed with its folder when the job never runs (inputs refused)", async () => {
    expect(await sandbox.warmUp({ net: "openvibe-only", limits })).toBe(true);
    const folder = sandbox.newJobFolder({ net: "openvibe-only", limits });
    expect(processesOf(folder.id).length).toBeGreaterThanOrEqual(2);
    const started = sandbox.sandboxesStarted;
    sandbox.removeJobFolder(folder);
    await sandbox.idle();
    expect(processesOf(folder.id)).toEqual([]);
    expect(sandbox.sandboxesStarted).toBe(started);
  });

  it("runs a job whose policy differs from the folder's sandbox cold, in that job's policy", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    const folder = sandbox.newJobFolder({ net: "deny", limits });
    writeFileSync(
      path.join(folder.files, "tool.js"),
      `process.stdout.write(JSON.stringify(process.env.HTTP_PROXY ?? null))`,
    );
    const warmBefore = sandbox.warmJobsRun;
    const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "public", limits });
    expect(sandbox.warmJobsRun).toBe(warmBefore);
    expect(result).toMatchObject({ status: "ok", output: "http://127.0.0.1:3128" });
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
    expect(processesOf(folder.id)).toEqual([]);
  });
});
