// `openvibe verify-run RUN.json`: checks an exported run attestation — that the output and stderr
// in the file are the ones the Link signed (their sha256), that the statement is about this job,
// that the signature holds, and that the key is the one the registry publishes for that Link
// (`GET /api/v1/links/{id}/key`, the only request it makes). Prints each check; exits 1 on any mismatch.
import { readFile, stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import {
  formatBytes,
  keyIdOf,
  linkKeyResponseSchema,
  outputDigest,
  runFileSchema,
  stderrDigest,
  verifyStatement,
  type LinkKeyResponse,
  type RunFile,
} from "../lib/protocol";
import type { Out } from "./publish";
import { VERIFY_RUN_USAGE } from "./usage";

const MAX_FILE_BYTES = 4 * 1024 * 1024;
const KEY_TIMEOUT_MS = 20_000;

type Check = { name: string; ok: boolean; detail: string };

async function readRunFile(file: string): Promise<RunFile | string> {
  let text: string;
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES)
      return `${file} is larger than ${MAX_FILE_BYTES} bytes: not a RUN.json.`;
    text = await readFile(file, "utf8");
  } catch (err) {
    return `Cannot read ${file}: ${(err as Error).message}`;
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return `${file} is not JSON.`;
  }
  const parsed = runFileSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return `${file} is not a RUN.json: ${first ? `${first.path.join(".") || "(file)"} ${first.message}` : "unreadable"}.`;
  }
  return parsed.data;
}

async function fetchLinkKey(server: string, linkId: string): Promise<LinkKeyResponse | string> {
  const url = `${server.replace(/\/+$/, "")}/api/v1/links/${encodeURIComponent(linkId)}/key`;
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(KEY_TIMEOUT_MS), redirect: "error" });
  } catch (err) {
    return `could not reach ${url}: ${(err as Error).message}`;
  }
  const text = (await res.text()).slice(0, 64 * 1024);
  if (res.status === 404) return `${server} knows no Link ${linkId}`;
  if (!res.ok) return `${url} answered ${res.status}`;
  try {
    const parsed = linkKeyResponseSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : `${url} did not answer a Link key`;
  } catch {
    return `${url} did not answer JSON`;
  }
}

function digestChecks(run: RunFile): Check[] {
  const { statement } = run.attestation;
  let output: string;
  try {
    output = outputDigest(run.output);
  } catch (err) {
    output = `unhashable (${(err as Error).message})`;
  }
  const stderr = stderrDigest(run.stderr);
  return [
    {
      name: "job",
      ok: statement.job_id === run.job_id,
      detail: `statement is about ${statement.job_id}; the file says ${run.job_id}`,
    },
    {
      name: "output",
      ok: output === statement.output_sha256,
      detail:
        output === statement.output_sha256
          ? `sha256 ${output}`
          : `sha256 of the output here is ${output}; the Link signed ${statement.output_sha256}`,
    },
    {
      name: "stderr",
      ok: stderr === statement.stderr_sha256,
      detail:
        stderr === statement.stderr_sha256
          ? `sha256 ${stderr}`
          : `sha256 of the stderr here is ${stderr}; the Link signed ${statement.stderr_sha256}`,
    },
  ];
}

function keyChecks(run: RunFile, key: LinkKeyResponse | string, server: string): Check[] {
  const { statement, signature, key_id } = run.attestation;
  if (typeof key === "string") return [{ name: "key", ok: false, detail: key }];
  const keyOk = key.link_id === statement.link_id && keyIdOf(key.public_key) === key.key_id && key.key_id === key_id;
  const checks: Check[] = [
    {
      name: "key",
      ok: keyOk,
      detail: keyOk
        ? `${key_id} is Link ${key.link_id}'s key at ${server}${key.pool ? " (an OpenVibe pool machine)" : ""}${key.revoked_at ? `; revoked ${key.revoked_at}` : ""}`
        : `the file names key ${key_id}; ${server} publishes ${key.key_id} for Link ${key.link_id}`,
    },
  ];
  const valid = verifyStatement(statement, signature, key.public_key);
  checks.push({
    name: "signature",
    ok: valid,
    detail: valid
      ? "Ed25519 over the RFC 8785 statement holds"
      : "the signature does not match the statement and this Link's key",
  });
  return checks;
}

export async function verifyRunMain(argv: string[], env: NodeJS.ProcessEnv, out: Out): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { server: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean" } },
    });
  } catch (err) {
    out.error(`${(err as Error).message}\n\n${VERIFY_RUN_USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    out.line(VERIFY_RUN_USAGE);
    return 0;
  }
  if (parsed.positionals.length !== 1) {
    out.error(VERIFY_RUN_USAGE);
    return 2;
  }
  const server = parsed.values.server ?? env.OPENVIBE_SERVER ?? "http://localhost:3000";
  try {
    new URL(server);
  } catch {
    out.error(`--server must be a URL, e.g. http://localhost:3000 (got ${server}).`);
    return 2;
  }
  const file = parsed.positionals[0]!;
  const run = await readRunFile(file);
  if (typeof run === "string") {
    out.error(`✗ ${run}`);
    return 1;
  }
  const { statement } = run.attestation;
  const checks = [...digestChecks(run), ...keyChecks(run, await fetchLinkKey(server, statement.link_id), server)];
  const ok = checks.every((c) => c.ok);
  if (parsed.values.json) {
    out.line(JSON.stringify({ ok, server, job_id: statement.job_id, checks, statement }, null, 2));
    return ok ? 0 : 1;
  }
  out.line(
    `▸ Verifying run ${statement.job_id} (${statement.skill.slug}@${statement.skill.version} ${statement.skill.tool}, ${statement.status})`,
  );
  for (const c of checks) {
    const line = `  ${c.ok ? "✓" : "✗"} ${c.name.padEnd(10)} ${c.detail}`;
    if (c.ok) out.line(line);
    else out.error(line);
  }
  if (!ok) {
    out.error(`✗ ${file} does not hold: it is not what Link ${statement.link_id} signed.`);
    return 1;
  }
  out.line(
    `✓ Link ${statement.link_id} ran ${statement.integrity} on inputs sha256:${statement.input_digest} and signed this output.`,
  );
  if (run.server !== server) out.line(`  (exported from ${run.server}; the key was checked at ${server})`);
  if (statement.egress.length === 0) out.line("  Network: no connections.");
  for (const e of statement.egress) {
    const what =
      e.verdict === "denied"
        ? `blocked (${e.reason ?? "refused"})`
        : `${formatBytes(e.bytes_up)} up, ${formatBytes(e.bytes_down)} down`;
    out.line(`  Network: ${e.host}:${e.port}${e.count > 1 ? ` ×${e.count}` : ""}, ${what}`);
  }
  return 0;
}
