// The whole check behind `openvibe verify SLUG@VERSION`, over any LogSource (HTTP for the CLI; the
// Link can use the same): the log's key against the one the client trusts, the signed checkpoint,
// its consistency with the last checkpoint the client accepted, the listing and its code bytes
// (integrity recomputed from the Media bytes themselves), the listing against its log entries, and
// each entry's inclusion proof. Pure: every byte comes through the source, every decision is here.
import { computeIntegrity, sha256Hex } from "../contracts/integrity";
import type { Listing, Resource } from "../contracts/types";
import { validateListing } from "../contracts/validate";
import { emptyRoot, hashLeaf } from "./hash";
import { listingHash, parseLeaf, type LeafData, type LogEvent } from "./leaf";
import { openNote, parseCheckpoint, parseVerifierKey, type Checkpoint, type VerifierKey } from "./note";
import { CompactRange } from "./tree-math";
import { verifyConsistency, verifyInclusion } from "./verify";

/** Where the bytes come from. Each method throws an Error whose message a person can act on. */
export interface LogSource {
  key(): Promise<string>;
  checkpoint(): Promise<Uint8Array>;
  consistency(from: number, to: number): Promise<Uint8Array[]>;
  inclusion(index: number, size: number): Promise<Uint8Array[]>;
  versionEntries(slug: string, version: string): Promise<Array<{ index: number; data: string }>>;
  /** A page of the entries [start, end), from start on (the log may return fewer). */
  entries(start: number, end: number): Promise<Array<{ index: number; data: string; leafHash: Uint8Array }>>;
  listing(slug: string, version: string): Promise<unknown>;
  document(slug: string, version: string): Promise<unknown>;
  code(slug: string, version: string, sha256: string): Promise<Uint8Array>;
}

export type CheckName =
  "key" | "checkpoint" | "consistency" | "listing" | "code" | "integrity" | "entries" | "inclusion";
export type Check = { name: CheckName; ok: boolean; detail: string };

export type VerifyOptions = {
  slug: string;
  version: string;
  /** The verifier key the client trusts for this server (published or pinned); null on first use. */
  trustedKey: string | null;
  /** The signed note of the last checkpoint the client accepted from this log, if any. */
  previousCheckpoint: string | null;
  /** The client's clock (tests set it). */
  now?: Date;
};

/**
 * The log signs at least once a minute, also on demand; a checkpoint much older than that means it
 * has stopped signing — as it does when its tree no longer extends what it signed before.
 */
export const CHECKPOINT_STALE_MS = 10 * 60_000;

/** Up to this many entries the client re-hashes the whole log on every check (16 pages). */
export const FULL_AUDIT_MAX = 4096;

export type VerifyReport = {
  ok: boolean;
  checks: Check[];
  /** The key the server serves (to pin on first use). */
  servedKey: string | null;
  firstUse: boolean;
  /** The checkpoint to remember: set once its signature and consistency are proven. */
  checkpoint: { note: string; size: number; root: string; time: string | null } | null;
  entries: Array<{ index: number; event: LogEvent; time: string }>;
};

class CheckFailed extends Error {}

export async function verifyVersion(source: LogSource, o: VerifyOptions): Promise<VerifyReport> {
  const report: VerifyReport = {
    ok: false,
    checks: [],
    servedKey: null,
    firstUse: false,
    checkpoint: null,
    entries: [],
  };
  const pass = (name: CheckName, detail: string) => report.checks.push({ name, ok: true, detail });
  const step = async <T>(name: CheckName, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      report.checks.push({ name, ok: false, detail: (err as Error).message });
      throw new CheckFailed();
    }
  };
  try {
    const verifier = await step("key", async () => checkKey(source, o, report, pass));
    const checkpoint = await step("checkpoint", async () => {
      const note = await source.checkpoint();
      const body = parseCheckpoint(openNote(note, verifier));
      if (body.origin !== verifier.name)
        throw new Error(`the checkpoint is for log "${body.origin}", not "${verifier.name}"`);
      checkFresh(body, o.now ?? new Date());
      pass(
        "checkpoint",
        `signed checkpoint of ${body.size} entries, root ${b64(body.rootHash)}${body.time ? `, signed ${body.time.toISOString()}` : ""}`,
      );
      return { note: Buffer.from(note).toString("utf8"), body };
    });
    await step("consistency", async () =>
      checkConsistency(source, verifier, o.previousCheckpoint, checkpoint.body, pass),
    );
    report.checkpoint = {
      note: checkpoint.note,
      size: checkpoint.body.size,
      root: b64(checkpoint.body.rootHash),
      time: checkpoint.body.time?.toISOString() ?? null,
    };
    const { listing, integrity } = await checkListing(source, o, step, pass);
    const leaves = await step("entries", async () => {
      const found = await checkEntries(source, o, listing, integrity, checkpoint.body.size);
      pass(
        "entries",
        found.map((l) => `entry ${l.index} (${l.leaf.event} ${l.leaf.time})`).join(" and ") +
          (found.length === 1 ? " matches the listing" : " match the listing"),
      );
      return found;
    });
    report.entries = leaves.map((l) => ({ index: l.index, event: l.leaf.event, time: l.leaf.time }));
    await step("inclusion", async () => {
      for (const l of leaves) {
        const proof = await source.inclusion(l.index, checkpoint.body.size);
        verifyInclusion(l.index, checkpoint.body.size, hashLeaf(l.data), proof, checkpoint.body.rootHash);
      }
      const names = leaves.map((l) => `entry ${l.index}`).join(" and ");
      pass("inclusion", `${names} ${leaves.length === 1 ? "is" : "are"} in the signed tree of ${checkpoint.body.size}`);
    });
    report.ok = report.checks.every((c) => c.ok);
  } catch (err) {
    if (!(err instanceof CheckFailed)) throw err;
  }
  return report;
}

