// `npm run bench`: every benchmark, each printing its ratio against a baseline measured in the same
// run (never an absolute time: the machines are shared and noisy). Provisions what the benches
// need the way `npm test` does. `npm run bench -- scan sandbox` runs a subset.
import { pathToFileURL } from "node:url";
import {
  ProvisionError,
  childEnv,
  ensureBubblewrap,
  ensureDependencies,
  ensurePostgres,
  ensureRedis,
  run,
  step,
} from "./provision.mjs";

const BENCHES = {
  scan: "bench:scan",
  sandbox: "bench:sandbox",
  browse: "bench:browse",
  run: "bench:run",
  adversarial: "bench:adversarial",
  tlog: "bench:tlog",
  submit: "bench:submit",
  load: "bench:load",
};

async function main() {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const names = wanted.length ? wanted : Object.keys(BENCHES);
  const unknown = names.filter((n) => !(n in BENCHES));
  if (unknown.length)
    throw new ProvisionError(`✖ Unknown bench ${unknown.join(", ")}: choose from ${Object.keys(BENCHES).join(", ")}`);
  await ensureDependencies();
  const adminUrl = await ensurePostgres();
  const redisUrl = await ensureRedis();
  if (["sandbox", "run", "load"].some((n) => names.includes(n))) await ensureBubblewrap();
  const env = childEnv({
    DATABASE_URL: adminUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `bench:${process.pid}`,
    AUTH_SECRET: "bench-secret-not-for-anything-else-0000",
    LOG_LEVEL: "error",
  });
  const failed = [];
  for (const name of names) {
    step("Bench", `${name} (npm run ${BENCHES[name]})`);
    if ((await run("npm", ["run", "--silent", BENCHES[name]], { env })) !== 0) failed.push(name);
  }
  if (failed.length) {
    console.error(`✖ Over budget or failed: ${failed.join(", ")}`);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((err) => {
    console.error(err instanceof ProvisionError ? err.message : err);
    process.exit(1);
  });
}
