// Everything the skill page shows about one version, read in one pass and shaped for display:
// tools with their args, net and limits in plain words, the scan's findings per tool, the integrity
// hash, each code resource's pinned sha256 (re-checked against the document's text) and the most
// one run can cost.
import "server-only";
import { worstCaseCost, formatMicros } from "../billing/rates";
import { isCodeResource, sha256Hex, type ArgProperty, type NetPolicy, type SkillDocument, type Tool } from "../contracts";
import { db } from "../db";
import { logStatusOf } from "../tlog";
import { isImportedFromSkillMd } from "./skill-md";
import { describeLimits, NET_WORDS, SANDBOX_LINE } from "./plain-words";
import { compareSemver } from "./semver";
import { latestOf } from "./versions";

export type ArgRow = { name: string; type: string; required: boolean; rules: string[] };

export type ToolView = {
  name: string;
  description: string;
  entry: string;
  net: NetPolicy;
  netWords: string;
  limits: { wall_ms: number; mem_bytes: number };
  limitsWords: string;
  /** The most one run at its wall-time limit can cost (pool rate), formatted. */
  maxCost: string;
  args: ArgRow[];
};

export type ResourceView = {
  name: string;
  mediaType: string;
  isCode: boolean;
  text: string;
  /** A Markdown resource's HTML as rendered at publish (null for other types, or before the backfill). */
  html: string | null;
  bytes: number;
  /** For code: the pinned Media object and whether the stored sha256 is the text's own. */
  pin: { mediaId: string; sha256: string; matches: boolean } | null;
};

export type FindingView = {
  rule: string;
  severity: "fail" | "flag";
  tool: string | null;
  resource: string;
  line: number;
  column: number;
  excerpt: string;
  message: string;
};

export type VersionSummary = {
  version: string;
  status: "scanning" | "passed" | "flagged" | "failed";
  publishedAt: string;
  retiredAt: string | null;
};

export type SkillPageData = {
  slug: string;
  trust: "first_party" | "community";
  installs: number;
  author: { handle: string; name: string };
  latest: string | null;
  versions: VersionSummary[];
  version: VersionSummary & {
    contract: string;
    runs: "prompt" | "sandbox";
    integrity: string;
    name: string;
    summary: string;
    instructions: string;
    /** Rendered at publish; null only for a version the backfill has not reached yet. */
    instructionsHtml: string | null;
    kinds: string[];
    isLatest: boolean;
    /** Published from an Agent Skills folder (its SKILL.md kept as a resource). */
    importedFromSkillMd: boolean;
    /** What the instructions ask the agent to do, in plain words (instruction audit). */
    asks: string[];
    /** Bundled scripts the instructions would run outside the sandbox, each with its findings. */
    outsideScripts: { name: string; findings: FindingView[] }[];
  };
  sandboxLine: string | null;
  tools: ToolView[];
  resources: ResourceView[];
  findings: FindingView[];
  scannedAt: string | null;
  /** The version's entry in the transparency log, and a tree size to prove it against. */
  log: { entry: number; since: string; proofSize: number } | null;
};

