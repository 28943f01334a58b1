// Signed tree heads. The log signs its current size and root (with the time) at least once a
// minute — the worker's schedule, and on demand when a reader asks for a checkpoint that is stale
// or behind the tree — and stores one row per size. Before signing it checks what it is about to
// sign against the newest checkpoint it signed before — the same key, a tree that extends the old
// one (RFC 9162 consistency) — and audits a window of the stored rows (audit.ts). A rewritten
// history is refused, loudly, never signed, and readers get 503 until an operator has looked.
import "server-only";
import { config } from "../config/env.mjs";
import { db } from "../db";
import { AppError } from "../errors";
import { log } from "../log";
import { AuditError, auditStep } from "./audit";
import { logSigner } from "./keys";
import { knownLogKey } from "./known-logs";
import { formatCheckpoint, openNote, parseCheckpoint, signNote } from "./note";
import { rangeHashes, rootAt, treeSize } from "./store";
import { consistencyProofRanges } from "./tree-math";
import { ProofError, verifyConsistency } from "./verify";

/** A checkpoint is re-signed when older than this, so readers never see one older than a minute. */
export const CHECKPOINT_MAX_AGE_MS = 60_000;
// First key of the two-int advisory lock: "tlog" in ASCII, so it never meets other domains' locks.
const LOCK_CLASS = 0x746c6f67;

export type StoredCheckpoint = { size: number; rootHash: Buffer; note: string; signedAt: Date };

const toStored = (r: { size: bigint; rootHash: Uint8Array; note: string; signedAt: Date }): StoredCheckpoint => ({
  size: Number(r.size),
  rootHash: Buffer.from(r.rootHash),
  note: r.note,
  signedAt: r.signedAt,
});

export async function latestCheckpoint(): Promise<StoredCheckpoint | null> {
  const row = await db.logCheckpoint.findFirst({ orderBy: { size: "desc" } });
  return row ? toStored(row) : null;
}

/**
 * Signs the log's current tree head, after checking it against the last one signed. With
 * `onlyIfStale`, a checkpoint that another request signed meanwhile (fresh, same size) is returned.
 */
export async function signCheckpoint(
  now = new Date(),
  options: { onlyIfStale?: boolean } = {},
): Promise<StoredCheckpoint> {
  const signer = logSigner();
  const published = knownLogKey(config().APP_URL);
  if (published && published !== signer.vkey) {
    throw refuse("log.key_mismatch", `this host's key ${signer.vkey} is not the published key ${published}`);
  }
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, 1)`;
    const head = await tx.logHead.findUniqueOrThrow({ where: { id: 1 }, select: { vkey: true, auditCursor: true } });
    if (head.vkey && head.vkey !== signer.vkey) {
      throw refuse(
        "log.key_mismatch",
        `this host's key ${signer.vkey} is not the key that signs this log, ${head.vkey}`,
      );
    }
    if (!head.vkey) await tx.logHead.update({ where: { id: 1 }, data: { vkey: signer.vkey } });
    const size = await treeSize(tx);
    const root = await rootAt(tx, size);
    const previous = await tx.logCheckpoint.findFirst({ orderBy: { size: "desc" } });
    if (previous && options.onlyIfStale && isFresh(toStored(previous), size, now)) return toStored(previous);
    if (previous) {
      const prev = toStored(previous);
      if (prev.size > size) throw refuse("log.inconsistent", `the log shrank from ${prev.size} to ${size} entries`);
      // The old checkpoint must still open with this key and name the root the tree has at its size.
      try {
        const body = parseCheckpoint(openNote(prev.note, signer));
        if (body.size !== prev.size || !body.rootHash.equals(prev.rootHash))
          throw new ProofError("row and note differ");
        const proof =
          prev.size === 0 || prev.size === size ? [] : await rangeHashes(tx, consistencyProofRanges(prev.size, size));
        verifyConsistency(prev.size, size, proof, prev.rootHash, root);
      } catch (err) {
        throw refuse(
          "log.inconsistent",
          `the tree of ${size} is not consistent with checkpoint ${prev.size}: ${(err as Error).message}`,
        );
      }
    }
    let auditCursor: number;
    try {
      auditCursor = await auditStep(tx, Number(head.auditCursor), size);
    } catch (err) {
      if (!(err instanceof AuditError)) throw err;
      throw refuse("log.inconsistent", `the stored log failed its audit: ${err.message}`);
    }
    await tx.logHead.update({ where: { id: 1 }, data: { auditCursor: BigInt(auditCursor) } });
    const note = signNote(formatCheckpoint({ origin: signer.name, size, rootHash: root, time: now }), signer);
    const row = await tx.logCheckpoint.upsert({
      where: { size: BigInt(size) },
      create: { size: BigInt(size), rootHash: new Uint8Array(root), note, signedAt: now, firstSignedAt: now },
      update: { note, signedAt: now },
    });
    return toStored(row);
  });
}

/** The newest checkpoint, signed now when it is missing, older than a minute or behind the tree. */
export async function freshCheckpoint(now = new Date()): Promise<StoredCheckpoint> {
  const latest = await latestCheckpoint();
  if (latest && isFresh(latest, await treeSize(db), now)) return latest;
  // A log that refuses to sign (a rewritten history, another key) answers 503 rather than
  // serving its last checkpoint as if all were well.
  return signCheckpoint(now, { onlyIfStale: true });
}

const isFresh = (c: StoredCheckpoint, size: number, now: Date) =>
  c.size === size && now.getTime() - c.signedAt.getTime() < CHECKPOINT_MAX_AGE_MS;

function refuse(reason: "log.key_mismatch" | "log.inconsistent", detail: string): AppError {
  log.error("tlog.sign_refused", { reason, detail });
  return new AppError(
    "log.unavailable",
    reason === "log.inconsistent"
      ? "The transparency log failed its own consistency check and will not sign until its operators have looked."
      : "This server's log key is not the key that signs this log, so it will not sign; the operators have been alerted.",
    { details: { reason } },
  );
}
