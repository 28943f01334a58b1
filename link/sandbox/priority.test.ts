// Tool code runs below the Link's CPU priority, in its task and in its session, and the Link's
// own session keeps its priority. These sandboxes have no CPU group (cpu-group.test.ts covers
// those): the session's autogroup is then what the kernel weighs.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Limits } from "./policy";
import { detectCgroups } from "./cgroup";
import { SANDBOX_NICE, sessionOf } from "./priority";
import { Sandbox } from "./run";

const limits: Limits = { wall_ms: 10_000, mem_bytes: 134_217_728 };
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await Sandbox.create({ warm: true, cgroups: { ...detectCgroups(), cpu: undefined } });
});

afterAll(async () => {
  await sandbox.close();
});

/** The nice value in an autogroup file ("/autogroup-12 nice 10"), or null where there is none. */
function autogroupNice(pid: number | "self"): number | null {
  try {
    const match = /nice (-?\d+)/.exec(readFileSync(`/proc/${pid}/autogroup`, "utf8"));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

async function until(check: () => boolean, ms = 2_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
}

describe("a sandbox's CPU priority", () => {
  it("reads a session id past a command name holding spaces and parentheses", () => {
    expect(sessionOf("4242 (a) b (c) S 1 4242 4240 0 -1 4194560 2 0")).toBe(4240);
    expect(sessionOf("garbage")).toBeUndefined();
  });

  it("is lowered for the tool, in its task and its session, and not for the Link's session", async () => {
    const ownBefore = autogroupNice("self");
    const folder = sandbox.newJobFolder({ net: "deny", limits });
    writeFileSync(
      path.join(folder.files, "tool.js"),
      `process.stdout.write(JSON.stringify({ nice: require("node:os").getPriority() }));`,
    );
    const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from("{}"), net: "deny", limits });
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
    expect(result).toMatchObject({ status: "ok", output: { nice: SANDBOX_NICE } });
    expect(autogroupNice("self")).toBe(ownBefore);
  });

  it("is lowered in a warm sandbox's session while it waits for a job", async () => {
    expect(await sandbox.warmUp({ net: "deny", limits })).toBe(true);
    const [idle] = sandbox.warm!.idleSandboxes();
    const pid = idle!.sandbox.pid.value!;
    // Where the kernel groups tasks by session the sandbox leads one of its own, at SANDBOX_NICE.
    if (autogroupNice(pid) === null) return;
    expect(await until(() => autogroupNice(pid) === SANDBOX_NICE)).toBe(true);
    expect(sessionOf(readFileSync(`/proc/${pid}/stat`, "utf8"))).toBe(pid);
    expect(autogroupNice("self")).not.toBe(SANDBOX_NICE);
  });
});
