// A .zip bundle through yauzl: entries from the central directory (so the unix mode can refuse
// links), each one's declared size checked against the budget before it is inflated, sizes
// enforced while inflating (yauzl), and its CRC-32 compared with the header afterwards.
import { crc32 } from "node:zlib";
import { fromBuffer, type Entry, type ZipFile } from "yauzl";
import { AppError } from "../errors";
import {
  archiveError,
  corrupt,
  duplicate,
  isArchiverClutter,
  linkRefused,
  MAX_ARCHIVE_ENTRIES,
  MAX_COMPRESSION_RATIO,
  safeBundlePath,
  specialRefused,
  tooManyEntries,
  type Budget,
  type BundleFiles,
} from "./archive";

const UNIX = 3;
const S_IFMT = 0o170000;

export async function readZip(buf: Buffer, budget: Budget): Promise<BundleFiles> {
  const zip = await open(buf);
  try {
    // The central directory says how many entries follow: refuse a huge count before reading one.
    if (zip.entryCount > MAX_ARCHIVE_ENTRIES) throw tooManyEntries();
    const files: BundleFiles = new Map();
    for (let entry = await next(zip); entry; entry = await next(zip)) {
      budget.entry();
      await readEntry(zip, entry, budget, files);
    }
    return files;
  } finally {
    zip.close();
  }
}

async function readEntry(zip: ZipFile, entry: Entry, budget: Budget, files: BundleFiles): Promise<void> {
  const name = decodeName(entry.fileNameRaw);
  if (entry.isEncrypted()) throw archiveError("bundle.archive_encrypted", "Encrypted archives are not accepted.");
  const unixMode = entry.versionMadeBy >> 8 === UNIX ? entry.externalFileAttributes >>> 16 : 0;
  const fileType = unixMode & S_IFMT;
  if (fileType === 0o120000) throw linkRefused(name);
  if (fileType !== 0 && fileType !== 0o100000 && fileType !== 0o040000) throw specialRefused(name);
  if (name.endsWith("/")) {
    safeBundlePath(name.slice(0, -1));
    return;
  }
  const path = safeBundlePath(name);
  if (isArchiverClutter(path)) return;
  if (files.has(path)) throw duplicate(path);
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw archiveError("bundle.archive_unsupported", `"${path}" uses a compression method other than deflate.`, path);
  }
  budget.check(entry.uncompressedSize);
  if (
    entry.compressedSize > 0 &&
    entry.uncompressedSize / entry.compressedSize > MAX_COMPRESSION_RATIO &&
    entry.uncompressedSize > 64 * 1024
  ) {
    throw archiveError("bundle.compression_ratio", `"${path}" expands too much for its size (a zip bomb?).`, path);
  }
  const bytes = await contents(zip, entry, path);
  if (crc32(bytes) >>> 0 !== entry.crc32 >>> 0) throw corrupt(`the checksum (CRC-32) of "${path}" does not match.`);
  budget.add(bytes.length);
  files.set(path, bytes);
}

/** Names are UTF-8 (the flag may be missing on older archivers); anything else is refused as a path. */
function decodeName(raw: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return "\u0000not utf-8";
  }
}

function open(buf: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    fromBuffer(
      buf,
      { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(damaged(err)) : resolve(zip)),
    ),
  );
}

function next(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off("entry", onEntry);
      zip.off("end", onEnd);
      zip.off("error", onError);
    };
    const onEntry = (e: Entry) => (cleanup(), resolve(e));
    const onEnd = () => (cleanup(), resolve(null));
    const onError = (err: Error) => (cleanup(), reject(damaged(err)));
    zip.on("entry", onEntry);
    zip.on("end", onEnd);
    zip.on("error", onError);
    zip.readEntry();
  });
}

function contents(zip: ZipFile, entry: Entry, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) return reject(damaged(err, path));
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("error", (e: Error) => reject(damaged(e, path)));
      stream.on("end", () => resolve(Buffer.concat(chunks)));
    });
  });
}

/** yauzl's own words are not a stable interface: every failure of it is `bundle.archive_corrupt`. */
function damaged(err: unknown, path?: string): AppError {
  if (err instanceof AppError) return err;
  const why =
    err instanceof Error && /too many bytes|too few bytes|size/i.test(err.message)
      ? "its sizes do not match its headers"
      : "it could not be read";
  return corrupt(path ? `"${path}": ${why}.` : `${why}.`);
}
