// The backup archive on disk: a gzipped tar written through tar-stream entry by entry (with
// backpressure, so memory holds at most one Media object), to a temporary name that becomes the
// final one only when the archive is complete; and read back entry by entry.
import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import tar from "tar-stream";

const FILE_MODE = 0o600;

export class ArchiveWriter {
  private constructor(
    private readonly finalPath: string,
    private readonly tmpPath: string,
    private readonly pack: tar.Pack,
    private readonly written: Promise<void>,
    private readonly mtime: Date,
  ) {}

  /** Starts `finalPath` (owner-only: the archive holds the whole database, password hashes included). */
  static create(finalPath: string): ArchiveWriter {
    const tmpPath = `${finalPath}.partial-${randomBytes(4).toString("hex")}`;
    const pack = tar.pack();
    const written = pipeline(
      pack as unknown as Readable,
      createGzip(),
      createWriteStream(tmpPath, { mode: FILE_MODE, flags: "wx" }),
    );
    written.catch(() => {});
    return new ArchiveWriter(finalPath, tmpPath, pack, written, new Date());
  }

  addBuffer(name: string, bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pack.entry({ name, size: bytes.length, mode: FILE_MODE, mtime: this.mtime }, bytes, (err) =>
        err ? reject(err) : resolve(),
      );
    });
  }

  addFile(name: string, file: string, size: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const entry = this.pack.entry({ name, size, mode: FILE_MODE, mtime: this.mtime }, (err) =>
        err ? reject(err) : resolve(),
      );
      const source = createReadStream(file);
      source.on("error", (err) => {
        entry.destroy(err);
        reject(err);
      });
      source.pipe(entry as unknown as NodeJS.WritableStream);
    });
  }

  /** Ends the archive and gives it its final name. */
  async finish(): Promise<void> {
    this.pack.finalize();
    await this.written;
    await rename(this.tmpPath, this.finalPath);
  }

  /** Drops a half-written archive. */
  async abort(): Promise<void> {
    this.pack.destroy();
    await this.written.catch(() => {});
    await rm(this.tmpPath, { force: true });
  }
}

export type ArchiveEntry = { name: string; type: string; size: number; stream: AsyncIterable<Buffer> };

/**
 * Calls `onEntry` for each entry of the gzipped tar at `file`, in order; the callback must read
 * the entry's stream to its end (or throw, which stops the reading and is rethrown).
 */
export async function readArchive(file: string, onEntry: (entry: ArchiveEntry) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  const source = createReadStream(file);
  const gunzip = createGunzip();
  const fail = (err: Error) => extract.destroy(err);
  source.on("error", fail);
  gunzip.on("error", fail);
  source.pipe(gunzip).pipe(extract as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of extract) {
      const { name, type, size } = entry.header;
      await onEntry({ name, type: type ?? "file", size: size ?? 0, stream: entry as AsyncIterable<Buffer> });
    }
  } finally {
    source.destroy();
    gunzip.destroy();
    extract.destroy();
  }
}

/** Reads an entry's stream into memory, refusing more than `max` bytes. */
export async function readEntry(entry: ArchiveEntry, max: number): Promise<Buffer> {
  if (entry.size > max) throw new Error(`${entry.name} is larger than ${max} bytes`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of entry.stream) {
    total += chunk.length;
    if (total > max) throw new Error(`${entry.name} is larger than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
