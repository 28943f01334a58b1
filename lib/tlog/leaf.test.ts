// The log leaf and the listing hash: canonical bytes, what the hash covers and what it does not.
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../contracts/canonical-json";
import type { Listing } from "../contracts/types";
import { LeafError, leafText, listingHash, parseLeaf, pinnedListing, type LeafData } from "./leaf";

const LISTING: Listing = {
  contract: "actor.skill-listing@2",
  skill: { slug: "text-tools", version: "1.2.0", integrity: `sha256:${"a".repeat(64)}` },
  status: "passed",
  findings: [],
  code: [
    { name: "tools/word-count.js", media_id: "med_01HZY3W8Q6Y9V2K7M4N5P6R7S8", sha256: "b".repeat(64) },
    { name: "tools/slugify.js", media_id: "med_01HZY3W8Q6Y9V2K7M4N5P6R7S9", sha256: "c".repeat(64) },
  ],
  published_at: "2026-11-30T10:00:00.000Z",
};

const LEAF: LeafData = {
  event: "publish",
  integrity: LISTING.skill.integrity,
  listing_hash: listingHash(LISTING),
  slug: "text-tools",
  time: LISTING.published_at,
  version: "1.2.0",
};

describe("listing hash", () => {
  it("covers what publishing fixes, with code sorted by name", () => {
    expect(canonicalJson(pinnedListing(LISTING))).toBe(
      '{"code":[{"media_id":"med_01HZY3W8Q6Y9V2K7M4N5P6R7S9","name":"tools/slugify.js","sha256":"' +
        "c".repeat(64) +
        '"},{"media_id":"med_01HZY3W8Q6Y9V2K7M4N5P6R7S8","name":"tools/word-count.js","sha256":"' +
        "b".repeat(64) +
        '"}],"contract":"actor.skill-listing@2","published_at":"2026-11-30T10:00:00.000Z","skill":{"integrity":"sha256:' +
        "a".repeat(64) +
        '","slug":"text-tools","version":"1.2.0"}}',
    );
    expect(listingHash({ ...LISTING, code: [...LISTING.code!].reverse() })).toBe(listingHash(LISTING));
  });

  it("does not change with the scan's verdict, its findings or a retire", () => {
    const later: Listing = {
      ...LISTING,
      status: "flagged",
      findings: [{ rule: "net.use", severity: "flag", resource: "tools/slugify.js", line: 1, column: 1, message: "m" }],
      retired_at: "2026-12-01T00:00:00.000Z",
    };
    expect(listingHash(later)).toBe(listingHash(LISTING));
  });

  it("changes with any pinned byte, the integrity, the publish time or the contract", () => {
    const changed: Listing[] = [
      { ...LISTING, code: [{ ...LISTING.code![0]!, sha256: "d".repeat(64) }, LISTING.code![1]!] },
      { ...LISTING, code: [{ ...LISTING.code![0]!, media_id: "med_01HZY3W8Q6Y9V2K7M4N5P6R7SA" }, LISTING.code![1]!] },
      { ...LISTING, skill: { ...LISTING.skill, integrity: `sha256:${"e".repeat(64)}` } },
      { ...LISTING, published_at: "2026-11-30T10:00:00.001Z" },
      { ...LISTING, contract: "actor.skill-listing@1", code: undefined },
    ];
    for (const c of changed) expect(listingHash(c)).not.toBe(listingHash(LISTING));
  });
});

describe("leaves", () => {
  it("are canonical JSON with exactly six members, and read back only in that form", () => {
    const text = leafText(LEAF);
    expect(text.startsWith('{"event":"publish","integrity":"sha256:')).toBe(true);
    expect(parseLeaf(text)).toEqual(LEAF);
    expect(leafText({ ...LEAF, extra: "x" } as LeafData)).toBe(text);
  });

  it("refuses non-canonical text, extra or missing members and malformed values", () => {
    const text = leafText(LEAF);
    const bad = [
      text.replace("{", "{ "),
      JSON.stringify({ ...LEAF, extra: 1 }),
      JSON.stringify({ ...LEAF, event: undefined }),
      leafText({ ...LEAF, event: "scan" as never }),
      leafText({ ...LEAF, integrity: "sha256:XYZ" }),
      leafText({ ...LEAF, slug: "Not A Slug" }),
      leafText({ ...LEAF, time: "yesterday" }),
      "[]",
      "not json",
      "x".repeat(2000),
    ];
    for (const b of bad) expect(() => parseLeaf(b), b.slice(0, 60)).toThrow(LeafError);
  });
});
