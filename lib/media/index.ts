// Media: private, content-addressed objects (skill code and other resources) with a database row
// per upload (`med_<ULID>`). Every read re-hashes the bytes and fails loudly on a mismatch.
//
// Transactions: bytes are written before the row, inside the caller's transaction, under a shared
// advisory lock on the sha256 that is held until that transaction ends. Cleanup takes the same lock
// exclusively and deletes bytes only when no MediaObject row references their sha256, so a failed
// publish leaves no orphan and never removes bytes another upload still needs. A small object that
// one statement writes with its row (a call's job.json) keeps its bytes in the row instead.
import "server-only";
import path from "node:path";
import { ulid } from "ulid";
import { config } from "../config/env.mjs";
import { db, type MediaObject, Prisma } from "../db";
import { AppError } from "../errors";
import { log } from "../log";
import { LocalBlobBackend } from "./local-store";
import { type BlobBackend, contentKey, sha256Hex } from "./store";
import { VercelBlobBackend } from "./vercel-store";

export { type BlobBackend, contentKey, sha256Hex } from "./store";
export { LocalBlobBackend } from "./local-store";
export { VercelBlobBackend } from "./vercel-store";

/** Largest object putMedia accepts (code resources are far smaller: 64 KiB each). */
export const MEDIA_MAX_BYTES = 8 * 1024 * 1024;

const MEDIA_ID = /^med_[0-9A-HJKMNP-TV-Z]{26}$/;
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(; ?charset=[a-z0-9_-]{1,40})?$/i;
// First key of the two-int advisory lock: "medi" in ASCII, so these locks never meet other domains'.
const LOCK_CLASS = 0x6d656469;

/** What putMedia needs from a Prisma interactive transaction. */
export type MediaTx = Pick<typeof db, "mediaObject" | "$executeRaw">;

export type PutMediaInput = {
  bytes: Uint8Array;
  mediaType: string;
  ownerId?: string | null;
  /** An interactive transaction (`db.$transaction(async (tx) => …)`); without one, putMedia opens its own. */
  tx?: MediaTx;
};

let backend: BlobBackend | undefined;

/** The back end chosen from config: Vercel Blob when BLOB_READ_WRITE_TOKEN is set, else local files. */
export function mediaBackend(): BlobBackend {
  backend ??= createMediaBackend(config());
  return backend;
}

export function createMediaBackend(cfg: {
  DATA_DIR: string;
  BLOB_READ_WRITE_TOKEN?: string;
  BLOB_API_URL?: string;
}): BlobBackend {
  if (cfg.BLOB_READ_WRITE_TOKEN) {
    return new VercelBlobBackend({ token: cfg.BLOB_READ_WRITE_TOKEN, apiUrl: cfg.BLOB_API_URL });
  }
  return new LocalBlobBackend(path.resolve(cfg.DATA_DIR, "media"));
}

function lockSql(sha256: string, mode: "shared" | "exclusive") {
  const objid = Prisma.sql`('x' || substr(${sha256}, 1, 8))::bit(32)::int`;
  return mode === "shared"
    ? Prisma.sql`SELECT pg_advisory_xact_lock_shared(${LOCK_CLASS}::int, ${objid})`
    : Prisma.sql`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, ${objid})`;
}

function validateInput(input: PutMediaInput): Buffer {
  if (!(input.bytes instanceof Uint8Array)) {
    throw new AppError("request.invalid", "Media bytes must be binary data.");
  }
  if (input.bytes.byteLength > MEDIA_MAX_BYTES) {
    throw new AppError("media.too_large", `Media objects are limited to ${MEDIA_MAX_BYTES} bytes.`, {
      details: { sizeBytes: input.bytes.byteLength, maxBytes: MEDIA_MAX_BYTES },
    });
  }
  if (typeof input.mediaType !== "string" || !MEDIA_TYPE.test(input.mediaType)) {
    throw new AppError("media.invalid_media_type", "The media type must look like `text/javascript`.", {
      details: { mediaType: input.mediaType },
    });
  }
  return Buffer.from(input.bytes.buffer, input.bytes.byteOffset, input.bytes.byteLength);
}

async function putInTx(tx: MediaTx, input: PutMediaInput, bytes: Buffer): Promise<MediaObject> {
  const sha256 = sha256Hex(bytes);
  const storageKey = contentKey(sha256);
  await tx.$executeRaw(lockSql(sha256, "shared"));
  await mediaBackend().put(storageKey, bytes, input.mediaType);
  return tx.mediaObject.create({
    data: {
      id: `med_${ulid()}`,
      ownerId: input.ownerId ?? null,
      sha256,
      sizeBytes: bytes.length,
      mediaType: input.mediaType.toLowerCase(),
      storageKey,
    },
  });
}

/**
 * Stores bytes and records a MediaObject row. Inside a caller's transaction the row commits or
 * rolls back with it; call deleteUnreferencedBlobs (or use withMediaTransaction) after a rollback.
 */
export async function putMedia(input: PutMediaInput): Promise<MediaObject> {
  const bytes = validateInput(input);
  if (input.tx) return putInTx(input.tx, input, bytes);
  try {
    return await db.$transaction((tx) => putInTx(tx, input, bytes));
  } catch (err) {
    await deleteUnreferencedBlobs([sha256Hex(bytes)]).catch((cleanupErr: unknown) =>
      log.error("media cleanup after a failed put did not finish", { err: cleanupErr }),
    );
    throw err;
  }
}

