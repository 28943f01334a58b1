// The listing of a version as its contract states it (actor.skill-listing@1 / @2), built from the
// database rows: what the registry publishes about the version, its pinned code and its scan.
import "server-only";
import { canonicalJson, LISTING_V1, LISTING_V2, sha256Hex, type Listing } from "../contracts";
import { db } from "../db";
import { notFound } from "../errors";

export type ListingFinding = Listing["findings"][number];

type FindingRow = {
  ruleId: string;
  severity: "fail" | "flag";
  tool: string | null;
  resource: string;
  line: number;
  column: number;
  message: string;
};

export function listingFindings(rows: FindingRow[]): ListingFinding[] {
  return rows.map((f) => ({
    rule: f.ruleId,
    severity: f.severity,
    ...(f.tool ? { tool: f.tool } : {}),
    resource: f.resource,
    line: f.line,
    column: f.column,
    message: f.message,
  }));
}

/** What a person acknowledges before installing a flagged skill: the hash of the listing's findings. */
export function findingsHash(findings: ListingFinding[]): string | null {
  return findings.length ? `sha256:${sha256Hex(canonicalJson(findings))}` : null;
}

/** A listing follows its document's major: actor.skill@2 (prompt or sandbox) is listed as @2. */
export function listingContractFor(documentContract: string) {
  return documentContract === "actor.skill@2" ? LISTING_V2 : LISTING_V1;
}

export async function listingDocument(slug: string, version: string): Promise<Listing> {
  const row = await db.skillVersion.findFirst({
    where: { version, skill: { slug } },
    include: {
      listing: {
        include: {
          code: { orderBy: { name: "asc" } },
          findings: { orderBy: [{ resource: "asc" }, { line: "asc" }, { column: "asc" }] },
        },
      },
    },
  });
  if (!row?.listing) throw notFound("That skill version");
  const contract = row.listing.contract as Listing["contract"];
  return {
    contract,
    skill: { slug, version: row.version, integrity: row.integrity },
    status: row.status,
    findings: listingFindings(row.listing.findings),
    ...(contract === LISTING_V2
      ? { code: row.listing.code.map((c) => ({ name: c.name, media_id: c.mediaId, sha256: c.sha256 })) }
      : {}),
    published_at: row.publishedAt.toISOString(),
    ...(row.retiredAt ? { retired_at: row.retiredAt.toISOString() } : {}),
  };
}
