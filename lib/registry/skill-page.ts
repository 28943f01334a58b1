// Everything the skill page shows about one version, read in one SQL statement and shaped for display:
// tools with their args, net and limits in plain words, the scan's findings per tool, the integrity
// hash, each code resource's pinned sha256 (re-checked against the document's text) and the most
// one run can cost.
import "server-only";
import { worstCaseCost, formatMicros } from "../billing/rates";
import {
  isCodeResource,
  sha256Hex,
  type ArgProperty,
  type NetPolicy,
  type SkillDocument,
  type Tool,
} from "../contracts";
import { preparedRows, Prisma } from "../db";
import { isImportedFromSkillMd } from "./skill-md";
import { describeLimits, NET_WORDS, SANDBOX_LINE } from "./plain-words";
import { compareSemver } from "./semver";

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

type VersionRow = {
  id: string;
  version: string;
  semverMajor: number;
  semverMinor: number;
  semverPatch: number;
  prerelease: string | null;
  status: VersionSummary["status"];
  publishedAt: string;
  retiredAt: string | null;
};

type PageRow = {
  slug: string;
  trust: SkillPageData["trust"];
  installsCount: number;
  handle: string;
  authorName: string;
  latestId: string | null;
  versions: VersionRow[];
  id: string | null;
  contract: string;
  runs: "prompt" | "sandbox";
  integrity: string;
  name: string;
  summary: string;
  instructions: string;
  instructionsHtml: string | null;
  resourcesHtml: unknown;
  document: unknown;
  hasListing: boolean;
  scannedAt: Date | null;
  code: { name: string; mediaId: string; sha256: string }[];
  findings: (Omit<FindingView, "rule"> & { ruleId: string })[];
  asks: string[];
  outsideScripts: string[];
  leafIndex: bigint | null;
  loggedAt: Date | null;
  signedSize: bigint | null;
  treeSize: bigint | null;
};

/**
 * The one statement behind a skill page: the skill, its author, every version's summary, the chosen
 * version with its listing, pinned code and findings, and its transparency-log entry. The chosen
 * version is `version` when given, else the latest live one (the one browse shows, from
 * "SkillLatest"), else — every version retired — the highest one.
 */
export function skillPageSql(slug: string, version?: string): Prisma.Sql {
  const choice =
    version === undefined
      ? Prisma.sql`(l."versionId" IS NULL OR v.id = l."versionId")`
      : Prisma.sql`v.version = ${version}`;
  return Prisma.sql`
    SELECT s.slug, s.trust, s."installsCount", u.handle, u.name AS "authorName", l."versionId" AS "latestId",
           (SELECT jsonb_agg(jsonb_build_object('id', a.id, 'version', a.version, 'semverMajor', a."semverMajor",
                     'semverMinor', a."semverMinor", 'semverPatch', a."semverPatch", 'prerelease', a.prerelease,
                     'status', a.status, 'publishedAt', a."publishedAt", 'retiredAt', a."retiredAt"))
            FROM "SkillVersion" a WHERE a."skillId" = s.id) AS versions,
           c.id, c.contract, c.runs, c.integrity, c.name, c.summary, c.instructions, c."instructionsHtml", c.asks, c."outsideScripts",
           c."resourcesHtml", c.document, li.id IS NOT NULL AS "hasListing", li."scannedAt",
           coalesce((SELECT jsonb_agg(jsonb_build_object('name', lc.name, 'mediaId', lc."mediaId", 'sha256', lc.sha256))
                     FROM "ListingCode" lc WHERE lc."listingId" = li.id), '[]'::jsonb) AS code,
           coalesce((SELECT jsonb_agg(jsonb_build_object('ruleId', f."ruleId", 'severity', f.severity, 'tool', f.tool,
                       'resource', f.resource, 'line', f.line, 'column', f."column", 'excerpt', f.excerpt, 'message', f.message)
                       ORDER BY f.tool, f.resource, f.line, f."column")
                     FROM "ScanFinding" f WHERE f."listingId" = li.id), '[]'::jsonb) AS findings,
           e."leafIndex", e."createdAt" AS "loggedAt",
           (SELECT max(k.size) FROM "LogCheckpoint" k) AS "signedSize",
           (SELECT h.size FROM "LogHead" h WHERE h.id = 1) AS "treeSize"
    FROM "Skill" s
    JOIN "User" u ON u.id = s."ownerId"
    LEFT JOIN "SkillLatest" l ON l."skillId" = s.id
    LEFT JOIN LATERAL (
      SELECT v.* FROM "SkillVersion" v
      WHERE v."skillId" = s.id AND ${choice}
      ORDER BY v."semverMajor" DESC, v."semverMinor" DESC, v."semverPatch" DESC, (v.prerelease IS NULL) DESC, v.prerelease DESC
      LIMIT 1
    ) c ON true
    LEFT JOIN "Listing" li ON li."versionId" = c.id
    LEFT JOIN "LogEntry" e ON e."versionId" = c.id AND e.event = 'publish'
    WHERE s.slug = ${slug}`;
}

/** The page of `slug` at `version` (latest live one when omitted); null when there is none. */
export async function loadSkillPage(slug: string, version?: string): Promise<SkillPageData | null> {
  // Prepared: planning this statement costs more than running it.
  const [row] = await preparedRows<PageRow>(skillPageSql(slug, version));
  if (!row || !row.id || !row.versions) return null;
  // jsonb carries the timestamp(3) columns as UTC wall-clock text without a zone.
  const versions = row.versions
    .map((v) => ({ ...v, publishedAt: utc(v.publishedAt), retiredAt: v.retiredAt === null ? null : utc(v.retiredAt) }))
    .sort((a, b) => compareSemver(b, a));
  const chosen = versions.find((v) => v.id === row.id)!;
  const latest = versions.find((v) => v.id === row.latestId) ?? null;

  const document = row.document as SkillDocument;
  const tools = document.contract === "actor.skill@2" && document.runs === "sandbox" ? (document.tools ?? []) : [];
  const pins = new Map(row.code.map((c) => [c.name, c]));
  const resourcesHtml = (row.resourcesHtml ?? {}) as Record<string, string>;
  const entry = row.leafIndex === null ? null : Number(row.leafIndex);
  const signed = row.signedSize === null ? 0 : Number(row.signedSize);
  const findings: FindingView[] = row.findings.map((f) => ({
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
    slug: row.slug,
    trust: row.trust,
    installs: row.installsCount,
    author: { handle: row.handle, name: row.authorName },
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
      outsideScripts: row.outsideScripts.map((name) => ({
        name,
        findings: findings.filter((f) => f.resource === name),
      })),
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
        html:
          Object.hasOwn(resourcesHtml, r.name) && typeof resourcesHtml[r.name] === "string"
            ? resourcesHtml[r.name]!
            : null,
        bytes: Buffer.byteLength(r.text, "utf8"),
        pin: pin
          ? { mediaId: pin.mediaId, sha256: pin.sha256, matches: sha256Hex(Buffer.from(r.text, "utf8")) === pin.sha256 }
          : null,
      };
    }),
    findings,
    scannedAt: row.scannedAt?.toISOString() ?? null,
    log:
      entry === null || !row.loggedAt
        ? null
        : { entry, since: row.loggedAt.toISOString(), proofSize: signed > entry ? signed : Number(row.treeSize ?? 0) },
  };
}

function utc(wallClock: string): Date {
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(wallClock) ? wallClock : `${wallClock}Z`);
}

function summary(v: {
  version: string;
  status: VersionSummary["status"];
  publishedAt: Date;
  retiredAt: Date | null;
}): VersionSummary {
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
