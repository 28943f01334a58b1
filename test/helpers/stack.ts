// A registry as several processes, the way `npm start` or a deployment runs it: web processes
// (test/helpers/app-process.ts, the real route handlers), worker hosts (`workers/index.ts`) and
// real `openvibe-link run` processes, all on one PostgreSQL and one Redis. Used by the
// multi-instance test and by `npm run chaos`; every process it starts is stopped by `stopAll`.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { linkHome, until, type LinkHome } from "./link-process";

export const ROOT = path.resolve(import.meta.dirname, "../..");

export type StackStores = {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  dataDir: string;
};

export type Proc = {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Sends the signal and waits for the process to end (SIGKILL after 15 s). */
  stop(signal?: NodeJS.Signals): Promise<void>;
};

export type WebProc = Proc & { url: string; port: number };

const started = new Set<Proc>();

/** What a child process needs to be one of the app's processes. */
export function appEnv(stores: StackStores, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    TMPDIR: process.env.TMPDIR,
    DATABASE_URL: stores.databaseUrl,
    REDIS_URL: stores.redisUrl,
    REDIS_PREFIX: stores.redisPrefix,
    AUTH_SECRET: "integration-secret-".padEnd(40, "x"),
    DATA_DIR: stores.dataDir,
    LOG_LEVEL: "info",
    RATE_LIMIT_SCALE: "50",
    WORKER_DRAIN_MS: "5000",
    ...extra,
  } as unknown as NodeJS.ProcessEnv;
}

function spawnProc(name: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const keep = (d: Buffer) => {
    text += d;
    // Bounded: a long run keeps the tail, where the reason for a failure is.
    if (text.length > 200_000) text = text.slice(-100_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const proc: Proc = {
    name,
    child,
    output: () => text,
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        started.delete(proc);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill(signal);
      }),
  };
  started.add(proc);
  return proc;
}

function waitForLine(proc: Proc, pattern: RegExp, ms = 60_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const m = pattern.exec(proc.output());
      if (m) {
        cleanup();
        resolve(m);
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${proc.name} exited (${code}) before it was ready:\n${proc.output().slice(-4000)}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${proc.name} was not ready within ${ms} ms:\n${proc.output().slice(-4000)}`));
    }, ms);
    const cleanup = () => {
      clearTimeout(timer);
      proc.child.stdout!.off("data", check);
      proc.child.off("exit", onExit);
    };
    proc.child.stdout!.on("data", check);
    proc.child.once("exit", onExit);
    check();
  });
}

/** A web process on `port` (0: any free one), answering once it printed where it listens. */
export async function startWeb(name: string, env: NodeJS.ProcessEnv, port = 0): Promise<WebProc> {
  const proc = spawnProc(
    name,
    ["--import", "./scripts/no-server-only.mjs", "--import", "tsx", "test/helpers/app-process.ts", String(port)],
    env,
  );
  const m = await waitForLine(proc, /listening (\d+)/);
  const actual = Number(m[1]);
  return Object.assign(proc, { url: `http://127.0.0.1:${actual}`, port: actual });
}

/** A worker host (`workers/index.ts`), answering once it logged that its workers started. */
export async function startWorkerHost(name: string, env: NodeJS.ProcessEnv): Promise<Proc> {
  const proc = spawnProc(name, ["--conditions=react-server", "--import", "tsx", "workers/index.ts"], env);
  await waitForLine(proc, /"msg":"workers\.started"/);
  return proc;
}

export type StackLink = { home: LinkHome; linkId: string; run: { child: ChildProcess; output: () => string } };

/**
 * A real `openvibe-link` paired to `serverUrl` as `userId`'s machine, its runner on, running.
 * `pairingCode` is made by the caller (lib/links, in its own process); `program` as for linkHome.
 */
export async function startLink(
  label: string,
  serverUrl: string,
  pairingCode: string,
  isPolling: (linkId: string) => Promise<boolean>,
  program?: Parameters<typeof linkHome>[1],
): Promise<StackLink> {
  const home = await linkHome(label, program);
  const paired = await home.cli(["pair", pairingCode, "--server", serverUrl, "--name", label]);
  if (paired.status !== 0) throw new Error(`pair failed: ${paired.stdout}${paired.stderr}`);
  const on = await home.cli(["skills", "on"]);
  if (on.status !== 0) throw new Error(`skills on failed: ${on.stdout}${on.stderr}`);
  const linkId = (await home.state()).link_id;
  const run = home.start();
  await until("the Link to poll", () => isPolling(linkId), 30_000).catch((err: Error) => {
    throw new Error(`${err.message}\n${run.output()}`);
  });
  return { home, linkId, run };
}

/** Stops every process this module started that is still running (SIGTERM, then SIGKILL). */
export async function stopAll(): Promise<void> {
  await Promise.all([...started].map((p) => p.stop()));
}
