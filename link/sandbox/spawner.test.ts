// The helper process that starts standby shells for the Link: children, their pipes and their
// exits reach the Link as if it had started them; kills go through the helper; nothing of the
// helper's own reaches a child; a helper that dies is replaced and takes its children with it.
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { EMPTY_ENV } from "./bwrap";
import { Spawner, type SandboxChild } from "./spawner";

let spawner: Spawner;

afterEach(async () => {
  await spawner.close();
});

function sh(script: string, fds = 3): SandboxChild {
  return spawner.spawn({
    file: "/bin/sh",
    args: ["-c", script],
    env: EMPTY_ENV,
    fds,
    read: [1, 2, 3, 4].filter((fd) => fd < fds),
  });
}

function readAll(stream: unknown): Promise<string> {
  const readable = stream as Readable;
  let text = "";
  readable.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return new Promise((resolve) => readable.once("close", () => resolve(text)));
}

function closed(child: SandboxChild): Promise<[number | null, NodeJS.Signals | null]> {
  return new Promise((resolve) => child.once("close", (code, signal) => resolve([code, signal])));
}

/** The parent pid, from /proc/<pid>/stat (the fields after the command name's closing parenthesis). */
function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

/** True once `pid` is gone or a zombie (its orphan may wait for a reaper), within two seconds. */
async function ended(pid: number): Promise<boolean> {
  for (let i = 0; i < 200; i++) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

describe("the spawner", () => {
  it("starts a child of its own whose pipes, output and exit reach the Link", async () => {
    spawner = new Spawner();
    const child = sh("read line; echo out:$line; echo err >&2; echo three >&3; exit 7", 4);
    expect(await Spawner.spawned(child)).toBe(child.pid);
    const parent = parentOf(child.pid!);
    expect(parent).not.toBe(process.pid);
    expect(readFileSync(`/proc/${parent}/cmdline`, "utf8")).toContain("spawner.cjs");
    const [out, err, three] = [readAll(child.stdout), readAll(child.stderr), readAll(child.stdio[3])];
    (child.stdin as Writable).end("hello\n");
    const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    expect(await closed(child)).toEqual([7, null]);
    expect(await exited).toBe(7);
    expect([await out, await err, await three]).toEqual(["out:hello\n", "err\n", "three\n"]);
    expect([child.exitCode, child.signalCode]).toEqual([7, null]);
  });

  it("kills a child through the helper", async () => {
    spawner = new Spawner();
    const child = sh("read never");
    await Spawner.spawned(child);
    expect(child.kill("SIGKILL")).toBe(true);
    expect(await closed(child)).toEqual([null, "SIGKILL"]);
    expect(child.kill("SIGKILL")).toBe(false);
  });

  it("hands a child nothing of its own: only the pipes asked for", async () => {
    spawner = new Spawner();
    const child = sh("read go; ls -l /proc/self/fd/ >&3; for f in /proc/self/fd/*; do echo ${f##*/}; done", 4);
    await Spawner.spawned(child);
    const listing = readAll(child.stdio[3]);
    const names = readAll(child.stdout);
    (child.stdin as Writable).end("\n");
    await closed(child);
    const extra = (await names)
      .split("\n")
      .filter(Boolean)
      .map(Number)
      .filter((fd) => fd > 3);
    // Beyond its four pipes, only the listing's own directory: not the helper's channel, nor
    // anything the helper inherited.
    const targets = new Map(
      [...(await listing).matchAll(/ (\d+) -> (.*)$/gm)].map((m) => [Number(m[1]), m[2]!] as const),
    );
    const leaked = extra.filter((fd) => targets.has(fd) && !targets.get(fd)!.startsWith("/proc/"));
    expect(leaked.map((fd) => `${fd} -> ${targets.get(fd)}`)).toEqual([]);
  });

  it("replaces a helper that died, whose children went with it", async () => {
    spawner = new Spawner();
    const first = sh("read never");
    await Spawner.spawned(first);
    const helper = parentOf(first.pid!);
    const gone = closed(first);
    process.kill(helper, "SIGKILL");
    expect((await gone)[1]).toBe("SIGKILL");
    const second = sh("read go; exit 3");
    expect(await Spawner.spawned(second)).toBeGreaterThan(0);
    expect(parentOf(second.pid!)).not.toBe(helper);
    (second.stdin as Writable).end("\n");
    expect(await closed(second)).toEqual([3, null]);
  });

  it("fails a child that ended before its pipes were all handed over", async () => {
    spawner = new Spawner();
    // Exits at once: its output may close a pipe in the helper before that pipe is sent.
    const children = Array.from({ length: 5 }, () => sh("exit 0"));
    const outcomes = await Promise.all(
      children.map((child) =>
        Promise.all([
          Spawner.spawned(child).then(
            () => "up",
            () => "failed",
          ),
          closed(child),
        ]),
      ),
    );
    for (const [, [code, signal]] of outcomes) expect(code === 0 || signal === "SIGKILL").toBe(true);
  });

  it("ends its children when closed, and starts nothing more", async () => {
    spawner = new Spawner();
    const child = sh("read never");
    const pid = await Spawner.spawned(child);
    const gone = closed(child);
    await spawner.close();
    await gone;
    expect(await ended(pid)).toBe(true);
    const late = sh("exit 0");
    await expect(Spawner.spawned(late)).rejects.toThrow(/closed/);
  });
});
