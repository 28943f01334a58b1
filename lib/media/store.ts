// The narrow storage interface behind Media: put, get (verifying sha256), delete. Keys are
// content-addressed (`sha256/ab/cd/<hex>`), so a backend can check every read against its key.
import { createHash } from "node:crypto";
import { AppError } from "../errors";
import { log } from "../log";

export interface BlobBackend {
  /** Which back end this is, for logs and health pages. */
  readonly kind: "local" | "vercel-blob";
  /** Stores `bytes` under `key`. Writing the same content twice is harmless. */
  put(key: string, bytes: Buffer, mediaType: string): Promise<void>;
  /** The bytes under `key`, verified against the sha256 the key names. */
  get(key: string): Promise<Buffer>;
  /** Whether bytes are stored under `key` (no verification). */
  has(key: string): Promise<boolean>;
  /** Removes the bytes; deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
}

const KEY_PATTERN = /^sha256\/([0-9a-f]{2})\/([0-9a-f]{2})\/([0-9a-f]{64})$/;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The storage key for content with this sha256 (lowercase hex). */
export function contentKey(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`Not a lowercase sha256 hex digest: ${sha256}`);
  return `sha256/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`;
}

/** The sha256 a content key names; throws on anything that is not a well-formed content key. */
export function digestOfKey(key: string): string {
  const m = KEY_PATTERN.exec(key);
  if (!m || m[3]!.slice(0, 2) !== m[1] || m[3]!.slice(2, 4) !== m[2]) {
    throw new Error(`Not a content-addressed media key: ${JSON.stringify(key)}`);
  }
  return m[3]!;
}

/** Throws (and logs loudly) when `bytes` are not the content `key` names. */
export function verifyKeyBytes(backend: BlobBackend["kind"], key: string, bytes: Buffer): Buffer {
  const expected = digestOfKey(key);
  const actual = sha256Hex(bytes);
  if (actual !== expected) {
    log.error("media integrity mismatch: stored bytes do not match their sha256", {
      backend,
      key,
      expected,
      actual,
      sizeBytes: bytes.length,
    });
    throw new AppError(
      "media.integrity_mismatch",
      "Stored media bytes do not match their sha256; refusing to use them.",
      {
        details: { key, expected, actual },
      },
    );
  }
  return bytes;
}

/** Guards put(): a key must name the sha256 of the bytes written under it. */
export function assertKeyMatches(key: string, bytes: Buffer): void {
  const expected = digestOfKey(key);
  const actual = sha256Hex(bytes);
  if (actual !== expected) throw new Error(`Refusing to store bytes with sha256 ${actual} under key for ${expected}`);
}
