// `npm start` (production build) and `npm run dev` (next dev): provisions this machine, migrates
// and seeds the `openvibe` database, then runs the web server and the worker host as children,
// their output prefixed, until Ctrl-C or until one of them dies.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import {
  DATA_DIR,
  ProvisionError,
  ROOT,
  childEnv,
  createDatabase,
  databaseUrl,
  ensureAuthSecret,
  ensureBubblewrap,
  ensureDependencies,
  ensurePostgres,
  ensureRedis,
  migrate,
  portInUse,
  run,
  step,
  waitForHttp,
} from "./provision.mjs";

const DEMO = { email: "demo@openvibe.dev", password: "openvibe-demo" };
const BUILD_STAMP = path.join(ROOT, ".next/openvibe-build.json");
// What a production build depends on; a newer file here means .next is stale.
const BUILD_INPUTS = [
  "app",
  "lib",
  "components",
  "public",
  "next.config.mjs",
  "tsconfig.json",
  "package-lock.json",
  "prisma/schema.prisma",
];

function newestMtime(entry) {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(full)) {
    if (child === "node_modules" || child.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** Whether .next holds a production build of the current sources made for this environment. */
function buildIsCurrent(fingerprint) {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID")) || !existsSync(BUILD_STAMP)) return false;
  const stamp = JSON.parse(readFileSync(BUILD_STAMP, "utf8"));
  if (JSON.stringify(stamp.fingerprint) !== JSON.stringify(fingerprint)) return false;
  return Math.max(...BUILD_INPUTS.map(newestMtime)) < statSync(BUILD_STAMP).mtimeMs;
}

/** Runs `next build` for env unless .next is already current; used by `npm start` and `npm test`. */
/** `next <args>` run by this Node directly (npx would sit between us and the server). */
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

export async function buildIfStale(env, fingerprint, { force = false } = {}) {
  if (!force && buildIsCurrent(fingerprint)) {
    step("Build", ".next is up to date");
    return;
  }
  step("Build", "next build (production; a few minutes on a small machine)");
  const started = Date.now();
  const code = await run(process.execPath, [NEXT_BIN, "build"], { env: { ...env, NODE_ENV: "production" } });
  if (code !== 0) throw new ProvisionError(`✖ Build: next build failed (exit ${code}); see its output above`);
  writeFileSync(BUILD_STAMP, JSON.stringify({ fingerprint, builtAt: new Date().toISOString() }));
  step("Build", `done in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** Starts a child whose output lines are prefixed with its name. */
export function startChild(name, command, args, env) {
  // Its own process group, so stopping it also stops what it spawned (next's server process).
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const tag = `[${name}]`.padEnd(10);
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    readline.createInterface({ input: stream }).on("line", (line) => out.write(`${tag}${line}\n`));
  }
  child.label = name;
  child.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return child;
}

/** Sends SIGTERM to every live child, SIGKILL after 10 s, and resolves when all have exited. */
export async function stopChildren(children) {
  const signalGroup = (c, signal) => {
    try {
      process.kill(-c.pid, signal);
    } catch {
      // the group is already gone
    }
  };
  const live = children.filter((c) => c.exitCode === null && c.signalCode === null);
  for (const c of live) signalGroup(c, "SIGTERM");
  const timer = setTimeout(() => live.forEach((c) => signalGroup(c, "SIGKILL")), 10_000);
  await Promise.all(live.map((c) => c.exited));
  clearTimeout(timer);
  // What a child left behind in its group (e.g. a server process) goes too.
  for (const c of children) signalGroup(c, "SIGKILL");
}

async function main() {
  const dev = process.argv.includes("--dev");
  await ensureDependencies();
  const adminUrl = await ensurePostgres();
  const redisUrl = await ensureRedis();
  const authSecret = ensureAuthSecret();

  let dbUrl = process.env.DATABASE_URL;
  if (!dbUrl) {
    dbUrl = databaseUrl(adminUrl, "openvibe");
    step("Database", (await createDatabase(adminUrl, "openvibe")) ? "created openvibe" : "using openvibe");
  }
  await migrate(dbUrl);

  const port = Number(process.env.PORT ?? 3000);
  const appUrl = process.env.APP_URL ?? `http://localhost:${port}`;
  if (await portInUse(port)) {
    throw new ProvisionError(`✖ Web: port ${port} is already in use: stop what uses it or run PORT=3001 npm start`);
  }

  const env = childEnv({
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: process.env.REDIS_PREFIX ?? "ov",
    AUTH_SECRET: authSecret,
    APP_URL: appUrl,
    NEXTAUTH_URL: appUrl,
    DATA_DIR: process.env.DATA_DIR ?? DATA_DIR,
    NODE_ENV: dev ? "development" : "production",
    NEXT_TELEMETRY_DISABLED: "1",
  });

  if (existsSync(path.join(ROOT, "scripts/seed.ts"))) {
    step("Demo data", "npm run seed");
    const code = await run("npm", ["run", "--silent", "seed"], { env });
    if (code !== 0) throw new ProvisionError(`✖ Demo data: npm run seed failed (exit ${code}); see its output above`);
  }

  if (!dev) await buildIfStale(env, { DATABASE_URL: dbUrl, APP_URL: appUrl, REDIS_PREFIX: env.REDIS_PREFIX });

  // The processes this command supervises; the local Link joins once the web server answers.
  const children = [
    startChild("web", process.execPath, [NEXT_BIN, dev ? "dev" : "start", "-p", String(port)], env),
    startChild("workers", process.execPath, ["--conditions=react-server", "--import", "tsx", "workers/index.ts"], env),
  ];

  let stopping = false;
  const shutdown = async (code) => {
    if (stopping) return;
    stopping = true;
    await stopChildren(children);
    process.exit(code);
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void shutdown(0));
  for (const child of children) {
    void child.exited.then(({ code, signal }) => {
      if (stopping) return;
      console.error(`✖ ${child.label} stopped (${signal ?? `exit ${code}`}); stopping the rest`);
      void shutdown(1);
    });
  }

  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, 180_000, () => !stopping);
  } catch (err) {
    if (stopping) return;
    console.error(`✖ Web: ${err instanceof Error ? err.message : err}`);
    return shutdown(1);
  }
  const link = await startLocalLink(env, appUrl);
  if (link) {
    children.push(link);
    void link.exited.then(({ code, signal }) => {
      if (!stopping) console.error(`! Local Link stopped (${signal ?? `exit ${code}`}); the site keeps running`);
    });
  }
  step("Ready", `${appUrl}  (sign in as ${DEMO.email} / ${DEMO.password}; Ctrl-C stops)`);
}

const LINK_BIN = path.join(ROOT, "link/bin/openvibe-link.mjs");

/**
 * Pairs this machine's Link to the demo person (once; again if it was revoked or the server moved),
 * turns its skill runner on and runs it. Without bubblewrap there is no sandbox, so no Link: the
 * runner never runs code unsandboxed.
 */
async function startLocalLink(env, appUrl) {
  try {
    await ensureBubblewrap();
  } catch (err) {
    step(
      "Local Link",
      `not started: ${err instanceof Error ? err.message : err}. Tools cannot run until a Link is paired.`,
    );
    return null;
  }
  const linkEnv = { ...env, OPENVIBE_LINK_HOME: path.join(DATA_DIR, "link") };
  const stateFile = path.join(DATA_DIR, "link", "link.json");
  const paired =
    existsSync(stateFile) &&
    JSON.parse(readFileSync(stateFile, "utf8")).server === appUrl &&
    (await run(process.execPath, [LINK_BIN, "status"], { env: linkEnv, quiet: true })) === 0;
  if (!paired) {
    step("Local Link", `pairing this machine to ${DEMO.email}`);
    const code = await capture(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/local-link.ts", DEMO.email],
      env,
    );
    if (
      (await run(process.execPath, [LINK_BIN, "pair", code, "--server", appUrl, "--name", "This machine (npm start)"], {
        env: linkEnv,
      })) !== 0
    ) {
      step("Local Link", "pairing failed (see above); the site runs without a local Link");
      return null;
    }
    await run(process.execPath, [LINK_BIN, "skills", "on"], { env: linkEnv });
  }
  step("Local Link", "running (openvibe-link run); pair more machines on the dashboard's Links page");
  return startChild("link", process.execPath, [LINK_BIN, "run"], linkEnv);
}

function capture(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("close", (code) =>
      code === 0 ? resolve(out.trim()) : reject(new ProvisionError(`✖ ${args.at(-2)} failed (exit ${code})`)),
    );
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(err instanceof ProvisionError ? err.message : err);
    process.exit(1);
  });
}
