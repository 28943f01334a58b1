// `npm test [-- --only static|unit|integration|sandbox|e2e]`: provisions this machine, makes a
// fresh migrated database and Redis prefix for this run, runs the suites in order (static checks,
// vitest unit, integration, sandbox, then Playwright against a production build), drops the
// database again and ends with one line, `N passed, N failed`. Exits non-zero if anything failed.
// Every suite gets this run's own TMPDIR; what tests leave in it under the project's temp prefixes
// is listed and fails the run, and the folder is removed whatever happened.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import {
  DATA_DIR,
  ProvisionError,
  ROOT,
  childEnv,
  createDatabase,
  databaseUrl,
  dropDatabase,
  ensureAuthSecret,
  ensureBubblewrap,
  ensureChromium,
  ensureDependencies,
  ensurePostgres,
  ensureRedis,
  freePort,
  migrate,
  step,
  waitForHttp,
} from "./provision.mjs";
import { makeRunTmp, peek, tempLeftovers } from "./run-tmp.mjs";
import { WEB_SERVER, buildIfStale, startChild, stopChildren } from "./start.mjs";

const SUITES = ["static", "unit", "integration", "sandbox", "e2e"];

function selectedSuites(argv) {
  const i = argv.findIndex((a) => a === "--only" || a.startsWith("--only="));
  if (i === -1) return SUITES;
  const value = argv[i].includes("=") ? argv[i].split("=")[1] : argv[i + 1];
  const wanted = (value ?? "").split(",").filter(Boolean);
  const unknown = wanted.filter((s) => !SUITES.includes(s));
  if (!wanted.length || unknown.length) {
    console.error(`usage: npm test [-- --only ${SUITES.join("|")}]`);
    process.exit(2);
  }
  return SUITES.filter((s) => wanted.includes(s));
}

/** Positional arguments after the options narrow vitest and Playwright to those files (`npm test -- --only unit lib/scan`). */
function fileFilters(argv) {
  const i = argv.findIndex((a) => a === "--only");
  return argv.filter((a, j) => !a.startsWith("--") && !(i !== -1 && j === i + 1));
}

const tally = { passed: 0, failed: 0, lines: [], failures: [] };
const running = new Set();

function record(name, passed, failed, note = "") {
  tally.passed += passed;
  tally.failed += failed;
  tally.lines.push(
    `  ${failed ? "✖" : "✓"} ${name.padEnd(22)} ${passed} passed, ${failed} failed${note ? `  (${note})` : ""}`,
  );
}

/** The first line of a failure message, bounded, for the summary. */
function firstLine(message) {
  const line =
    String(message ?? "")
      .replace(/\x1b\[[0-9;]*m/g, "")
      .split("\n")
      .find((l) => l.trim()) ?? "";
  return line.trim().slice(0, 200);
}

/** Names each failed test of a vitest JSON report, so the run's last lines say what failed. */
function vitestFailures(json) {
  const out = [];
  for (const file of json?.testResults ?? []) {
    const name = path.relative(ROOT, file.name ?? "");
    if (file.status === "failed" && !file.assertionResults?.length) out.push(`${name}: ${firstLine(file.message)}`);
    for (const t of file.assertionResults ?? []) {
      if (t.status === "failed") out.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    }
  }
  return out;
}

/** Names each unexpected result of a Playwright JSON report. */
function playwrightFailures(json) {
  const out = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      if (spec.ok) continue;
      const error = spec.tests?.flatMap((t) => t.results ?? []).find((r) => r.error)?.error;
      out.push(`${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error?.message)}`);
    }
    (suite.suites ?? []).forEach(walk);
  };
  (json?.suites ?? []).forEach(walk);
  return out;
}

