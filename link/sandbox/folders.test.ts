// Sandbox folders on a shared machine: each Sandbox locks its own, and only folders whose lock can
// be taken are swept (with their job cgroups), never by PID. Real processes, real locks, the real
// folder under the system temp dir that every Link of this user shares.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { tempDir } from "../../test/helpers/temp-dir";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdirSync, rmdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { detectCgroups } from "./cgroup";
import { defaultBase, scopeOf } from "./folders";
import { Sandbox } from "./run";

const base = defaultBase();
const support = detectCgroups();
const cgroupParents = [support.memoryParent, support.pidsParent].filter((p): p is string => Boolean(p));
const canUnsharePid = spawnSync("unshare", ["--pid", "--fork", "true"]).status === 0;
const started: ChildProcess[] = [];
const madeCgroups: string[] = [];
const madeFolders: string[] = [];

afterAll(async () => {
  for (const child of started) child.kill("SIGKILL");
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const dir of madeCgroups) {
    for (let attempt = 0; existsSync(dir) && attempt < 50; attempt++) {
      try {
        rmdirSync(dir);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
  for (const dir of madeFolders) rmSync(dir, { recursive: true, force: true });
});

/** An instance folder as a Sandbox leaves it (a job folder inside), under `scope`. */
function instanceFolder(scope: string, name = `i${randomBytes(6).toString("hex")}`): { id: string; dir: string } {
  const dir = path.join(base, scope, name);
  mkdirSync(path.join(dir, "job-x", "files"), { recursive: true });
  writeFileSync(path.join(dir, "job-x", "files", "tool.js"), "1");
  madeFolders.push(dir);
  return { id: name.replace(/^\.new-/, ""), dir };
}

/** A job cgroup of `owner` with a sleeping process in it (the tool a dying Link orphaned). */
function jobCgroup(owner: string): { dirs: string[]; child: ChildProcess; exited: Promise<NodeJS.Signals | null> } {
  const name = `openvibe-job-${owner}-s${randomBytes(6).toString("hex")}`;
  const dirs = cgroupParents.map((parent) => path.join(parent, name));
  for (const dir of dirs) mkdirSync(dir);
  madeCgroups.push(...dirs);
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  started.push(child);
  for (const dir of dirs) writeFileSync(path.join(dir, "cgroup.procs"), String(child.pid));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
  return { dirs, child, exited };
}

/** True when some process holds `dir`'s lock (we cannot take it without waiting). */
function lockHeld(dir: string): boolean {
  return spawnSync("flock", ["--exclusive", "--nonblock", dir, "true"]).status !== 0;
}

/** Holds `dir`'s lock from another process: in its own PID namespace where the kernel allows it. */
async function holdLock(dir: string): Promise<ChildProcess> {
  const command = ["flock", "--exclusive", dir, "sleep", "60"];
  const child = canUnsharePid ? spawn("unshare", ["--pid", "--fork", "--kill-child", ...command], { stdio: "ignore" }) : spawn(command[0]!, command.slice(1), { stdio: "ignore" });
  started.push(child);
  const deadline = Date.now() + 10_000;
  while (!lockHeld(dir) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(lockHeld(dir)).toBe(true);
  return child;
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

describe("Sandbox folders", () => {
  it("are one per Sandbox, locked while it is open, in its Link's folder (or exec's), removed on close", async () => {
    const home = tempDir("link-home");
    const link = await Sandbox.create({ linkHome: home });
    const exec = await Sandbox.create();
    try {
      expect(path.dirname(link.folderPath)).toBe(path.join(base, scopeOf(home)));
      expect(scopeOf(home)).toMatch(/^link-[0-9a-f]{16}$/);
      expect(path.dirname(exec.folderPath)).toBe(path.join(base, "exec"));
      expect(link.folderPath).not.toBe(exec.folderPath);
      for (const sandbox of [link, exec]) {
        expect(existsSync(path.join(sandbox.folderPath, "sys", "usr"))).toBe(true);
        expect(lockHeld(sandbox.folderPath)).toBe(true);
      }
    } finally {
      await link.close();
      await exec.close();
      rmSync(home, { recursive: true, force: true });
    }
    expect(existsSync(link.folderPath)).toBe(false);
    expect(existsSync(exec.folderPath)).toBe(false);
  });

  it("whose lock nobody holds are swept with their job cgroups, in any scope, by the next Sandbox", async () => {
    const deadLink = instanceFolder(`link-${randomBytes(8).toString("hex")}`);
    // The cgroup first: a sweeper that finds the folder must find its cgroup too.
    const deadId = `i${randomBytes(6).toString("hex")}`;
    const orphan = jobCgroup(deadId);
    const deadExec = instanceFolder("exec", deadId);
    const staleClaim = instanceFolder("exec", `.new-i${randomBytes(6).toString("hex")}`);
    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(staleClaim.dir, old, old);

    await (await Sandbox.create()).close();

    for (const folder of [deadLink, deadExec, staleClaim]) expect(existsSync(folder.dir), folder.dir).toBe(false);
    if (cgroupParents.length) {
      expect(await orphan.exited).toBe("SIGKILL");
      for (const dir of orphan.dirs) expect(existsSync(dir)).toBe(false);
    }
  });

  it("whose lock is held, even from another PID namespace, are left alone, and so are their job cgroups", async () => {
    const live = instanceFolder("exec");
    const holder = await holdLock(live.dir);
    const job = jobCgroup(live.id);
    // A claim still being made (renamed once locked) is not judged yet.
    const claiming = instanceFolder("exec", `.new-i${randomBytes(6).toString("hex")}`);

    await (await Sandbox.create()).close();

    expect(existsSync(path.join(live.dir, "job-x", "files", "tool.js"))).toBe(true);
    expect(existsSync(claiming.dir)).toBe(true);
    expect(alive(holder)).toBe(true);
    if (cgroupParents.length) {
      expect(alive(job.child)).toBe(true);
      for (const dir of job.dirs) expect(existsSync(dir)).toBe(true);
    }

    // Once the holder is gone, the same folder is abandoned and the next Sandbox sweeps it.
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    while (lockHeld(live.dir)) await new Promise((resolve) => setTimeout(resolve, 20));
    await (await Sandbox.create()).close();
    expect(existsSync(live.dir)).toBe(false);
    if (cgroupParents.length) expect(await job.exited).toBe("SIGKILL");
  });

  it("live only in a real folder of this user: a symlink or someone else's folder is refused", async () => {
    const outside = tempDir("link-base");
    const linked = `${outside}-link`;
    symlinkSync(outside, linked);
    try {
      await expect(Sandbox.create({ workRoot: linked })).rejects.toMatchObject({ code: "link.sandbox.unavailable" });
      if (process.getuid?.() === 0) {
        chownSync(outside, 65534, 65534);
        await expect(Sandbox.create({ workRoot: outside })).rejects.toMatchObject({ code: "link.sandbox.unavailable" });
      }
    } finally {
      rmSync(linked, { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