const b64 = (h: Uint8Array) => Buffer.from(h).toString("base64");

function checkFresh(c: Checkpoint, now: Date) {
  if (!c.time) throw new Error("the checkpoint carries no signing time");
  const age = now.getTime() - c.time.getTime();
  if (age > CHECKPOINT_STALE_MS) {
    throw new Error(
      `the newest checkpoint was signed ${c.time.toISOString()}, over ${CHECKPOINT_STALE_MS / 60_000} minutes ago: the log has stopped signing (it refuses to sign a history that was rewritten)`,
    );
  }
  if (age < -CHECKPOINT_STALE_MS)
    throw new Error(`the checkpoint is dated ${c.time.toISOString()}, in the future: check your clock`);
}

async function checkKey(
  source: LogSource,
  o: VerifyOptions,
  report: VerifyReport,
  pass: (name: CheckName, detail: string) => void,
): Promise<VerifierKey> {
  const served = await source.key();
  parseVerifierKey(served);
  report.servedKey = served;
  if (o.trustedKey && o.trustedKey !== served) {
    throw new Error(`the log key changed: the server now serves ${served}, but you trust ${o.trustedKey}`);
  }
  report.firstUse = !o.trustedKey;
  pass("key", o.trustedKey ? `log key ${served} (the one you trust)` : `log key ${served} (first use: now pinned)`);
  return parseVerifierKey(o.trustedKey ?? served);
}

async function checkConsistency(
  source: LogSource,
  verifier: VerifierKey,
  previousNote: string | null,
  current: Checkpoint,
  pass: (name: CheckName, detail: string) => void,
) {
  let history = "no earlier checkpoint of this log here: this one is remembered for next time";
  if (previousNote) {
    let previous: Checkpoint;
    try {
      previous = parseCheckpoint(openNote(previousNote, verifier));
    } catch (err) {
      throw new Error(`the checkpoint you saved earlier does not open with this key (${(err as Error).message})`);
    }
    if (previous.size > current.size) {
      throw new Error(`the log shrank from ${previous.size} to ${current.size} entries: its history was rolled back`);
    }
    const proof =
      previous.size === current.size || previous.size === 0
        ? []
        : await source.consistency(previous.size, current.size);
    verifyConsistency(previous.size, current.size, proof, previous.rootHash, current.rootHash);
    history =
      previous.size === current.size
        ? `the same tree of ${current.size} you saw before`
        : `the tree of ${current.size} extends the tree of ${previous.size} you saw before`;
  }
  pass("consistency", `${history}; ${await auditEntries(source, current)}`);
}

/**
 * Re-hashes every entry the log serves and rebuilds its root, so an entry rewritten in place — even
 * one of another version — shows on the next check. Larger logs rely on the proofs alone here.
 */
async function auditEntries(source: LogSource, checkpoint: Checkpoint): Promise<string> {
  const { size, rootHash } = checkpoint;
  if (size > FULL_AUDIT_MAX) return `the log has ${size} entries, too many to re-hash on every check`;
  const range = new CompactRange();
  while (range.size < size) {
    const page = await source.entries(range.size, size);
    if (!page.length) throw new Error(`the log served no entries from ${range.size} on, below its size ${size}`);
    for (const e of page.slice(0, size - range.size)) {
      if (e.index !== range.size) throw new Error(`the log served entry ${e.index} where entry ${range.size} belongs`);
      const leafHash = hashLeaf(e.data);
      if (!leafHash.equals(e.leafHash)) {
        throw new Error(`entry ${e.index} was rewritten: its data no longer hashes to its leaf in the tree`);
      }
      range.append(leafHash);
    }
  }
  const root = range.root() ?? emptyRoot();
  if (!Buffer.from(root).equals(rootHash)) {
    throw new Error(`the log's ${size} entries do not hash to its signed root: its history was rewritten`);
  }
  return `all ${size} entries re-hashed to the signed root`;
}

