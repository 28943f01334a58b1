// What a skill version asks for (kinds, tools, network, limits) and how a newer or older version
// differs from the one a person has installed: the honest capability diff shown before an upgrade.
// Pure: the install page, the API and the tests share it.
import { MEM_BYTES_DEFAULT, NET_DEFAULT, WALL_MS_DEFAULT } from "../contracts/limits";
import type { NetPolicy, SkillDocument } from "../contracts/types";
import { compareSemver } from "../registry/semver";
import { describeLimits, NET_RANK, NET_WORDS, newAsks, SANDBOX_LINE } from "../registry/plain-words";

export type ToolCapability = {
  name: string;
  description: string;
  entry: string;
  net: NetPolicy;
  netWords: string;
  limits: { wall_ms: number; mem_bytes: number };
  limitsWords: string;
};

export type Capabilities = {
  runs: "prompt" | "sandbox";
  /** One line a person reads first: where the code runs, or that nothing runs. */
  runsWords: string;
  kinds: { kind: string; words: string }[];
  tools: ToolCapability[];
  /** The widest network any tool asks for. */
  widestNet: NetPolicy;
  /** What the instructions ask the agent to do, in plain words (the instruction audit). */
  asks: string[];
  /** Bundled scripts the instructions would run on the person's machine, outside the sandbox. */
  outsideScripts: string[];
};

/** What the scan job's instruction audit stored for a version. */
export type InstructionAsks = { asks: string[]; outsideScripts: string[] };
const NO_ASKS: InstructionAsks = { asks: [], outsideScripts: [] };

/** Plain words for the approval kinds a skill can declare; unknown kinds are shown by code. */
export const KIND_WORDS: Record<string, string> = {
  "skill.run": "running a skill's code in a sandbox",
};

export const PROMPT_LINE = "Instructions only: no code of this skill runs anywhere";

export function kindWords(kind: string): string {
  return KIND_WORDS[kind] ?? kind;
}

export function capabilitiesOf(document: SkillDocument, audit: InstructionAsks = NO_ASKS): Capabilities {
  const runs = document.contract === "actor.skill@2" ? document.runs : "prompt";
  const rawTools = document.contract === "actor.skill@2" && runs === "sandbox" ? (document.tools ?? []) : [];
  const tools = rawTools.map((t): ToolCapability => {
    // Published documents carry their defaults; the fallbacks only guard an older stored row.
    const net = t.net ?? NET_DEFAULT;
    const limits = {
      wall_ms: t.limits?.wall_ms ?? WALL_MS_DEFAULT,
      mem_bytes: t.limits?.mem_bytes ?? MEM_BYTES_DEFAULT,
    };
    return {
      name: t.name,
      description: t.description,
      entry: t.entry,
      net,
      netWords: NET_WORDS[net],
      limits,
      limitsWords: describeLimits(limits),
    };
  });
  const widestNet = tools.reduce<NetPolicy>((w, t) => (NET_RANK[t.net] > NET_RANK[w] ? t.net : w), "deny");
  return {
    runs,
    runsWords: runs === "sandbox" ? SANDBOX_LINE : PROMPT_LINE,
    kinds: (document.requires?.kinds ?? []).map((kind) => ({ kind, words: kindWords(kind) })),
    tools,
    widestNet,
    asks: audit.asks,
    outsideScripts: audit.outsideScripts,
  };
}

type NetChange = { tool: string; from: NetPolicy; to: NetPolicy; fromWords: string; toWords: string };
type LimitChange = { tool: string; limit: "wall_ms" | "mem_bytes"; from: number; to: number };

export type CapabilityDiff = {
  from: string;
  to: string;
  direction: "upgrade" | "downgrade" | "same";
  runsChanged: { from: "prompt" | "sandbox"; to: "prompt" | "sandbox" } | null;
  kindsAdded: { kind: string; words: string }[];
  kindsRemoved: { kind: string; words: string }[];
  toolsAdded: ToolCapability[];
  toolsRemoved: ToolCapability[];
  netWidened: NetChange[];
  netNarrowed: NetChange[];
  limitsRaised: LimitChange[];
  limitsLowered: LimitChange[];
  /** What the new version's instructions ask the agent to do that the installed one's did not. */
  asksAdded: string[];
  /** Bundled scripts outside the sandbox that the installed version did not have. */
  scriptsAdded: string[];
  /** Tools present in both whose code (the entry's text) changed. */
  codeChanged: string[];
  /** True when the new version may do anything the installed one could not. */
  widens: boolean;
  /** True when nothing a person consents to changed (code may still differ). */
  unchanged: boolean;
};

