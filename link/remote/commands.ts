// The Link's connected commands: `pair CODE`, `skills on|off`, `run [--pool]`, `status`.
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { generateLinkKeyPair } from "../../lib/links/signing";
import { LinkError } from "../errors";
import { parsePinnedInputs, type PinnedInput } from "../inputs";
import { runSkillJob } from "../job";
import { parseLimits, parseNetPolicy, type JobResult } from "../sandbox/policy";
import { Sandbox } from "../sandbox/run";
import { linkClient, ServerError, Unreachable, type LinkClient } from "./client";
import { linkHome, loadIdentity, saveIdentity, saveState, type LinkState } from "./config";

export type Out = { line(text: string): void; error(text: string): void };

const CALL_INPUT = "job.json";
const POLL_WAIT_MS = 20_000;
const HEARTBEAT_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

export async function pair(args: { code: string; server: string; name?: string }, out: Out, env = process.env): Promise<number> {
  const home = linkHome(env);
  const keys = generateLinkKeyPair();
  const name = (args.name ?? hostname()).slice(0, 64);
  out.line(`▸ Made a new Ed25519 key for this machine (private key stays in ${home}).`);
  out.line(`▸ Pairing with ${args.server}…`);
  const client = linkClient(args.server, keys.publicKey, keys.privateKeyPem);
  try {
    const paired = await client.json<{ linkId: string; name: string }>("POST", "/api/link/v1/pair", { code: args.code, name });
    const state: LinkState = { server: args.server, link_id: paired.linkId, public_key: keys.publicKey, name: paired.name, runner: "off", pool: false };
    saveIdentity(home, keys.privateKeyPem, state);
    out.line(`✓ Paired as "${paired.name}" (${paired.linkId}). The skill runner is off: turn it on with \`openvibe-link skills on\`.`);
    return 0;
  } catch (err) {
    return report(err, out);
  }
}

export async function skills(args: { on: boolean }, out: Out, env = process.env): Promise<number> {
  const home = linkHome(env);
  const { state, privateKeyPem } = loadIdentity(home);
  const next: LinkState = { ...state, runner: args.on ? "on" : "off" };
  saveState(home, next);
  out.line(`✓ Skill runner openvibe-skill-runner@1.0.0 is ${next.runner} on this machine.`);
  try {
    await linkClient(state.server, state.link_id!, privateKeyPem).json("POST", "/api/link/v1/heartbeat", { runner: next.runner, pool: next.pool });
    out.line("  The dashboard shows it now.");
  } catch (err) {
    if (err instanceof Unreachable) out.line("  The server is not reachable; it will see the change when `openvibe-link run` connects.");
    else return report(err, out);
  }
  return 0;
}

export async function status(out: Out, env = process.env): Promise<number> {
  const { state, privateKeyPem } = loadIdentity(linkHome(env));
  out.line(`Link "${state.name}" (${state.link_id}) at ${state.server}`);
  out.line(`  skill runner: ${state.runner}, pool offer: ${state.pool ? "yes" : "no"}`);
  try {
    await linkClient(state.server, state.link_id!, privateKeyPem).json("POST", "/api/link/v1/heartbeat", { runner: state.runner, pool: state.pool });
    out.line("  server: reachable, this Link is accepted");
    return 0;
  } catch (err) {
    return report(err, out);
  }
}

type ServerJob = {
  id: string;
  inputs: PinnedInput[];
  net: string;
  limits: { wall_ms: number; mem_bytes: number };
};

