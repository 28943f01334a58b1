// Links on one machine never break each other: while one Link's job runs, a second Link starts
// and runs jobs beside it, and `openvibe-link exec` runs in another PID namespace (where the first
// Link's PID means nothing). Each of them sweeps on start; the running job, its Link's standby and
// its prepared /usr all survive, and every job succeeds. Real Links, real sandboxes.
import { spawn, spawnSync } from "node:child_process";
import { tempDir } from "../../test/helpers/temp-dir";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobResult } from "./policy";
import { Sandbox } from "./run";

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = path.join(root, "link", "bin", "openvibe-link.mjs");
/** A new PID namespace with its own /proc (bwrap reads /proc/<pid> and needs it to match). */
const UNSHARE_PID = ["--pid", "--fork", "--mount-proc", "--kill-child"];
const canUnsharePid = spawnSync("unshare", [...UNSHARE_PID, "true"]).status === 0;
const homes: string[] = [];
let toolDir: string;

beforeAll(() => {
  toolDir = tempDir("two-links");
  writeFileSync(path.join(toolDir, "hello.js"), `process.stdout.write(JSON.stringify({ hello: process.pid < 10 }))`);
  writeFileSync(path.join(toolDir, "input.json"), "{}");
});

afterAll(() => {
  for (const dir of [toolDir, ...homes]) rmSync(dir, { recursive: true, force: true });
});

function linkHome(): string {
  const home = tempDir("link-home");
  homes.push(home);
  return home;
}

/** Runs `source` in `sandbox`; the job folder stays reachable so the test can signal the tool through it. */
function startJob(sandbox: Sandbox, source: string, wall_ms = 10_000): { files: string; done: Promise<JobResult> } {
  const folder = sandbox.newJobFolder();
  writeFileSync(path.join(folder.files, "tool.js"), source);
  const done = sandbox
    .run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits: { wall_ms, mem_bytes: 134_217_728 } })
    .finally(async () => {
      await sandbox.idle();
      sandbox.removeJobFolder(folder);
    });
  return { files: folder.files, done };
}

/** `openvibe-link exec` as its own process, in a new PID namespace when the kernel allows it. */
function execElsewhere(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const command = [process.execPath, bin, "exec", "--entry", "hello.js", "--input", path.join(toolDir, "input.json"), toolDir];
  const child = canUnsharePid ? spawn("unshare", [...UNSHARE_PID, ...command], { cwd: root }) : spawn(command[0]!, command.slice(1), { cwd: root });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

describe("two Links on one machine", () => {
  it("run jobs at the same time, one of them from another PID namespace, and neither breaks the other", async () => {
    const first = await Sandbox.create({ linkHome: linkHome() });
    try {
      // The first Link's job waits until the test says go (a file the Link drops into its folder),
      // so it is certainly running while the others start, sweep and run.
      const waiting = startJob(first, `const fs = require("node:fs"); const t = setInterval(() => { if (fs.existsSync("/job/go")) { clearInterval(t); process.stdout.write('{"waited":true}'); } }, 20);`, 30_000);

      const second = await Sandbox.create({ linkHome: linkHome() });
      let elsewhere: Awaited<ReturnType<typeof execElsewhere>>;
      let secondResults: JobResult[];
      try {
        [elsewhere, secondResults] = await Promise.all([
          execElsewhere(),
          (async () => {
            const out: JobResult[] = [];
            for (let i = 0; i < 3; i++) out.push(await startJob(second, `process.stdout.write('{"second":${i}}')`).done);
            return out;
          })(),
        ]);
      } finally {
        await second.close();
      }
      expect(elsewhere.code, `${elsewhere.stdout}\n${elsewhere.stderr}`).toBe(0);
      expect(JSON.parse(elsewhere.stdout)).toMatchObject({ status: "ok", output: { hello: true } });
      expect(secondResults.map((r) => r.output)).toEqual([{ second: 0 }, { second: 1 }, { second: 2 }]);

      writeFileSync(path.join(waiting.files, "go"), "");
      expect(await waiting.done).toMatchObject({ status: "ok", output: { waited: true } });
      // Its standby and its prepared /usr are intact: the next job runs as usual.
      expect(await startJob(first, `process.stdout.write('{"after":true}')`).done).toMatchObject({ status: "ok", output: { after: true } });
    } finally {
      await first.close();
    }
  });
});
