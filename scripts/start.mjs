// `npm start` (production build) and `npm run dev` (next dev): provisions this machine, migrates
// and seeds this instance's database, then supervises the web server, the worker host and (when the
// site stays on this machine) a local Link as children, their output prefixed, until Ctrl-C. A
// child that dies is restarted with backoff (scripts/supervisor.mjs); the rest keeps running.
//
//   npm start [-- --no-link]      HOST (default 127.0.0.1), PORT (3000), APP_URL, DATA_DIR
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { isLoopbackHost, isLoopbackUrl } from "../lib/config/loopback.mjs";
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
  instanceNames,
  migrate,
  portInUse,
  run,
  shown,
  step,
  waitForHttp,
} from "./provision.mjs";
import { Supervisor, startChild, stopChildren } from "./supervisor.mjs";

export { startChild, stopChildren };

const DEMO = { email: "demo@openvibe.dev", password: "openvibe-demo" };
const USAGE = "usage: npm start [-- --no-link]   (npm run dev [-- --no-link])";
const BUILD_STAMP = path.join(ROOT, ".next/openvibe-build.json");
// What a production build depends on; a newer file here means .next is stale.
const BUILD_INPUTS = [
  "app",
  "lib",
  "components",
  "public",
  "next.config.mjs",
  "proxy.ts",
  "instrumentation.ts",
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

/** `next <args>` run by this Node directly (npx would sit between us and the server). */
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
/** The production web server: Next.js, with the tool-call routes served directly (web-server.mjs). */
export const WEB_SERVER = path.join(ROOT, "scripts/web-server.mjs");

/** Runs `next build` for env unless .next is already current; used by `npm start` and `npm test`. */
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

/**
 * Where and how this start listens, and what that allows.
 * @param {Record<string, string | undefined>} [env]
 * @param {string[]} [argv]
 */
export function listenPlan(env = process.env, argv = process.argv.slice(2)) {
  const unknown = argv.filter((a) => a !== "--dev" && a !== "--no-link");
  if (unknown.length) throw new ProvisionError(`✖ Unknown option ${unknown.join(" ")}. ${USAGE}`);
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ProvisionError(`✖ Web: PORT must be a port number (1-65535), not ${env.PORT}`);
  }
  const host = env.HOST || "127.0.0.1";
  const appUrl = env.APP_URL ?? `http://localhost:${port}`;
  const loopbackListener = isLoopbackHost(host);
  // The site stays on this machine only if both where it listens and where it says it is are loopback.
  const onThisMachine = loopbackListener && isLoopbackUrl(appUrl);
  const wantsLink = !argv.includes("--no-link");
  return {
    dev: argv.includes("--dev"),
    host,
    port,
    appUrl,
    loopbackListener,
    /** The demo person's password is printed only when nobody else can reach the listener. */
    showDemoSignIn: onThisMachine,
    link: !wantsLink ? "off (--no-link)" : onThisMachine ? "on" : "off (the site is not on loopback only)",
  };
}

