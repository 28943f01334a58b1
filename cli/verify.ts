// `openvibe verify SLUG@VERSION`: checks a published version against the registry's transparency
// log without trusting the registry's database — the log key (published or pinned), the signed
// checkpoint, its consistency with the last one seen here, the listing's code bytes and integrity,
// its log entries and their inclusion proofs. Prints each check; exits 1 on any mismatch.
import { parseArgs } from "node:util";
import { httpLogSource } from "../lib/tlog/http-source";
import { knownLogKey } from "../lib/tlog/known-logs";
import { verifyVersion, type VerifyReport } from "../lib/tlog/verify-version";
import type { Out } from "./publish";
import { configDir, TrustStore } from "./trust-store";
import { VERIFY_USAGE } from "./usage";

const REF = /^([a-z0-9][a-z0-9-]{1,62}[a-z0-9])@([0-9A-Za-z.+-]{5,64})$/;

export async function verifyMain(argv: string[], env: NodeJS.ProcessEnv, out: Out): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { server: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean" } },
    });
  } catch (err) {
    out.error(`${(err as Error).message}\n\n${VERIFY_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out.line(VERIFY_USAGE);
    return 0;
  }
  const ref = parsed.positionals.length === 1 ? REF.exec(parsed.positionals[0]!) : null;
  if (!ref) {
    out.error(`Name one version as SLUG@VERSION, e.g. text-tools@1.0.0.\n\n${VERIFY_USAGE}`);
    return 2;
  }
  const server = parsed.values.server ?? env.OPENVIBE_SERVER ?? "http://localhost:3000";
  try {
    new URL(server);
  } catch {
    out.error(`--server must be a URL, e.g. http://localhost:3000 (got ${server}).`);
    return 2;
  }
  const [, slug, version] = ref as unknown as [string, string, string];
  const store = await TrustStore.open(configDir(env));
  const pinned = store.entry(server);
  const published = knownLogKey(server);
  const report = await verifyVersion(httpLogSource(server), {
    slug,
    version,
    trustedKey: published ?? pinned?.vkey ?? null,
    previousCheckpoint: pinned?.checkpoint ?? null,
  });
  // Remember the key (pinned at first use) and the newest checkpoint whose signature and consistency held.
  if (report.checks.find((c) => c.name === "key")?.ok && report.servedKey) {
    await store.save(server, report.servedKey, report.checkpoint?.note ?? pinned?.checkpoint ?? null);
  }
  if (parsed.values.json) out.line(JSON.stringify({ server, slug, version, ...jsonReport(report) }, null, 2));
  else printReport(`${slug}@${version}`, server, report, store.file, out);
  return report.ok ? 0 : 1;
}

function jsonReport(r: VerifyReport) {
  return {
    ok: r.ok,
    checks: r.checks,
    log_key: r.servedKey,
    first_use: r.firstUse,
    checkpoint: r.checkpoint && { size: r.checkpoint.size, root: r.checkpoint.root, time: r.checkpoint.time },
    entries: r.entries,
  };
}

const LABELS = {
  key: "Log key",
  checkpoint: "Checkpoint",
  consistency: "Consistency",
  listing: "Listing",
  code: "Code bytes",
  integrity: "Integrity",
  entries: "Log entries",
  inclusion: "Inclusion",
} as const;

function printReport(ref: string, server: string, r: VerifyReport, file: string, out: Out) {
  out.line(`▸ Verifying ${ref} against the transparency log of ${server}`);
  for (const c of r.checks) {
    const line = `  ${c.ok ? "✓" : "✗"} ${LABELS[c.name].padEnd(12)} ${c.detail}`;
    if (c.ok) out.line(line);
    else out.error(line);
  }
  if (r.ok) {
    const entry = r.entries.find((e) => e.event === "publish");
    out.line(`✓ ${ref} is the version in the public log (entry ${entry?.index}), unchanged since it was published.`);
    return;
  }
  const failed = r.checks.find((c) => !c.ok);
  out.error(`✗ ${ref} does not match the registry's public log: do not install or run it.`);
  if (failed?.name === "key")
    out.error(`  If the operators announced a new log key, remove this server from ${file} and run again.`);
  if (failed?.name === "consistency")
    out.error(`  The log's history changed since ${file} was saved: report this to the registry's operators.`);
}