/** The largest object that may live in its own row (`inlineBytes`) instead of the store. */
export const MEDIA_INLINE_MAX_BYTES = 256 * 1024;

/**
 * The values of a MediaObject row whose bytes live in the row itself, for a hot path that inserts
 * the row in its own statement (a call's job.json): nothing is written to the store, so there is
 * nothing to lock against a cleanup and nothing to delete when the statement writes nothing.
 */
export function inlineMediaRow(
  input: Omit<PutMediaInput, "tx"> & { id: string },
): Omit<MediaObject, "createdAt" | "inlineBytes"> & { inlineBytes: Buffer } {
  const bytes = validateInput(input);
  if (bytes.length > MEDIA_INLINE_MAX_BYTES) {
    throw new AppError("media.too_large", `An object kept in its row is at most ${MEDIA_INLINE_MAX_BYTES} bytes.`, {
      details: { sizeBytes: bytes.length, maxBytes: MEDIA_INLINE_MAX_BYTES },
    });
  }
  const sha256 = sha256Hex(bytes);
  return {
    id: input.id,
    ownerId: input.ownerId ?? null,
    sha256,
    sizeBytes: bytes.length,
    mediaType: input.mediaType.toLowerCase(),
    storageKey: contentKey(sha256),
    inlineBytes: bytes,
  };
}

/**
 * Runs `fn` in one database transaction with a `media.put` bound to it. When the transaction
 * fails, bytes it wrote that no committed row references are deleted before the error is rethrown.
 */
export async function withMediaTransaction<T>(
  fn: (
    tx: Prisma.TransactionClient,
    media: { put: (input: Omit<PutMediaInput, "tx">) => Promise<MediaObject> },
  ) => Promise<T>,
  options: { timeout?: number; maxWait?: number } = {},
): Promise<T> {
  const written = new Set<string>();
  try {
    return await db.$transaction(
      (tx) =>
        fn(tx, {
          put: (input) => {
            const bytes = validateInput(input);
            written.add(sha256Hex(bytes));
            return putInTx(tx, input, bytes);
          },
        }),
      { timeout: options.timeout ?? 30_000, maxWait: options.maxWait ?? 10_000 },
    );
  } catch (err) {
    if (written.size) {
      await deleteUnreferencedBlobs([...written]).catch((cleanupErr: unknown) =>
        log.error("media cleanup after a failed transaction did not finish", {
          err: cleanupErr,
          sha256s: [...written],
        }),
      );
    }
    throw err;
  }
}

/** Deletes the stored bytes of each sha256 that no MediaObject row references; returns those deleted. */
export async function deleteUnreferencedBlobs(sha256s: Iterable<string>): Promise<string[]> {
  const deleted: string[] = [];
  for (const sha256 of new Set(sha256s)) {
    const key = contentKey(sha256);
    const removed = await db.$transaction(async (tx) => {
      await tx.$executeRaw(lockSql(sha256, "exclusive"));
      if ((await tx.mediaObject.count({ where: { sha256, inlineBytes: null } })) > 0) return false;
      await mediaBackend().delete(key);
      return true;
    });
    if (removed) deleted.push(sha256);
  }
  return deleted;
}

/** The row and its bytes, re-hashed: a mismatch is logged loudly and thrown, never returned. */
export async function getMedia(id: string): Promise<{ object: MediaObject; bytes: Buffer }> {
  const object = MEDIA_ID.test(id) ? await db.mediaObject.findUnique({ where: { id } }) : null;
  if (!object) throw new AppError("media.not_found", "That media object was not found.", { details: { id } });
  return { object, bytes: await readMediaBytes(object) };
}

/** The bytes of a row already read (from the row itself when they live there), re-hashed like getMedia's. */
export async function readMediaBytes(
  object: Pick<MediaObject, "id" | "sha256" | "sizeBytes" | "storageKey"> & { inlineBytes?: Uint8Array | null },
): Promise<Buffer> {
  const { id } = object;
  const bytes = object.inlineBytes
    ? Buffer.from(object.inlineBytes.buffer, object.inlineBytes.byteOffset, object.inlineBytes.byteLength)
    : await mediaBackend().get(object.storageKey);
  const actual = sha256Hex(bytes);
  if (actual !== object.sha256 || bytes.length !== object.sizeBytes) {
    log.error("media integrity mismatch: bytes do not match the recorded sha256", {
      id,
      storageKey: object.storageKey,
      expected: object.sha256,
      actual,
      expectedSize: object.sizeBytes,
      actualSize: bytes.length,
    });
    throw new AppError(
      "media.integrity_mismatch",
      "Stored media bytes do not match their sha256; refusing to use them.",
      {
        details: { id, expected: object.sha256, actual },
      },
    );
  }
  return bytes;
}

/** Deletes a media object that nothing pins, and its bytes when no other row shares them. */
export async function deleteMedia(id: string): Promise<void> {
  const object = MEDIA_ID.test(id) ? await db.mediaObject.findUnique({ where: { id } }) : null;
  if (!object) throw new AppError("media.not_found", "That media object was not found.", { details: { id } });
  try {
    await db.mediaObject.delete({ where: { id } });
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && (err.code === "P2003" || err.code === "P2014")) {
      throw new AppError("media.in_use", "That media object is pinned by a listing and cannot be deleted.", {
        details: { id },
        cause: err,
      });
    }
    throw err;
  }
  await deleteUnreferencedBlobs([object.sha256]);
}
