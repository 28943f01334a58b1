// What a skill asks for, in the words a person reads on its card and install page (ADR-060).
import type { NetPolicy } from "../contracts/types";

export const NET_WORDS: Record<NetPolicy, string> = {
  deny: "no internet",
  "openvibe-only": "OpenVibe sites only",
  public: "the internet",
};

export const SANDBOX_LINE = "Runs code in a sandbox on your machine or OpenVibe's";

/** How much a policy opens, for "net widened" in an upgrade diff. */
export const NET_RANK: Record<NetPolicy, number> = { deny: 0, "openvibe-only": 1, public: 2 };

export function describeLimits(limits: { wall_ms: number; mem_bytes: number }): string {
  const seconds = limits.wall_ms / 1000;
  const mib = Math.round(limits.mem_bytes / (1024 * 1024));
  return `up to ${seconds % 1 === 0 ? seconds : seconds.toFixed(1)} s and ${mib} MiB per run`;
}
