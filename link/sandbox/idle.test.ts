// Sandbox.idle() waits for cleanups and the next standby, whose handles keep no reference on the
// event loop: the wait itself must hold the process, or a program that awaits it with nothing else
// pending (bench:sandbox did) exits mid-await with code 13. Run in a process of its own, so that
// nothing of the test runner keeps that process alive for it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const JOBS = 20;

describe("Sandbox.idle()", () => {
  it("keeps the process alive until what it waits for is done, job after job", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ov-idle-"));
    try {
      const script = path.join(dir, "idle.mts");
      writeFileSync(
        script,
        `import { writeFileSync } from "node:fs";
import path from "node:path";
import { Sandbox } from ${JSON.stringify(path.join(ROOT, "link/sandbox/run.ts"))};
const job = { net: "deny" as const, limits: { wall_ms: 10_000, mem_bytes: 134_217_728 } };
const sandbox = await Sandbox.create({ warm: true });
await sandbox.warmUp(job);
for (let i = 0; i < ${JOBS}; i++) {
  const folder = sandbox.newJobFolder();
  writeFileSync(path.join(folder.files, "tool.js"), 'process.stdout.write("{}")');
  const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), ...job });
  sandbox.removeJobFolder(folder);
  await sandbox.idle();
  process.stdout.write(result.status + "\\n");
}
await sandbox.close();
`,
      );
      const child = spawnSync(process.execPath, ["--import", "tsx", script], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout.trim().split("\n")).toEqual(Array(JOBS).fill("ok"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
