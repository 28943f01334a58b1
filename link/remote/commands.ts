// The Link's connected commands: `pair CODE`, `skills on|off`, `run [--pool] [--jobs N] [--memory MIB]`, `status`.
import { hostname } from "node:os";
import { generateLinkKeyPair, heartbeatResponseSchema, pairResponseSchema } from "../../lib/protocol";
import { LinkError } from "../errors";
import { Sandbox } from "../sandbox/run";
import { linkClient, ServerError, Unreachable } from "./client";
import { linkHome, loadIdentity, saveIdentity, updateState, type LinkState } from "./config";
import { LinkRunner } from "./runner";
import { slotPlan, Slots } from "./slots";

export type Out = { line(text: string): void; error(text: string): void };

export async function pair(
  args: { code: string; server: string; name?: string },
  out: Out,
  env = process.env,
): Promise<number> {
  const home = linkHome(env);
  const keys = generateLinkKeyPair();
  const name = (args.name ?? hostname()).slice(0, 64);
  out.line(`▸ Made a new Ed25519 key for this machine (private key stays in ${home}).`);
  out.line(`▸ Pairing with ${args.server}…`);
  const client = linkClient(args.server, keys.publicKey, keys.privateKeyPem);
  try {
    const paired = await client.json(pairResponseSchema, "POST", "/api/link/v1/pair", { code: args.code, name });
    const state: LinkState = {
      server: args.server,
      link_id: paired.link_id,
      public_key: keys.publicKey,
      name: paired.name,
      runner: "off",
      runner_epoch: 0,
      pool: false,
    };
    saveIdentity(home, keys.privateKeyPem, state);
    out.line(
      `✓ Paired as "${paired.name}" (${paired.link_id}). The skill runner is off: turn it on with \`openvibe-link skills on\`.`,
    );
    return 0;
  } catch (err) {
    return report(err, out);
  }
}

/** The machine owner's switch. It counts up, so no older report (a running `run`'s) can undo it. */
export async function skills(args: { on: boolean }, out: Out, env = process.env): Promise<number> {
  const home = linkHome(env);
  const { privateKeyPem } = loadIdentity(home);
  const next = updateState(home, (s) => ({ ...s, runner: args.on ? "on" : "off", runner_epoch: s.runner_epoch + 1 }));
  out.line(`✓ Skill runner openvibe-skill-runner@1.0.0 is ${next.runner} on this machine.`);
  try {
    const answer = await linkClient(next.server, next.link_id ?? "", privateKeyPem).json(
      heartbeatResponseSchema,
      "POST",
      "/api/link/v1/heartbeat",
      {
        runner: next.runner,
        runner_epoch: next.runner_epoch,
        pool: next.pool,
        running: [],
      },
    );
    out.line(`  The server ${answer.runner === next.runner ? "sees it now" : `treats it as ${answer.runner}`}.`);
  } catch (err) {
    if (err instanceof Unreachable || (err instanceof ServerError && err.retryable))
      out.line(
        "  The server is not reachable; `openvibe-link run` tells it when it connects (and takes no job while the runner is off).",
      );
    else return report(err, out);
  }
  return 0;
}

export async function status(out: Out, env = process.env): Promise<number> {
  const { state, privateKeyPem } = loadIdentity(linkHome(env));
  out.line(`Link "${state.name}" (${state.link_id}) at ${state.server}`);
  out.line(`  skill runner: ${state.runner}, pool offer: ${state.pool ? "yes" : "no"}`);
  try {
    const answer = await linkClient(state.server, state.link_id, privateKeyPem).json(
      heartbeatResponseSchema,
      "POST",
      "/api/link/v1/heartbeat",
      {
        runner: state.runner,
        runner_epoch: state.runner_epoch,
        pool: state.pool,
        running: [],
      },
    );
    out.line("  server: reachable, this Link is accepted");
    if (state.pool)
      out.line(
        `  OpenVibe pool: ${answer.pool_approved ? "approved by an operator" : "offered, not approved (serves only you)"}`,
      );
    return 0;
  } catch (err) {
    return report(err, out);
  }
}

const HOST_MAPPING = /^([a-z0-9.-]{1,253})=(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]{2,45}\]):(\d{1,5})$/i;

/**
 * OPENVIBE_LINK_HOSTS: `name=address:port,…`, where the egress proxy connects an allowed name
 * instead of resolving it (like /etc/hosts, for the proxy only). The owner's own configuration, so
 * the public-address rule does not apply to it; it never widens what a policy allows.
 */
export function parseHostMappings(text: string | undefined): Record<string, string> {
  const hosts: Record<string, string> = {};
  for (const item of (text ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean)) {
    const match = HOST_MAPPING.exec(item);
    if (!match || Number(match[3]) > 65_535) {
      throw new LinkError("link.config.hosts_invalid", `OPENVIBE_LINK_HOSTS: "${item}" is not name=address:port.`);
    }
    hosts[match[1]!.toLowerCase()] = `${match[2]!.replace(/^\[|\]$/g, "")}:${match[3]}`;
  }
  return hosts;
}

/**
 * The Sandbox this Link runs its jobs in, with the owner's host mappings (OPENVIBE_LINK_HOSTS),
 * keeping a sandbox booted ahead of the next job of each slot, and one spare: a job that follows
 * another at once takes it instead of waiting for the boot of the one the last job used up.
 */
async function sandboxFor(env: NodeJS.ProcessEnv, slots: number): Promise<Sandbox> {
  return Sandbox.create({ hosts: parseHostMappings(env.OPENVIBE_LINK_HOSTS), warm: true, warmDepth: slots + 1 });
}

/** The poll loop. Resolves when stopped by `signal` (finishing the running jobs, handing back the rest). */
export async function run(
  args: { pool: boolean; jobs?: number; memoryMib?: number },
  out: Out,
  signal: AbortSignal,
  env = process.env,
): Promise<number> {
  const plan = slotPlan({ jobs: args.jobs, memoryMib: args.memoryMib });
  const home = linkHome(env);
  const identity = loadIdentity(home);
  const state = updateState(home, (s) => ({ ...s, pool: args.pool }));
  const client = linkClient(state.server, identity.state.link_id, identity.privateKeyPem);
  if (state.runner === "off")
    out.line("! The skill runner is off: this Link takes no jobs until `openvibe-link skills on`.");
  const sandbox = await sandboxFor(env, plan.jobs);
  out.line(
    `▸ Link "${state.name}" polling ${state.server} (runner ${state.runner}, pool ${state.pool ? "offered" : "not offered"}).`,
  );
  out.line(`▸ Runs up to ${plan.jobs} job${plan.jobs === 1 ? "" : "s"} at once (${plan.why}).`);
  try {
    return await new LinkRunner(
      home,
      client,
      sandbox,
      out,
      signal,
      { linkId: identity.state.link_id, privateKeyPem: identity.privateKeyPem },
      undefined,
      new Slots(plan.jobs, plan.memoryBytes),
    ).run();
  } finally {
    await sandbox.close();
  }
}

function report(err: unknown, out: Out): number {
  if (err instanceof ServerError || err instanceof LinkError) {
    out.error(`✗ ${err.code}: ${err.message}`);
    return 1;
  }
  out.error(`✗ ${err instanceof Error ? err.message : String(err)}`);
  return 1;
}
