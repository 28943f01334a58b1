// What a job may ask of the sandbox (network policy, limits) and the caps it is checked against.
// Limits above a cap are refused, never silently lowered (ADR-060, Run's `run.limits.exceeded`).
import { LinkError } from "../errors";

export const NET_POLICIES = ["deny", "openvibe-only", "public"] as const;
export type NetPolicy = (typeof NET_POLICIES)[number];

export const LIMIT_CAPS = { wall_ms: 30_000, mem_bytes: 268_435_456 } as const;
export const LIMIT_DEFAULTS = { wall_ms: 10_000, mem_bytes: 134_217_728 } as const;
/** Below this Node cannot start reliably; a smaller cap would turn every run into `oom`. */
export const MIN_MEM_BYTES = 33_554_432;

export const STDOUT_MAX_BYTES = 64 * 1024;
export const STDERR_MAX_BYTES = 16 * 1024;
export const INPUT_MAX_BYTES = 1024 * 1024;

/** The hosts `openvibe-only` reaches by default: the apex and its subdomains. */
export const DEFAULT_ALLOWED_HOSTS = ["openvibe.services", "*.openvibe.services"] as const;

export type Limits = { wall_ms: number; mem_bytes: number };

export type JobStatus = "ok" | "error" | "output" | "limit" | "timeout" | "oom" | "integrity" | "refused";

/** The one result shape: what `openvibe-link exec` prints and what a Link reports to the server. */
export type JobResult = {
  status: JobStatus;
  output: unknown;
  stderr: string;
  exit: number | null;
  wall_ms: number;
  max_rss_bytes: number | null;
  /** Set when the job never ran (`integrity`, `refused`): the stable reason. */
  code?: string;
};

export function parseNetPolicy(value: unknown): NetPolicy {
  if (typeof value === "string" && (NET_POLICIES as readonly string[]).includes(value)) return value as NetPolicy;
  throw new LinkError("run.net.invalid", `net must be one of ${NET_POLICIES.join(", ")}; got ${JSON.stringify(value)}.`);
}

export function parseLimits(input: { wall_ms?: unknown; mem_bytes?: unknown }): Limits {
  const wall_ms = limitValue("wall_ms", input.wall_ms ?? LIMIT_DEFAULTS.wall_ms, 1, LIMIT_CAPS.wall_ms);
  const mem_bytes = limitValue("mem_bytes", input.mem_bytes ?? LIMIT_DEFAULTS.mem_bytes, MIN_MEM_BYTES, LIMIT_CAPS.mem_bytes);
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
