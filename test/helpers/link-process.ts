// Real `openvibe-link` processes for the run-path tests: each with its own home folder (key,
// link.json, held results), paired with a dashboard code against a route server in this process.
// Spawns are asynchronous on purpose: the routes are served from this very process, so a blocking
// spawn would deadlock.
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { removeTempDir, tempDir } from "./temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "link/bin/openvibe-link.mjs");

export type LinkHome = {
  dir: string;
  env: NodeJS.ProcessEnv;
  cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }>;
  start(args?: string[]): { child: ChildProcess; output: () => string };
  state(): Promise<{ runner: string; runner_epoch: number; link_id: string; pool: boolean }>;
  /** Kills every `run` of this home (SIGKILL), as a crash would. */
  stopProcesses(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * `program`: how to start `openvibe-link` (this checkout's launcher under this Node unless given,
 * e.g. the bin of an installed tarball) and the PATH it runs with.
 */
export async function linkHome(
  label: string,
  program: { command: string[]; path?: string } = { command: [process.execPath, BIN] },
): Promise<LinkHome> {
  const dir = tempDir(label);
  const [command, ...pre] = program.command as [string, ...string[]];
  // TMPDIR: the run's own temp folder (npm test), where the Link's job folders belong too.
  const env = {
    PATH: program.path ?? process.env.PATH,
    TMPDIR: process.env.TMPDIR,
    HOME: dir,
    OPENVIBE_LINK_HOME: path.join(dir, "link"),
  } as unknown as NodeJS.ProcessEnv;
  const children: ChildProcess[] = [];
  return {
    dir,
    env,
    cli: (args) =>
      new Promise((resolve) => {
        const child = spawn(command, [...pre, ...args], { env });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (d) => (stdout += d));
        child.stderr.on("data", (d) => (stderr += d));
        child.on("close", (status) => resolve({ status, stdout, stderr }));
      }),
    start: (args = []) => {
      const child = spawn(command, [...pre, "run", ...args], { env });
      children.push(child);
      let text = "";
      child.stdout!.on("data", (d) => (text += d));
      child.stderr!.on("data", (d) => (text += d));
      return { child, output: () => text };
    },
    state: async () => JSON.parse(await readFile(path.join(dir, "link", "link.json"), "utf8")),
    stopProcesses: () => killAll(children, "SIGKILL"),
    stop: async () => {
      // SIGTERM first, so each Link's sandbox removes its own folders; SIGKILL if it hangs.
      await killAll(children, "SIGTERM");
      removeTempDir(dir);
    },
  };
}

function killAll(children: ChildProcess[], signal: "SIGTERM" | "SIGKILL"): Promise<void> {
  return Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const timer = setTimeout(() => c.kill("SIGKILL"), 10_000);
          c.once("exit", () => {
            clearTimeout(timer);
            resolve();
          });
          c.kill(signal);
        }),
    ),
  ).then(() => undefined);
}

export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Link API, the agent's routes and the log a Link checks versions against, as route-server entries. */
export async function linkRoutes() {
  const { tlogRoutes } = await import("./tlog-routes");
  const r = (p: string) => import(p);
  const routes = {
    pair: await r("../../app/api/link/v1/pair/route"),
    heartbeat: await r("../../app/api/link/v1/heartbeat/route"),
    poll: await r("../../app/api/link/v1/poll/route"),
    start: await r("../../app/api/link/v1/jobs/[id]/start/route"),
    result: await r("../../app/api/link/v1/jobs/[id]/result/route"),
    release: await r("../../app/api/link/v1/jobs/[id]/release/route"),
    inputs: await r("../../app/api/link/v1/jobs/[id]/inputs/[mediaId]/route"),
    steps: await r("../../app/api/v1/steps/route"),
    step: await r("../../app/api/v1/steps/[id]/route"),
  };
  return [
    { method: "POST", pattern: "/api/link/v1/pair", handler: routes.pair.POST },
    { method: "POST", pattern: "/api/link/v1/heartbeat", handler: routes.heartbeat.POST },
    { method: "POST", pattern: "/api/link/v1/poll", handler: routes.poll.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/start", handler: routes.start.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/result", handler: routes.result.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/release", handler: routes.release.POST },
    { method: "GET", pattern: "/api/link/v1/jobs/[id]/inputs/[mediaId]", handler: routes.inputs.GET },
    { method: "POST", pattern: "/api/v1/steps", handler: routes.steps.POST },
    { method: "GET", pattern: "/api/v1/steps/[id]", handler: routes.step.GET },
    ...(await tlogRoutes()),
  ];
}
