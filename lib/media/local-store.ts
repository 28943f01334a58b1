// The default media back end: content-addressed files under `${DATA_DIR}/media`, written
// atomically (temporary file + rename) with owner-only permissions.
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../errors";
import { assertKeyMatches, type BlobBackend, digestOfKey, verifyKeyBytes } from "./store";

function isMissing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/**
 * Objects up to this size (a skill's code files, read for every job that runs them) are read
 * without the thread pool: its open, stat, read and close are four round trips, each waiting for
 * a busy event loop, where a small file in the page cache takes microseconds to read at once.
 */
const READ_AT_ONCE_MAX_BYTES = 64 * 1024;

/** The file's bytes when it is small, else null (read it in the background). */
function readSmallFile(file: string): Buffer | null {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    if (size > READ_AT_ONCE_MAX_BYTES) return null;
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    for (let n = 1; read < size && n > 0; read += n) n = readSync(fd, bytes, read, size - read, read);
    return bytes.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

export class LocalBlobBackend implements BlobBackend {
  readonly kind = "local" as const;

  /** `root` is the media folder itself, e.g. `.data/media`. */
  constructor(readonly root: string) {}

  /** Absolute file path of a key; the key is validated so it can never leave `root`. */
  pathOf(key: string): string {
    digestOfKey(key);
    return path.join(this.root, ...key.split("/"));
  }

  // The media type lives on the MediaObject row; a file needs only its bytes.
  async put(key: string, bytes: Buffer): Promise<void> {
    assertKeyMatches(key, bytes);
    const file = this.pathOf(key);
    const tmp = `${file}.tmp-${process.pid}-${randomBytes(6).toString("hex")}`;
    try {
      // Same key means same content; an existing copy is only kept when it still verifies.
      const existing = await readFile(file).catch((err: unknown) => (isMissing(err) ? null : Promise.reject(err)));
      if (existing && existing.equals(bytes)) return;
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      const handle = await open(tmp, "wx", 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true }).catch(() => undefined);
      // A full or broken disk is the store failing, as a blob service's error is (never a bare 500);
      // the answer names the errno, not the path.
      const code = (err as NodeJS.ErrnoException | undefined)?.code ?? "unknown";
      throw new AppError("media.storage_failed", `The media store could not write an object (${code}).`, {
        details: { key },
        cause: err,
      });
    }
  }

  async get(key: string): Promise<Buffer> {
    let bytes: Buffer;
    try {
      const file = this.pathOf(key);
      bytes = readSmallFile(file) ?? (await readFile(file));
    } catch (err) {
      if (isMissing(err)) {
        throw new AppError("media.bytes_missing", "The media bytes are missing from the local store.", {
          details: { key },
        });
      }
      throw err;
    }
    return verifyKeyBytes(this.kind, key, bytes);
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