function entryText(document: SkillDocument, entry: string): string | undefined {
  return document.resources.find((r) => r.name === entry)?.text;
}

/** What installing `next` changes for someone who has `installed`. */
export function diffCapabilities(
  installed: SkillDocument,
  next: SkillDocument,
  audits: { installed?: InstructionAsks; next?: InstructionAsks } = {},
): CapabilityDiff {
  const a = capabilitiesOf(installed, audits.installed);
  const b = capabilitiesOf(next, audits.next);
  const order = compareSemver(next.version, installed.version);
  const kindsA = new Set(a.kinds.map((k) => k.kind));
  const kindsB = new Set(b.kinds.map((k) => k.kind));
  const toolsA = new Map(a.tools.map((t) => [t.name, t]));
  const toolsB = new Map(b.tools.map((t) => [t.name, t]));

  const netWidened: NetChange[] = [];
  const netNarrowed: NetChange[] = [];
  const limitsRaised: LimitChange[] = [];
  const limitsLowered: LimitChange[] = [];
  const codeChanged: string[] = [];
  for (const [name, now] of toolsB) {
    const before = toolsA.get(name);
    if (!before) continue;
    if (before.net !== now.net) {
      const change = { tool: name, from: before.net, to: now.net, fromWords: before.netWords, toWords: now.netWords };
      (NET_RANK[now.net] > NET_RANK[before.net] ? netWidened : netNarrowed).push(change);
    }
    for (const limit of ["wall_ms", "mem_bytes"] as const) {
      if (before.limits[limit] === now.limits[limit]) continue;
      const change = { tool: name, limit, from: before.limits[limit], to: now.limits[limit] };
      (now.limits[limit] > before.limits[limit] ? limitsRaised : limitsLowered).push(change);
    }
    if (before.entry !== now.entry || entryText(installed, before.entry) !== entryText(next, now.entry)) {
      codeChanged.push(name);
    }
  }

  const diff = {
    from: installed.version,
    to: next.version,
    direction: order > 0 ? "upgrade" : order < 0 ? "downgrade" : "same",
    runsChanged: a.runs === b.runs ? null : { from: a.runs, to: b.runs },
    kindsAdded: b.kinds.filter((k) => !kindsA.has(k.kind)),
    kindsRemoved: a.kinds.filter((k) => !kindsB.has(k.kind)),
    toolsAdded: b.tools.filter((t) => !toolsA.has(t.name)),
    toolsRemoved: a.tools.filter((t) => !toolsB.has(t.name)),
    netWidened,
    netNarrowed,
    limitsRaised,
    limitsLowered,
    asksAdded: newAsks(a.asks, b.asks),
    scriptsAdded: newAsks(a.outsideScripts, b.outsideScripts),
    codeChanged,
  } satisfies Omit<CapabilityDiff, "widens" | "unchanged">;
  const widens =
    diff.kindsAdded.length > 0 ||
    diff.toolsAdded.length > 0 ||
    netWidened.length > 0 ||
    limitsRaised.length > 0 ||
    diff.asksAdded.length > 0 ||
    diff.scriptsAdded.length > 0 ||
    diff.runsChanged?.to === "sandbox";
  const unchanged =
    !widens &&
    !diff.runsChanged &&
    diff.kindsRemoved.length === 0 &&
    diff.toolsRemoved.length === 0 &&
    netNarrowed.length === 0 &&
    limitsLowered.length === 0;
  return { ...diff, widens, unchanged };
}

/** "10 s" / "256 MiB", for a limit change in a diff. */
export function limitWords(limit: "wall_ms" | "mem_bytes", value: number): string {
  if (limit === "wall_ms") {
    const s = value / 1000;
    return `${s % 1 === 0 ? s : s.toFixed(1)} s`;
  }
  return `${Math.round(value / (1024 * 1024))} MiB`;
}
