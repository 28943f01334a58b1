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

/** "Asks your agent to: run shell commands · …" for what a skill's instructions ask (instruction audit). */
export function asksLine(asks: readonly string[]): string | null {
  return asks.length ? `Asks your agent to: ${asks.join(" · ")}` : null;
}

/** The sentence around the names of scripts that run outside the sandbox: before, between, after. */
export function outsideScriptsWords(names: readonly string[]): { before: string; after: string } | null {
  if (!names.length) return null;
  return {
    before: "Its instructions ask your agent to run ",
    after: ` on your own machine. OpenVibe does not run or sandbox ${names.length === 1 ? "it" : "them"}.`,
  };
}

/** What a newer version asks for that the older one did not ("asks for more" in an upgrade). */
export function newAsks(from: readonly string[], to: readonly string[]): string[] {
  const had = new Set(from);
  return to.filter((a) => !had.has(a));
}
