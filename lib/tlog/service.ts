// What the log's HTTP endpoints answer: its key, the current checkpoint, inclusion and
// consistency proofs, pages of entries, and the entries of one skill version. Every parameter is
// checked before the database is asked; hashes travel as standard base64, like the checkpoint's root.
import "server-only";
import { db } from "../db";
import { AppError, notFound } from "../errors";
import { freshCheckpoint } from "./checkpoint";
import { logSigner } from "./keys";
import { checkSize, countParam, MAX_ENTRIES_PAGE } from "./params";
import { rangeHashes, treeSize } from "./store";
import { consistencyProofRanges, inclusionProofRanges } from "./tree-math";

const b64 = (h: Uint8Array) => Buffer.from(h).toString("base64");

export function logKey() {
  const signer = logSigner();
  return {
    origin: signer.name,
    key_name: signer.name,
    key_id: signer.keyId.toString(16).padStart(8, "0"),
    algorithm: "ed25519",
    public_key: signer.publicKey.toString("base64"),
    vkey: signer.vkey,
    format: "https://c2sp.org/signed-note",
  };
}

/** The current checkpoint as a C2SP signed note. */
export async function checkpointNote(): Promise<string> {
  return (await freshCheckpoint()).note;
}

export async function inclusionProof(query: URLSearchParams) {
  const leaf = countParam(query, "leaf");
  const size = countParam(query, "size");
  const tree = await treeSize(db);
  checkSize(size, tree);
  if (leaf >= size) {
    throw new AppError("log.leaf_out_of_range", `leaf must be below size (${size}): entries are numbered from 0.`, {
      details: { parameter: "leaf", size },
    });
  }
  const [leafHash, ...hashes] = await rangeHashes(db, [
    { begin: leaf, end: leaf + 1 },
    ...inclusionProofRanges(leaf, size),
  ]);
  return { leaf_index: leaf, tree_size: size, leaf_hash: b64(leafHash!), hashes: hashes.map(b64) };
}

export async function consistencyProof(query: URLSearchParams) {
  const from = countParam(query, "from");
  const to = countParam(query, "to");
  const tree = await treeSize(db);
  checkSize(to, tree, "to");
  if (from < 1 || from > to) {
    throw new AppError("log.range_invalid", `from must be between 1 and to (${to}).`, {
      details: { parameter: "from", to },
    });
  }
  const hashes = from === to ? [] : await rangeHashes(db, consistencyProofRanges(from, to));
  return { from, to, hashes: hashes.map(b64) };
}

/** Entries [start, end), at most MAX_ENTRIES_PAGE of them and never past the tree's size. */
export async function logEntries(query: URLSearchParams) {
  const start = countParam(query, "start");
  const end = countParam(query, "end");
  const tree = await treeSize(db);
  if (end <= start) {
    throw new AppError("log.range_invalid", "end must be greater than start (the range is [start, end)).", {
      details: { parameter: "end" },
    });
  }
  if (start >= tree) {
    throw new AppError("log.range_invalid", `start must be below the log's size, ${tree}.`, {
      details: { parameter: "start", tree_size: tree },
    });
  }
  const last = Math.min(end, tree, start + MAX_ENTRIES_PAGE);
  const rows = await db.logEntry.findMany({
    where: { leafIndex: { gte: BigInt(start), lt: BigInt(last) } },
    orderBy: { leafIndex: "asc" },
    select: { leafIndex: true, data: true, leafHash: true, createdAt: true },
  });
  return {
    tree_size: tree,
    start,
    end: last,
    entries: rows.map((r) => ({
      index: Number(r.leafIndex),
      data: r.data,
      leaf_hash: b64(r.leafHash),
      logged_at: r.createdAt.toISOString(),
    })),
    ...(last < Math.min(end, tree) ? { next: last } : {}),
  };
}

/** The entries of one version (its publish, and its retire if any), found through the registry's rows. */
export async function versionEntries(slug: string, version: string) {
  const row = await db.skillVersion.findFirst({ where: { version, skill: { slug } }, select: { id: true } });
  if (!row) throw notFound("That skill version");
  const rows = await db.logEntry.findMany({
    where: { versionId: row.id },
    orderBy: { leafIndex: "asc" },
    select: { leafIndex: true, event: true, data: true, createdAt: true },
  });
  return {
    slug,
    version,
    entries: rows.map((r) => ({
      index: Number(r.leafIndex),
      event: r.event,
      data: r.data,
      logged_at: r.createdAt.toISOString(),
    })),
  };
}

/** For the skill page: when the version entered the log, its entry and a size to prove it against. */
export async function logStatusOf(
  versionId: string,
): Promise<{ entry: number; since: string; proofSize: number } | null> {
  const row = await db.logEntry.findUnique({
    where: { versionId_event: { versionId, event: "publish" } },
    select: { leafIndex: true, createdAt: true },
  });
  if (!row) return null;
  const latest = await db.logCheckpoint.findFirst({ orderBy: { size: "desc" }, select: { size: true } });
  const entry = Number(row.leafIndex);
  const signed = latest ? Number(latest.size) : 0;
  return { entry, since: row.createdAt.toISOString(), proofSize: signed > entry ? signed : await treeSize(db) };
}
