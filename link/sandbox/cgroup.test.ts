// Job cgroups: what a dead Link left behind is found, killed and removed by the next Link.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectCgroups } from "./cgroup";
import { Sandbox } from "./run";

describe("job cgroups", () => {
  const support = detectCgroups();

  it("are available on this machine (else the Link reports heap-rlimit)", () => {
    expect(["cgroup-v2", "cgroup-v1", "heap-rlimit"]).toContain(support.enforcement);
    if (support.enforcement === "heap-rlimit") expect(support.reason).toBeTruthy();
  });

  it("and job folders of a Link that died are killed and removed when the next Link starts", async () => {
    // A pid that existed a moment ago and is gone now stands for the dead Link.
    const deadPid = spawnSync("true").pid!;
    const name = `openvibe-job-${deadPid}-orphan${Date.now()}`;
    const dirs = [support.memoryParent, support.pidsParent].filter((p): p is string => Boolean(p)).map((parent) => path.join(parent, name));
    for (const dir of dirs) mkdirSync(dir);
    // Without cgroups (heap-rlimit) only the folder part applies; the orphan is then ended here.
    const orphan = spawn("sleep", ["60"], { stdio: "ignore" });
    for (const dir of dirs) writeFileSync(path.join(dir, "cgroup.procs"), String(orphan.pid));
    if (dirs.length === 0) orphan.kill("SIGKILL");
    const exited = new Promise<NodeJS.Signals | null>((resolve) => orphan.on("exit", (_code, signal) => resolve(signal)));

    const folder = path.join(os.tmpdir(), `openvibe-link-${process.getuid?.() ?? "user"}`, `job-${deadPid}-orphan`);
    mkdirSync(path.join(folder, "files"), { recursive: true });

    await (await Sandbox.create()).close();

    expect(await exited).toBe("SIGKILL");
    for (const dir of dirs) expect(existsSync(dir)).toBe(false);
    expect(existsSync(folder)).toBe(false);
  });
});
