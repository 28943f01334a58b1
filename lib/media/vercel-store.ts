// The production media back end: private objects in Vercel Blob through the official
// `@vercel/blob` client. Pathnames are `media/<content key>`; reads are verified like local ones.
import { BlobNotFoundError, del, get, head, put } from "@vercel/blob";
import { AppError } from "../errors";
import { log } from "../log";
import { assertKeyMatches, type BlobBackend, digestOfKey, verifyKeyBytes } from "./store";

export type VercelBlobOptions = {
  token: string;
  /** Blob API base (a self-hosted or test endpoint); the client's default otherwise. */
  apiUrl?: string;
};

function storageFailed(op: string, key: string, err: unknown): AppError {
  log.error("vercel blob request failed", { op, key, err });
  const message = err instanceof Error ? err.message : String(err);
  return new AppError("media.storage_failed", `The media store refused to ${op} an object: ${message}`, {
    details: { key },
    cause: err,
  });
}

export class VercelBlobBackend implements BlobBackend {
  readonly kind = "vercel-blob" as const;
  private readonly token: string;

  constructor(options: VercelBlobOptions) {
    this.token = options.token;
    if (options.apiUrl) {
      // @vercel/blob takes its API base only from this variable (read on every call), so the
      // validated config value is handed to it here rather than read anywhere else.
      // eslint-disable-next-line no-restricted-properties
      process.env.VERCEL_BLOB_API_URL = options.apiUrl;
    }
  }

  pathnameOf(key: string): string {
    digestOfKey(key);
    return `media/${key}`;
  }

  async put(key: string, bytes: Buffer, mediaType: string): Promise<void> {
    assertKeyMatches(key, bytes);
    const pathname = this.pathnameOf(key);
    try {
      // The pathname is the content's hash, so overwriting writes identical bytes (and heals a
      // damaged copy) rather than replacing anything.
      await put(pathname, bytes, {
        access: "private",
        token: this.token,
        contentType: mediaType,
        addRandomSuffix: false,
        allowOverwrite: true,
      });
    } catch (err) {
      throw storageFailed("store", key, err);
    }
  }

  async get(key: string): Promise<Buffer> {
    const pathname = this.pathnameOf(key);
    let result: Awaited<ReturnType<typeof get>>;
    try {
      result = await get(pathname, { access: "private", token: this.token, useCache: false });
    } catch (err) {
      throw storageFailed("read", key, err);
    }
    if (!result || result.statusCode !== 200) {
      throw new AppError("media.bytes_missing", "The media bytes are missing from the blob store.", {
        details: { key },
      });
    }
    const bytes = Buffer.from(await new Response(result.stream).arrayBuffer());
    return verifyKeyBytes(this.kind, key, bytes);
  }

  async has(key: string): Promise<boolean> {
    try {
      await head(this.pathnameOf(key), { token: this.token });
      return true;
    } catch (err) {
      if (err instanceof BlobNotFoundError) return false;
      throw storageFailed("look up", key, err);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await del(this.pathnameOf(key), { token: this.token });
    } catch (err) {
      if (err instanceof BlobNotFoundError) return;
      throw storageFailed("delete", key, err);
    }
  }
}