/** The poll loop. Resolves when stopped by `signal` (finishing or handing back the current job). */
export async function run(args: { pool: boolean }, out: Out, signal: AbortSignal, env = process.env): Promise<number> {
  const home = linkHome(env);
  const identity = loadIdentity(home);
  const state: LinkState = { ...identity.state, pool: args.pool };
  saveState(home, state);
  const client = linkClient(state.server, state.link_id!, identity.privateKeyPem);
  if (state.runner === "off") out.line("! The skill runner is off: this Link takes no jobs until `openvibe-link skills on`.");
  const sandbox = await Sandbox.create();
  out.line(`▸ Link "${state.name}" polling ${state.server} (runner ${state.runner}, pool ${state.pool ? "offered" : "not offered"}).`);

  let backoff = 1_000;
  const heartbeat = setInterval(() => {
    client.json("POST", "/api/link/v1/heartbeat", { runner: state.runner, pool: state.pool }).catch(() => undefined);
  }, HEARTBEAT_MS);
  try {
    while (!signal.aborted) {
      try {
        const { job } = await client.json<{ job: ServerJob | null }>(
          "POST",
          "/api/link/v1/poll",
          { runner: state.runner, pool: state.pool, wait_ms: POLL_WAIT_MS },
          signal,
        );
        backoff = 1_000;
        if (job) await runJob(client, sandbox, job, out, signal);
      } catch (err) {
        if (signal.aborted) break;
        if (err instanceof Unreachable) {
          out.error(`! ${err.message}; retrying in ${Math.round(backoff / 1000)} s.`);
          await sleep(backoff, signal);
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
          continue;
        }
        if (err instanceof ServerError && (err.code === "link.revoked" || err.code === "link.unknown")) {
          out.error(`✗ ${err.code}: ${err.message}`);
          return 1;
        }
        out.error(`! ${(err as Error).message}; retrying in ${Math.round(backoff / 1000)} s.`);
        await sleep(backoff, signal);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
    out.line("▸ Stopped cleanly.");
    return 0;
  } finally {
    clearInterval(heartbeat);
    await sandbox.close();
  }
}

async function runJob(client: LinkClient, sandbox: Sandbox, job: ServerJob, out: Out, signal: AbortSignal) {
  if (signal.aborted) {
    await client.json("POST", `/api/link/v1/jobs/${job.id}/release`).catch(() => undefined);
    return;
  }
  await client.json("POST", `/api/link/v1/jobs/${job.id}/start`);
  const started = performance.now();
  let result: JobResult & { code?: string };
  const fetchMedia = (mediaId: string) => client.bytes(`/api/link/v1/jobs/${job.id}/inputs/${mediaId}`);
  try {
    const inputs = parsePinnedInputs(job.inputs);
    const callInput = inputs.find((i) => i.name === CALL_INPUT);
    if (!callInput) throw new LinkError("run.job.inputs_invalid", "The job carries no job.json.");
    const callBytes = await fetchMedia(callInput.media_id);
    if (createHash("sha256").update(callBytes).digest("hex") !== callInput.sha256) {
      throw new LinkError("run.job.input_digest_mismatch", "job.json does not match the sha256 the job pinned.");
    }
    const call = JSON.parse(Buffer.from(callBytes).toString("utf8")) as { tool: string; entry: string; input: unknown };
    out.line(`▸ ${job.id}: ${call.tool} (net ${job.net}, ${job.limits.wall_ms} ms, ${Math.round(job.limits.mem_bytes / 1048576)} MiB)`);
    result = await runSkillJob(
      sandbox,
      {
        entry: call.entry,
        input: call.input,
        inputs: inputs.filter((i) => i.name !== CALL_INPUT),
        net: parseNetPolicy(job.net === "openvibe_only" ? "openvibe-only" : job.net),
        limits: parseLimits(job.limits),
      },
      fetchMedia,
    );
  } catch (err) {
    const code = err instanceof LinkError ? err.code : "link.internal";
    const integrity = code === "run.job.input_digest_mismatch";
    result = {
      status: integrity ? "integrity" : "refused",
      output: null,
      stderr: (err as Error).message,
      exit: null,
      wall_ms: Math.round(performance.now() - started),
      max_rss_bytes: null,
      code,
    };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await client.json("POST", `/api/link/v1/jobs/${job.id}/result`, { ...result, output: result.status === "ok" ? result.output : undefined });
      break;
    } catch (err) {
      if (!(err instanceof Unreachable) || attempt >= 5) throw err;
      await sleep(1_000 * attempt);
    }
  }
  out.line(`  ${result.status} in ${result.wall_ms} ms`);
}

function report(err: unknown, out: Out): number {
  if (err instanceof ServerError || err instanceof LinkError) {
    out.error(`✗ ${err.code}: ${err.message}`);
    return 1;
  }
  out.error(`✗ ${(err as Error).message}`);
  return 1;
}

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
