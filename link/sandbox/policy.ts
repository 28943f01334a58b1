// What a job may ask of the sandbox (network policy, limits) and the caps it is checked against.
// Limits above a cap are refused, never silently lowered (ADR-060, Run's `run.limits.exceeded`).
import { LIMIT_CAPS, LIMIT_DEFAULTS, LIMIT_MINIMUMS, type Limits } from "../../lib/protocol/limits";
import { isNetPolicy, NET_POLICIES, type NetPolicy } from "../../lib/protocol/net-policies";
import { LinkError } from "../errors";

// The numbers, `net` values and result shape are lib/protocol's, the module the server shares. Each
// from its own file: the protocol's index builds every message schema, which `exec` never needs.
export { NET_POLICIES, type NetPolicy } from "../../lib/protocol/net-policies";
export { LIMIT_CAPS, LIMIT_DEFAULTS, STDOUT_MAX_BYTES, STDERR_MAX_BYTES, INPUT_MAX_BYTES, type Limits } from "../../lib/protocol/limits";
export type { RunOutcome as JobStatus } from "../../lib/protocol/statuses";
export type { LinkRunResult as JobResult } from "../../lib/protocol/messages";
/** Below this Node cannot start reliably; a smaller cap would turn every run into `oom`. */
export const MIN_MEM_BYTES = LIMIT_MINIMUMS.mem_bytes;

/** The hosts `openvibe-only` reaches by default: the apex and its subdomains. */
export const DEFAULT_ALLOWED_HOSTS = ["openvibe.services", "*.openvibe.services"] as const;

export function parseNetPolicy(value: unknown): NetPolicy {
  if (isNetPolicy(value)) return value;
  throw new LinkError("run.net.invalid", `net must be one of ${NET_POLICIES.join(", ")}; got ${JSON.stringify(value)}.`);
}

export function parseLimits(input: { wall_ms?: unknown; mem_bytes?: unknown }): Limits {
  const wall_ms = limitValue("wall_ms", input.wall_ms ?? LIMIT_DEFAULTS.wall_ms, LIMIT_MINIMUMS.wall_ms, LIMIT_CAPS.wall_ms);
  const mem_bytes = limitValue("mem_bytes", input.mem_bytes ?? LIMIT_DEFAULTS.mem_bytes, LIMIT_MINIMUMS.mem_bytes, LIMIT_CAPS.mem_bytes);
  return { wall_ms, mem_bytes };
}

function limitValue(name: string, value: unknown, min: number, cap: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) {
    throw new LinkError("run.limits.invalid", `${name} must be a positive integer; got ${JSON.stringify(value)}.`);
  }
  if (value > cap) throw new LinkError("run.limits.exceeded", `${name} ${value} is above the cap ${cap}.`);
  if (value < min) throw new LinkError("run.limits.invalid", `${name} ${value} is below the minimum ${min}.`);
  return value;
}

/**
 * Hostname patterns: an exact name, or `*.suffix` for any subdomain of suffix (not suffix itself).
 * Prefer exact names: a wildcard lets a tool leak data through the names it makes the proxy look up.
 */
export function hostAllowed(host: string, allowlist: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return allowlist.some((pattern) => {
    const p = pattern.toLowerCase();
    if (p === "*") return true;
    if (p.startsWith("*.")) return name.endsWith(p.slice(1)) && name.length > p.length - 1;
    return name === p;
  });
}