/** An address to reach the listener at from this machine. */
function probeHost(host) {
  if (host === "0.0.0.0" || host === "::" || host === "[::]") return "127.0.0.1";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

async function main() {
  const plan = listenPlan();
  await ensureDependencies();
  const adminUrl = await ensurePostgres();
  const redisUrl = await ensureRedis();
  const authSecret = ensureAuthSecret();
  const instance = instanceNames();

  let dbUrl = process.env.DATABASE_URL;
  if (!dbUrl) {
    dbUrl = databaseUrl(adminUrl, instance.database);
    const created = await createDatabase(adminUrl, instance.database);
    step("Database", `${created ? "created" : "using"} ${instance.database} (data folder ${shown(DATA_DIR)})`);
  }
  await migrate(dbUrl);

  const { dev, host, port, appUrl } = plan;
  if (await portInUse(port, probeHost(host))) {
    throw new ProvisionError(`✖ Web: port ${port} is already in use: stop what uses it or run PORT=3001 npm start`);
  }

  const env = childEnv({
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: process.env.REDIS_PREFIX ?? instance.redisPrefix,
    AUTH_SECRET: authSecret,
    APP_URL: appUrl,
    NEXTAUTH_URL: appUrl,
    DATA_DIR,
    NODE_ENV: dev ? "development" : "production",
    NEXT_TELEMETRY_DISABLED: "1",
  });

  step("Demo data", "npm run seed");
  const seedArgs = plan.loopbackListener ? [] : ["--", "--no-demo"];
  const seeded = await run("npm", ["run", "--silent", "seed", ...seedArgs], { env });
  if (seeded !== 0) throw new ProvisionError(`✖ Demo data: npm run seed failed (exit ${seeded}); see its output above`);

  // The build holds no data and no environment (pages read lib/config at run time, and nothing but
  // the error page is prerendered), so instances with other databases or URLs share one build.
  if (!dev) await buildIfStale(env, { purpose: "npm start" });

  let exitCode = 0;
  const supervisor = new Supervisor({
    onFatal: () => {
      exitCode = 1;
      void supervisor.stopAll().then(() => process.exit(1));
    },
  });
  supervisor.stopOnSignals({ exit: () => process.exit(exitCode) });
  const webArgs = dev
    ? [NEXT_BIN, "dev", "-H", host, "-p", String(port)]
    : [WEB_SERVER, "--hostname", host, "--port", String(port)];
  supervisor.add("web", { command: process.execPath, args: webArgs, env, critical: true });
  supervisor.add("workers", {
    command: process.execPath,
    args: ["--conditions=react-server", "--import", "tsx", "workers/index.ts"],
    env,
  });

  try {
    await waitForHttp(`http://${probeHost(host)}:${port}/`, 180_000, () => !supervisor.stopping);
  } catch (err) {
    if (supervisor.stopping) return;
    console.error(`✖ Web: ${err instanceof Error ? err.message : err}`);
    exitCode = 1;
    await supervisor.stopAll();
    process.exit(1);
  }
  supervisor.markReady("web");

  if (plan.link === "on") {
    const linkEnv = await prepareLocalLink(env, appUrl);
    if (linkEnv && !supervisor.stopping) {
      supervisor.add("link", { command: process.execPath, args: [LINK_BIN, "run"], env: linkEnv });
      step(
        "Local Link",
        `this machine is ${DEMO.email}'s own Link (key and state in ${shown(linkEnv.OPENVIBE_LINK_HOME)}); ` +
          "npm start -- --no-link runs without it",
      );
    }
  } else {
    step("Local Link", `${plan.link}: tools run only on Links paired from the dashboard`);
  }

  const where = plan.loopbackListener
    ? `listening on ${host}:${port}, this machine only (HOST=0.0.0.0 opens it to the network)`
    : `listening on ${host}:${port}, reachable from other machines`;
  step("Ready", `${appUrl} — ${where}. Ctrl-C stops.`);
  if (plan.showDemoSignIn) step("Demo sign-in", `${DEMO.email} / ${DEMO.password}`);
  else step("Demo sign-in", "not shown: the site is not on this machine only (no demo account is made for it)");
}

const LINK_BIN = path.join(ROOT, "link/bin/openvibe-link.mjs");

/**
 * Pairs this machine's Link to the demo person (once; again if it was revoked or the server moved)
 * and turns its skill runner on; resolves to the environment to run it with, or null. Its key and
 * state live in DATA_DIR/link, so every instance keeps its own pairing. Without bubblewrap there
 * is no sandbox, so no Link: the runner never runs code unsandboxed.
 */
async function prepareLocalLink(env, appUrl) {
  try {
    await ensureBubblewrap({ quiet: true });
  } catch (err) {
    step(
      "Local Link",
      `not started: ${err instanceof Error ? err.message : err}. Tools cannot run until a Link is paired.`,
    );
    return null;
  }
  const home = path.join(DATA_DIR, "link");
  const linkEnv = { ...env, OPENVIBE_LINK_HOME: home };
  const stateFile = path.join(home, "link.json");
  const paired =
    existsSync(stateFile) &&
    readJson(stateFile)?.server === appUrl &&
    (await run(process.execPath, [LINK_BIN, "status"], { env: linkEnv, quiet: true })) === 0;
  if (!paired) {
    try {
      const code = await capture(
        "a pairing code",
        process.execPath,
        ["--conditions=react-server", "--import", "tsx", "scripts/local-link.ts", DEMO.email],
        env,
      );
      const pairArgs = [LINK_BIN, "pair", code, "--server", appUrl, "--name", "This machine (npm start)"];
      await capture("openvibe-link pair", process.execPath, pairArgs, linkEnv);
      await capture("openvibe-link skills on", process.execPath, [LINK_BIN, "skills", "on"], linkEnv);
    } catch (err) {
      step("Local Link", `not started: ${err instanceof Error ? err.message : err}; the site runs without it`);
      return null;
    }
  }
  return linkEnv;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** Runs a helper quietly; resolves to its stdout, or rejects with what it said on failure. */
function capture(what, command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) return resolve(out.trim());
      const said = (err.trim() || out.trim()).split("\n").slice(-3).join(" | ");
      reject(new Error(`${what} failed (exit ${code})${said ? `: ${said}` : ""}`));
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(err instanceof ProvisionError ? err.message : err);
    process.exit(1);
  });
}