type Step = <T>(name: CheckName, fn: () => Promise<T>) => Promise<T>;

async function checkListing(
  source: LogSource,
  o: VerifyOptions,
  step: Step,
  pass: (name: CheckName, detail: string) => void,
) {
  const { listing, document } = await step("listing", async () => {
    const [listing, document] = await Promise.all([
      source.listing(o.slug, o.version),
      source.document(o.slug, o.version),
    ]);
    const l = listing as Listing;
    if (l?.skill?.slug !== o.slug || l?.skill?.version !== o.version) {
      throw new Error(`the registry answered with the listing of ${l?.skill?.slug}@${l?.skill?.version}`);
    }
    if (
      typeof document !== "object" ||
      document === null ||
      !Array.isArray((document as { resources?: unknown }).resources)
    ) {
      throw new Error("the registry's document of this version is not a skill document");
    }
    pass("listing", `${l.contract}, published ${l.published_at}${l.retired_at ? `, retired ${l.retired_at}` : ""}`);
    return { listing: l, document: document as { resources: Resource[] } & Record<string, unknown> };
  });
  const fromMedia = await step("code", async () => {
    const pins = listing.code ?? [];
    const resources = document.resources.map((r) => ({ ...r }));
    for (const pin of pins) {
      const bytes = await source.code(o.slug, o.version, pin.sha256);
      const actual = sha256Hex(bytes);
      if (actual !== pin.sha256)
        throw new Error(`${pin.name}: the bytes served hash to ${actual}, the listing pins ${pin.sha256}`);
      const resource = resources.find((r) => r.name === pin.name);
      if (!resource) throw new Error(`${pin.name} is pinned by the listing but is not in the document`);
      try {
        resource.text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        throw new Error(`${pin.name}: the pinned bytes are not UTF-8 text`);
      }
    }
    pass(
      "code",
      pins.length
        ? `${pins.map((p) => p.name).join(", ")}: bytes match their pinned sha256`
        : "no code (a prompt skill)",
    );
    return { ...document, resources };
  });
  const integrity = await step("integrity", async () => {
    const recomputed = computeIntegrity(fromMedia);
    if (recomputed !== listing.skill.integrity) {
      throw new Error(
        `recomputed from the document and the Media bytes: ${recomputed}; the listing says ${listing.skill.integrity}`,
      );
    }
    const valid = validateListing(listing, fromMedia);
    if (!valid.ok) {
      const first = valid.errors[0]!;
      throw new Error(`the listing breaks its contract: ${first.path || "/"} ${first.code}: ${first.message}`);
    }
    pass("integrity", `${recomputed}, recomputed from the Media bytes`);
    return recomputed;
  });
  return { listing, integrity };
}

async function checkEntries(source: LogSource, o: VerifyOptions, listing: Listing, integrity: string, size: number) {
  const served = await source.versionEntries(o.slug, o.version);
  const leaves = served.map((e) => ({ index: e.index, data: e.data, leaf: parseLeaf(e.data) }));
  const expected: Array<{ event: LogEvent; time: string }> = [
    { event: "publish", time: listing.published_at },
    ...(listing.retired_at ? [{ event: "retire" as const, time: listing.retired_at }] : []),
  ];
  const hash = listingHash(listing);
  for (const e of expected) {
    const found = leaves.filter((l) => l.leaf.event === e.event);
    if (found.length !== 1) {
      throw new Error(
        found.length
          ? `the log has ${found.length} ${e.event} entries for this version`
          : `the ${e.event} of this version is not in the log`,
      );
    }
    const leaf: LeafData = found[0]!.leaf;
    const mismatch = (
      [
        ["slug", leaf.slug, o.slug],
        ["version", leaf.version, o.version],
        ["integrity", leaf.integrity, integrity],
        ["listing hash", leaf.listing_hash, hash],
        ["time", leaf.time, e.time],
      ] as const
    ).find(([, logged, actual]) => logged !== actual);
    if (mismatch) {
      throw new Error(
        `entry ${found[0]!.index} logged ${mismatch[0]} ${mismatch[1]}, the listing now has ${mismatch[2]}`,
      );
    }
    if (found[0]!.index >= size)
      throw new Error(`entry ${found[0]!.index} is not in the signed checkpoint yet; try again in a minute`);
  }
  const extra = leaves.find((l) => !expected.some((e) => e.event === l.leaf.event));
  if (extra)
    throw new Error(
      `the log says this version was retired (entry ${extra.index}, ${extra.leaf.time}), the listing does not`,
    );
  return leaves;
}
