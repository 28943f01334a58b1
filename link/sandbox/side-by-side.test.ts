// Jobs at once (issue 23 §1): a Link with several slots keeps a warm sandbox per slot, and jobs
// running side by side each have their own /job, network and process tree; one killed at its
// limit leaves the others running to their end.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobResult, Limits } from "./policy";
import { Sandbox } from "./run";

const SLOTS = 3;
let sandbox: Sandbox;
const limits: Limits = { wall_ms: 10_000, mem_bytes: 134_217_728 };

beforeAll(async () => {
  sandbox = await Sandbox.create({ warm: true, warmDepth: SLOTS });
});

afterAll(async () => {
  await sandbox.close();
});

function start(files: Record<string, string>, jobLimits: Limits = limits): Promise<JobResult> {
  const folder = sandbox.newJobFolder({ net: "deny", limits: jobLimits });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder.files, name), text);
  return sandbox
    .run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits: jobLimits })
    .finally(() => sandbox.removeJobFolder(folder));
}

/** A tool that holds a port and a secret, then looks for the other jobs' while they all run. */
const neighbour = (name: string, port: number, other: number) => `
  const fs = require("node:fs");
  const net = require("node:net");
  const began = Date.now();
  globalThis.mine = "${name}";
  net.createServer((s) => s.end("${name}")).listen(${port}, "127.0.0.1", () => {
    setTimeout(() => {
      const s = net.connect(${other}, "127.0.0.1", () => finish("connected"));
      s.on("error", (e) => finish(e.code));
    }, 600);
  });
  function finish(connect) {
    const seen = { files: fs.readdirSync("/job").filter((f) => !f.startsWith(".")).sort(), connect, mine: globalThis.mine };
    let pids = [];
    try { pids = fs.readdirSync("/proc").filter((p) => /^\\d+$/.test(p)); } catch (e) { pids = e.code; }
    process.stdout.write(JSON.stringify({ ...seen, pids: Array.isArray(pids) ? pids.length : pids, began, ended: Date.now() }));
    process.exit(0);
  }`;

describe("jobs side by side", () => {
  it("keeps one warm sandbox per slot", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    expect(sandbox.warm!.idleSandboxes()).toHaveLength(SLOTS);
  });

  it("run at once, each seeing only its own files, port and processes; one killed at its limit leaves the others", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    const before = sandbox.warmJobsRun;
    const [a, b, killed] = await Promise.all([
      start({ "tool.js": neighbour("A", 4101, 4102), "secret-a.txt": "A" }),
      start({ "tool.js": neighbour("B", 4102, 4101), "secret-b.txt": "B" }),
      start({ "tool.js": "while (true) {}" }, { wall_ms: 1_000, mem_bytes: limits.mem_bytes }),
    ]);
    expect(sandbox.warmJobsRun - before).toBe(SLOTS);
    expect(killed.status).toBe("timeout");
    expect(a.status, a.stderr).toBe("ok");
    expect(b.status, b.stderr).toBe("ok");
    type Seen = { files: string[]; connect: string; mine: string; pids: number | string; began: number; ended: number };
    const outA = a.output as Seen;
    const outB = b.output as Seen;
    expect(outA).toMatchObject({ files: ["secret-a.txt", "tool.js"], connect: "ECONNREFUSED", mine: "A" });
    expect(outB).toMatchObject({ files: ["secret-b.txt", "tool.js"], connect: "ECONNREFUSED", mine: "B" });
    // Each sees at most its own few processes (or no /proc at all), never the other jobs'.
    for (const out of [outA, outB]) if (typeof out.pids === "number") expect(out.pids).toBeLessThanOrEqual(3);
    // They did run at once: each began before the other ended.
    expect(outA.began < outB.ended && outB.began < outA.ended).toBe(true);
  });
});
