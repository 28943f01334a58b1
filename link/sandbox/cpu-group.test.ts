// A sandbox waits for its job on idle CPU only, and runs its job at the sandbox's weight: real
// cgroups of this machine, a real warm sandbox.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectCgroups, JobCgroup } from "./cgroup";
import { Sandbox } from "./run";
import { processesOf } from "../../test/helpers/processes";

const support = detectCgroups();
const limits = { wall_ms: 10_000, mem_bytes: 134_217_728 };

/** cpu.idle of the job CPU group `pid` is in ("" when it is in none). */
function cpuIdleOf(pid: number): string {
  const cpu = support.cpu!;
  const line = readFileSync(`/proc/${pid}/cgroup`, "utf8")
    .split("\n")
    .find((l) => (cpu.version === 2 ? l.startsWith("0::") : l.split(":")[1]!.split(",").includes("cpu")));
  const group = path.join(cpu.parent, path.basename(line!.split(":")[2]!));
  return existsSync(path.join(group, "cpu.idle")) && group !== cpu.parent
    ? readFileSync(path.join(group, "cpu.idle"), "utf8").trim()
    : "";
}

describe("a job's CPU group", () => {
  it("exists on this machine: the cpu controller takes cpu.idle", () => {
    expect(support.cpu, "no writable cpu controller with cpu.idle (Linux ≥ 5.15)").toBeDefined();
  });

  it("is idle until its job comes, then weighs like a task at nice 10, and goes with the job's cgroups", async () => {
    const cg = JobCgroup.create(support, "cputest", `t${randomBytes(4).toString("hex")}`, limits.mem_bytes)!;
    const dir = (cg as unknown as { cpuDir: string }).cpuDir;
    try {
      const read = (file: string) => readFileSync(path.join(dir, file), "utf8").trim();
      const weight = support.cpu!.version === 1 ? "cpu.shares" : "cpu.weight.nice";
      expect(read("cpu.idle")).toBe("1");
      cg.wake();
      expect(read("cpu.idle")).toBe("0");
      expect(read(weight)).toBe(support.cpu!.version === 1 ? "110" : "10");
    } finally {
      await cg.remove();
    }
    expect(existsSync(dir)).toBe(false);
  });
});

describe("a warm sandbox", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await Sandbox.create({ warm: true });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it("waits on idle CPU, and its job runs at the sandbox's weight in the same process", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    const [waiting] = sandbox.warm!.idleSandboxes();
    const pid = waiting!.sandbox.pid.value!;
    expect(cpuIdleOf(pid)).toBe("1");
    // Outside the autogroups, its session's nice is left as it is: only the group is weighed.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(readFileSync(`/proc/${pid}/autogroup`, "utf8")).toMatch(/ nice 0$/m);

    const folder = sandbox.newJobFolder({ net: "deny", limits });
    writeFileSync(
      path.join(folder.files, "tool.js"),
      "setTimeout(() => process.stdout.write(JSON.stringify({ ok: true })), 400);",
    );
    const running = sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(cpuIdleOf(pid)).toBe("0");
    const result = await running;
    expect(result.status).toBe("ok");
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
  });

  it("boots at the sandbox's weight once a job waits for it", async () => {
    const small = { ...limits, mem_bytes: 67_108_864 };
    await sandbox.warm!.ready();
    sandbox.warm!.want("deny", small.mem_bytes);
    sandbox.warm!.arm();
    // Asked for while that boot is on its way: the job waits for it rather than starting cold.
    const folder = await sandbox.jobFolder({ net: "deny", limits: small });
    const [pid] = processesOf(folder.id);
    expect(pid).toBeDefined();
    expect(cpuIdleOf(pid!)).toBe("0");
    sandbox.removeJobFolder(folder);
    await sandbox.idle();
  });
});
