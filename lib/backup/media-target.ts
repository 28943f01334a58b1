// Whether the Media store a restore writes into is empty: the local store's folder has no file, or
// the Vercel Blob store has nothing under `media/`. A restore never mixes into existing objects.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { list } from "@vercel/blob";
import { createMediaBackend, type BlobBackend } from "../media";
import { LocalBlobBackend } from "../media/local-store";

export type MediaConfig = { DATA_DIR: string; BLOB_READ_WRITE_TOKEN?: string; BLOB_API_URL?: string };

/** The first file under `dir` (depth-first), or null when there is none or no folder at all. */
async function firstFile(dir: string): Promise<string | null> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      const found = await firstFile(full);
      if (found) return found;
    } else {
      return full;
    }
  }
  return null;
}

export type MediaTarget = {
  backend: BlobBackend;
  /** Where it is, in words (a folder, or "the Vercel Blob store"). */
  where: string;
  /** Something the store already holds, or null when it is empty. */
  firstObject(): Promise<string | null>;
};

export function mediaTarget(cfg: MediaConfig): MediaTarget {
  const backend = createMediaBackend(cfg);
  if (backend instanceof LocalBlobBackend) {
    return { backend, where: backend.root, firstObject: () => firstFile(backend.root) };
  }
  const token = cfg.BLOB_READ_WRITE_TOKEN!;
  return {
    backend,
    where: "the Vercel Blob store of BLOB_READ_WRITE_TOKEN",
    async firstObject() {
      const page = await list({ prefix: "media/", limit: 1, token });
      return page.blobs[0]?.pathname ?? null;
    },
  };
}