/** Runs a command with inherited output and no stdin; resolves to its exit code. */
function exec(command, args, env) {
  return new Promise((resolve) => {
    // Own process group, like startChild, so an interrupted run stops everything it started.
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
    child.exited = new Promise((done) => child.on("exit", done));
    running.add(child);
    child.on("error", () => resolve(127));
    child.on("exit", (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

async function runStatic(env) {
  for (const script of ["typecheck", "lint"]) {
    step("Static", `npm run ${script}`);
    const started = Date.now();
    const code = await exec("npm", ["run", "--silent", script], env);
    // A static check is not a test: it adds to the failed count only when it fails.
    record(`static: ${script}`, 0, code === 0 ? 0 : 1, `${code === 0 ? "ok" : `exit ${code}`}, ${seconds(started)}`);
  }
}

async function runVitest(project, env, reportDir, filters) {
  step("Vitest", `${project} tests`);
  const started = Date.now();
  const report = path.join(reportDir, `vitest-${project}.json`);
  const code = await exec(
    "npx",
    [
      "vitest",
      "run",
      "--project",
      project,
      "--passWithNoTests",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...filters,
    ],
    env,
  );
  const json = readJson(report);
  const passed = json?.numPassedTests ?? 0;
  // A file that cannot load fails without failing a test: it counts as one failure.
  const unloadable = (json?.testResults ?? []).filter(
    (f) => f.status === "failed" && !f.assertionResults?.length,
  ).length;
  let failed = (json?.numFailedTests ?? 0) + unloadable;
  // So does an error outside any test (vitest exits non-zero with every test passed).
  if (code !== 0 && failed === 0) failed = 1;
  const skipped = (json?.numPendingTests ?? 0) + (json?.numTodoTests ?? 0);
  tally.failures.push(...vitestFailures(json).map((f) => `${project}: ${f}`));
  record(`vitest: ${project}`, passed, failed, `${skipped ? `${skipped} skipped, ` : ""}${seconds(started)}`);
}

async function runE2e(env, reportDir, filters) {
  const started = Date.now();
  const port = await freePort();
  const appUrl = `http://localhost:${port}`;
  // RATE_LIMIT_SCALE: every spec signs up and publishes from this one address.
  const e2eEnv = {
    ...env,
    APP_URL: appUrl,
    NEXTAUTH_URL: appUrl,
    PORT: String(port),
    NODE_ENV: "production",
    RATE_LIMIT_SCALE: "50",
  };
  try {
    await buildIfStale(e2eEnv, { test: true }, { force: true });
  } catch (err) {
    console.error(err instanceof ProvisionError ? err.message : err);
    record("e2e: next build", 0, 1);
    return;
  }
  const children = [
    startChild("web", process.execPath, [WEB_SERVER, "--hostname", "127.0.0.1", "--port", String(port)], e2eEnv),
    startChild(
      "workers",
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "workers/index.ts"],
      e2eEnv,
    ),
  ];
  children.forEach((c) => running.add(c));
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, 120_000, () =>
      children.every((c) => c.exitCode === null && c.signalCode === null),
    );
    step("Playwright", `e2e against ${appUrl}`);
    const report = path.join(reportDir, "playwright.json");
    const code = await exec("npx", ["playwright", "test", "--reporter=list,json", ...filters], {
      ...e2eEnv,
      BASE_URL: appUrl,
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    });
    const json = readJson(report);
    const stats = json?.stats;
    tally.failures.push(...playwrightFailures(json).map((f) => `e2e: ${f}`));
    const passed = (stats?.expected ?? 0) + (stats?.flaky ?? 0);
    let failed = stats?.unexpected ?? 0;
    if (code !== 0 && failed === 0) failed = 1;
    const skipped = stats?.skipped ?? 0;
    record("playwright: e2e", passed, failed, `${skipped ? `${skipped} skipped, ` : ""}${seconds(started)}`);
  } catch (err) {
    console.error(`✖ e2e: ${err instanceof Error ? err.message : err}`);
    record("playwright: e2e", 0, 1);
  } finally {
    await stopChildren(children);
    children.forEach((c) => running.delete(c));
  }
}

async function main() {
  const suites = selectedSuites(process.argv.slice(2));
  const filters = fileFilters(process.argv.slice(2));
  const runId = randomBytes(4).toString("hex");
  const reportDir = path.join(DATA_DIR, `test-${runId}`);
  const runTmp = makeRunTmp(runId);
  // From here on every child (provisioning, suites, servers) keeps its temp files in runTmp.
  for (const name of ["TMPDIR", "TMP", "TEMP"]) process.env[name] = runTmp;
  let adminUrl;
  let redisUrl;
  let dbName;
  let cleaning;

  // One cleanup however the run ends; both the signal handler and main wait for the same one.
  const cleanup = () => (cleaning ??= dropRunState());
  const dropRunState = async () => {
    await stopChildren([...running]);
    if (adminUrl && dbName) {
      await dropDatabase(adminUrl, dbName).then(
        () => step("Database", `dropped ${dbName}`),
        (err) => console.error(`✖ Database: could not drop ${dbName}: ${err.message}`),
      );
    }
    if (redisUrl) await deleteRedisPrefix(redisUrl, `test:${runId}`).catch(() => {});
    rmSync(reportDir, { recursive: true, force: true });
    rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
  };
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      console.error(`\n✖ ${signal}: stopping`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  const started = Date.now();
  try {
    await ensureDependencies();
    adminUrl = await ensurePostgres();
    redisUrl = await ensureRedis();
    const authSecret = ensureAuthSecret();
    if (suites.includes("e2e")) await ensureChromium();
    // e2e too: run.spec, mcp.spec and the docs specs run a real Link, whose sandbox is bubblewrap.
    if (["sandbox", "integration", "e2e"].some((s) => suites.includes(s))) await ensureBubblewrap();

    mkdirSync(reportDir, { recursive: true });
    let testDbUrl = "";
    if (suites.some((s) => s !== "static")) {
      dbName = `ov_test_${runId}`;
      await createDatabase(adminUrl, dbName);
      testDbUrl = databaseUrl(adminUrl, dbName);
      step("Database", `created ${dbName}`);
      await migrate(testDbUrl);
    }
    const env = childEnv({
      CI: "true",
      DATABASE_URL: testDbUrl || databaseUrl(adminUrl, "postgres"),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `test:${runId}`,
      AUTH_SECRET: authSecret,
      // The site URL belongs to the e2e server; lib/auth derives NEXTAUTH_URL from APP_URL, which
      // a test may set for itself.
      APP_URL: undefined,
      NEXTAUTH_URL: undefined,
      DATA_DIR: path.join(reportDir, "data"),
      NODE_ENV: undefined,
      NEXT_TELEMETRY_DISABLED: "1",
    });

    for (const suite of suites) {
      if (suite === "static") await runStatic(env);
      else if (suite === "e2e") await runE2e(env, reportDir, filters);
      else await runVitest(suite, env, reportDir, filters);
    }
    reportTempLeftovers(runTmp);
  } catch (err) {
    console.error(err instanceof ProvisionError ? err.message : err);
    record("provisioning", 0, 1);
  } finally {
    await cleanup();
  }

  console.log(`\nOpenVibe tests (${suites.join(", ")}) in ${seconds(started)}:`);
  for (const line of tally.lines) console.log(line);
  if (tally.failures.length) console.log(`Failed:\n${tally.failures.map((f) => `  ✖ ${f}`).join("\n")}`);
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exit(tally.failed ? 1 : 0);
}

/** Lists what the tests left in the run's temp folder under the project's prefixes; each fails the run. */
function reportTempLeftovers(runTmp) {
  const left = tempLeftovers(runTmp);
  if (left.length === 0) {
    record("temp folder", 0, 0, "nothing left behind");
    return;
  }
  console.error(`✖ Temp folder: the tests left ${left.length} entr${left.length === 1 ? "y" : "ies"} behind:`);
  for (const name of left) {
    const inside = peek(path.join(runTmp, name));
    console.error(`    ${name}${inside.length ? `  (holds ${inside.join(", ")})` : ""}`);
  }
  console.error("  Make temp folders with tempDir() from test/helpers/temp-dir.ts, which always removes them.");
  record("temp folder", 0, left.length, `left behind: ${left.join(", ")}`);
}

async function deleteRedisPrefix(url, prefix) {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  client.on("error", () => {});
  try {
    await client.connect();
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      if (keys.length) await client.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}

await main();