/** The page of `slug` at `version` (latest live one when omitted); null when there is none. */
export async function loadSkillPage(slug: string, version?: string): Promise<SkillPageData | null> {
  const skill = await db.skill.findUnique({
    where: { slug },
    select: {
      slug: true,
      trust: true,
      installsCount: true,
      owner: { select: { handle: true, name: true } },
      versions: {
        select: {
          id: true,
          version: true,
          semverMajor: true,
          semverMinor: true,
          semverPatch: true,
          prerelease: true,
          status: true,
          publishedAt: true,
          retiredAt: true,
        },
      },
    },
  });
  if (!skill || skill.versions.length === 0) return null;
  const versions = [...skill.versions].sort((a, b) => compareSemver(b, a));
  const latest = latestOf(versions);
  // Every version retired: the newest one is still readable, marked retired.
  const chosen = version ? versions.find((v) => v.version === version) : (latest ?? versions[0]);
  if (!chosen) return null;

  const row = await db.skillVersion.findUniqueOrThrow({
    where: { id: chosen.id },
    select: {
      contract: true,
      runs: true,
      integrity: true,
      name: true,
      summary: true,
      instructions: true,
      instructionsHtml: true,
      resourcesHtml: true,
      document: true,
      asks: true,
      outsideScripts: true,
      listing: {
        select: {
          scannedAt: true,
          code: { select: { name: true, mediaId: true, sha256: true } },
          findings: {
            orderBy: [{ tool: "asc" }, { resource: "asc" }, { line: "asc" }, { column: "asc" }],
            select: { ruleId: true, severity: true, tool: true, resource: true, line: true, column: true, excerpt: true, message: true },
          },
        },
      },
    },
  });
  const document = row.document as unknown as SkillDocument;
  const tools = document.contract === "actor.skill@2" && document.runs === "sandbox" ? (document.tools ?? []) : [];
  const pins = new Map((row.listing?.code ?? []).map((c) => [c.name, c]));
  const resourcesHtml = (row.resourcesHtml ?? {}) as Record<string, string>;
  const findings: FindingView[] = (row.listing?.findings ?? []).map((f) => ({
    rule: f.ruleId,
    severity: f.severity,
    tool: f.tool,
    resource: f.resource,
    line: f.line,
    column: f.column,
    excerpt: f.excerpt,
    message: f.message,
  }));

  return {
    slug: skill.slug,
    trust: skill.trust,
    installs: skill.installsCount,
    author: skill.owner,
    latest: latest?.version ?? null,
    versions: versions.map(summary),
    version: {
      ...summary(chosen),
      contract: row.contract,
      runs: row.runs,
      integrity: row.integrity,
      name: row.name,
      summary: row.summary,
      instructions: row.instructions,
      instructionsHtml: row.instructionsHtml,
      kinds: document.requires?.kinds ?? [],
      isLatest: latest?.id === chosen.id,
      importedFromSkillMd: isImportedFromSkillMd(document),
      asks: row.asks,
      outsideScripts: row.outsideScripts.map((name) => ({ name, findings: findings.filter((f) => f.resource === name) })),
    },
    sandboxLine: row.runs === "sandbox" ? SANDBOX_LINE : null,
    tools: tools.map(toolView),
    resources: (document.resources ?? []).map((r) => {
      const pin = pins.get(r.name);
      return {
        name: r.name,
        mediaType: r.media_type,
        isCode: isCodeResource(r),
        text: r.text,
        html: Object.hasOwn(resourcesHtml, r.name) && typeof resourcesHtml[r.name] === "string" ? resourcesHtml[r.name]! : null,
        bytes: Buffer.byteLength(r.text, "utf8"),
        pin: pin ? { mediaId: pin.mediaId, sha256: pin.sha256, matches: sha256Hex(Buffer.from(r.text, "utf8")) === pin.sha256 } : null,
      };
    }),
    findings,
    scannedAt: row.listing?.scannedAt?.toISOString() ?? null,
    log: await logStatusOf(chosen.id),
  };
}

function summary(v: { version: string; status: VersionSummary["status"]; publishedAt: Date; retiredAt: Date | null }): VersionSummary {
  return {
    version: v.version,
    status: v.status,
    publishedAt: v.publishedAt.toISOString(),
    retiredAt: v.retiredAt?.toISOString() ?? null,
  };
}

export function toolView(t: Tool): ToolView {
  const required = new Set(t.args.required ?? []);
  return {
    name: t.name,
    description: t.description,
    entry: t.entry,
    net: t.net,
    netWords: NET_WORDS[t.net],
    limits: t.limits,
    limitsWords: describeLimits(t.limits),
    maxCost: formatMicros(worstCaseCost(t.limits.wall_ms)),
    // The document is stored as jsonb, which does not keep key order: required first, then by name.
    args: Object.entries(t.args.properties ?? {})
      .map(([name, p]) => ({
        name,
        type: p.type === "array" ? `list of ${p.items.type}` : p.type,
        required: required.has(name),
        rules: argRules(p.type === "array" ? p.items : p),
      }))
      .sort((a, b) => Number(b.required) - Number(a.required) || a.name.localeCompare(b.name)),
  };
}

function argRules(p: Exclude<ArgProperty, { type: "array" }>): string[] {
  const rules: string[] = [];
  if ("enum" in p && p.enum) rules.push(`one of ${p.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  if ("maxLength" in p && p.maxLength !== undefined) rules.push(`at most ${p.maxLength} characters`);
  if ("pattern" in p && p.pattern) rules.push(`matches ${p.pattern}`);
  return rules;
}
