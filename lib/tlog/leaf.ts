// What one entry of the transparency log says: a leaf per publish and per retire,
//   { event, integrity, listing_hash, slug, time, version }
// as RFC 8785 canonical JSON (the exact bytes hashed into the tree). `listing_hash` covers the part
// of the listing fixed at publish time — contract, slug, version, integrity, each code resource's
// Media id and sha256, publish time — and not what the scan or a retire fill in later (status,
// findings, retired_at). `time` is the event's own time as the listing states it (published_at,
// retired_at), so a client can hold the listing to it. Pure.
import { canonicalJson, compareUtf16 } from "../contracts/canonical-json";
import { sha256Hex } from "../contracts/integrity";
import type { Listing } from "../contracts/types";

export const LOG_EVENTS = ["publish", "retire"] as const;
export type LogEvent = (typeof LOG_EVENTS)[number];

export type LeafData = {
  event: LogEvent;
  integrity: string;
  listing_hash: string;
  slug: string;
  time: string;
  version: string;
};

export class LeafError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LeafError";
  }
}

/** A leaf is a few hundred bytes; a page of entries stays small. */
export const MAX_LEAF_BYTES = 1024;

export type PinnedListingSource = Pick<Listing, "contract" | "skill" | "code" | "published_at">;

/** The listing as fixed at publish time, code sorted by name (the order the listing API uses may vary). */
export function pinnedListing(listing: PinnedListingSource) {
  return {
    contract: listing.contract,
    skill: { slug: listing.skill.slug, version: listing.skill.version, integrity: listing.skill.integrity },
    ...(listing.code
      ? {
          code: [...listing.code]
            .sort((a, b) => compareUtf16(a.name, b.name))
            .map((c) => ({ name: c.name, media_id: c.media_id, sha256: c.sha256 })),
        }
      : {}),
    published_at: listing.published_at,
  };
}

/** `sha256:<hex>` of the canonical JSON of the pinned listing. */
export function listingHash(listing: PinnedListingSource): string {
  return `sha256:${sha256Hex(canonicalJson(pinnedListing(listing)))}`;
}

/** The leaf's bytes: canonical JSON with exactly the six members. */
export function leafText(leaf: LeafData): string {
  const { event, integrity, listing_hash, slug, time, version } = leaf;
  return canonicalJson({ event, integrity, listing_hash, slug, time, version });
}

const SHA256 = /^sha256:[0-9a-f]{64}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SLUG = /^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$/;
const VERSION = /^[0-9A-Za-z.+-]{5,64}$/;
const KEYS = ["event", "integrity", "listing_hash", "slug", "time", "version"];

/** Reads a leaf as served by the log, refusing anything but the canonical form of a well-formed leaf. */
export function parseLeaf(text: string): LeafData {
  if (typeof text !== "string" || text.length > MAX_LEAF_BYTES) throw new LeafError("the entry is not a log leaf");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new LeafError("the entry is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new LeafError("the entry is not an object");
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v).sort();
  if (keys.length !== KEYS.length || keys.some((k, i) => k !== KEYS[i])) {
    throw new LeafError(`the entry must have exactly ${KEYS.join(", ")}`);
  }
  const ok =
    (v.event === "publish" || v.event === "retire") &&
    typeof v.integrity === "string" &&
    SHA256.test(v.integrity) &&
    typeof v.listing_hash === "string" &&
    SHA256.test(v.listing_hash) &&
    typeof v.slug === "string" &&
    SLUG.test(v.slug) &&
    typeof v.time === "string" &&
    ISO_TIME.test(v.time) &&
    !Number.isNaN(Date.parse(v.time)) &&
    typeof v.version === "string" &&
    VERSION.test(v.version);
  if (!ok) throw new LeafError("the entry has a malformed field");
  const leaf = v as LeafData;
  if (leafText(leaf) !== text) throw new LeafError("the entry is not in canonical form");
  return leaf;
}
