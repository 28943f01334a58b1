// Reads an uploaded bundle archive (.zip or .tar.gz / .tgz) into memory as `path → bytes`, refusing
// anything that could escape the bundle or exhaust the server: path traversal, absolute paths,
// links and devices, duplicate names, too many entries, and bombs (by size and by ratio).
// Parsed by hand on top of node:zlib so every limit is enforced while inflating, not after.
import { gunzipSync, inflateRawSync } from "node:zlib";
import { AppError } from "../errors";

/** Most bytes an uploaded archive may have (compressed). */
export const MAX_ARCHIVE_BYTES = 2 * 1024 * 1024;
/** Most bytes a bundle may have in all (uncompressed, every file together). */
export const MAX_BUNDLE_BYTES = 2 * 1024 * 1024;
/** Most entries (files and folders) an archive may hold. */
export const MAX_ARCHIVE_ENTRIES = 256;
/** An entry, or the whole archive, may expand at most this many times its compressed size. */
export const MAX_COMPRESSION_RATIO = 100;
/** Longest path inside a bundle. */
export const MAX_PATH_LENGTH = 200;

export type BundleFiles = Map<string, Buffer>;

export type ArchiveKind = "zip" | "tar.gz";

export function detectArchiveKind(bytes: Buffer): ArchiveKind | null {
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50) return "zip";
  if (bytes.length >= 4 && bytes.readUInt32LE(0) === 0x06054b50) return "zip"; // empty zip
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return "tar.gz";
  return null;
}

export function readArchive(bytes: Buffer): BundleFiles {
  if (bytes.length > MAX_ARCHIVE_BYTES) {
    throw archiveError("bundle.too_large", `The archive is over ${MAX_ARCHIVE_BYTES} bytes.`);
  }
  const kind = detectArchiveKind(bytes);
  if (kind === "zip") return stripCommonFolder(readZip(bytes));
  if (kind === "tar.gz") return stripCommonFolder(readTarGz(bytes));
  throw archiveError("bundle.archive_unsupported", "Upload a .zip or .tar.gz archive, or the bundle's files.");
}

/** Checks one bundle-relative path and returns it normalised, or throws `bundle.path_invalid`. */
export function safeBundlePath(raw: string): string {
  const p = raw.replace(/^\.\/+/, "");
  const bad =
    p.length === 0 ||
    p.length > MAX_PATH_LENGTH ||
    p.startsWith("/") ||
    /^[a-zA-Z]:/.test(p) ||
    p.includes("\\") ||
    p.includes("\0") ||
    /[\u0000-\u001f\u007f]/.test(p) ||
    p.split("/").some((seg) => seg === ".." || seg === "." || seg === "");
  if (bad) throw archiveError("bundle.path_invalid", `The path "${printable(raw)}" is not allowed in a bundle.`, raw);
  return p;
}

class Budget {
  private entries = 0;
  private total = 0;
  constructor(private readonly compressedSize: number) {}

  entry() {
    if (++this.entries > MAX_ARCHIVE_ENTRIES) {
      throw archiveError("bundle.too_many_entries", `The archive has more than ${MAX_ARCHIVE_ENTRIES} entries.`);
    }
  }

  /** Bytes an entry may still expand to, given the whole-bundle and whole-archive ratio caps. */
  remaining(): number {
    return Math.min(MAX_BUNDLE_BYTES, this.compressedSize * MAX_COMPRESSION_RATIO) - this.total;
  }

  /** Throws if `size` more bytes would break a cap; `add` also counts them. */
  check(size: number) {
    const total = this.total + size;
    if (total > MAX_BUNDLE_BYTES) {
      throw archiveError("bundle.too_large", `The bundle's files add up to more than ${MAX_BUNDLE_BYTES} bytes.`);
    }
    if (total > this.compressedSize * MAX_COMPRESSION_RATIO) {
      throw archiveError("bundle.compression_ratio", "The archive expands too much for its size (a zip bomb?).");
    }
  }

  add(size: number) {
    this.check(size);
    this.total += size;
  }
}

function readZip(buf: Buffer): BundleFiles {
  const eocd = findEndOfCentralDirectory(buf);
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw corrupt("ZIP64 archives are not supported.");
  if (cdOffset + cdSize > eocd) throw corrupt("its central directory is out of bounds.");
  const budget = new Budget(buf.length);
  const files: BundleFiles = new Map();
  let at = cdOffset;
  for (let i = 0; i < count; i++) {
    budget.entry();
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw corrupt("a directory entry is damaged.");
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLen = buf.readUInt16LE(at + 28);
    const extraLen = buf.readUInt16LE(at + 30);
    const commentLen = buf.readUInt16LE(at + 32);
    const versionMadeBy = buf.readUInt16LE(at + 4);
    const externalAttrs = buf.readUInt32LE(at + 38);
    const localOffset = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLen).toString("utf8");
    at += 46 + nameLen + extraLen + commentLen;

    if (flags & 0x1) throw archiveError("bundle.archive_encrypted", "Encrypted archives are not accepted.");
    const unixMode = versionMadeBy >> 8 === 3 ? externalAttrs >>> 16 : 0;
    const fileType = unixMode & 0o170000;
    if (fileType === 0o120000) throw linkRefused(name);
    if (fileType !== 0 && fileType !== 0o100000 && fileType !== 0o040000) throw specialRefused(name);
    if (name.endsWith("/")) {
      safeBundlePath(name.slice(0, -1));
      continue;
    }
    const path = safeBundlePath(name);
    if (files.has(path)) throw archiveError("bundle.duplicate_path", `"${path}" appears twice in the archive.`, path);
    budget.check(size);

    if (localOffset + 30 > buf.length || buf.readUInt32LE(localOffset) !== 0x04034b50) {
      throw corrupt(`the entry "${path}" is damaged.`);
    }
    const dataStart = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > buf.length) throw corrupt(`the entry "${path}" is truncated.`);
    const data = buf.subarray(dataStart, dataStart + compressedSize);
    let bytes: Buffer;
    if (method === 0) bytes = Buffer.from(data);
    else if (method === 8) bytes = inflateCapped(data, Math.min(budget.remaining(), size), path);
    else
      throw archiveError("bundle.archive_unsupported", `"${path}" uses a compression method other than deflate.`, path);
    if (bytes.length !== size) throw corrupt(`the size of "${path}" does not match its header.`);
    if (compressedSize > 0 && bytes.length / compressedSize > MAX_COMPRESSION_RATIO && bytes.length > 64 * 1024) {
      throw archiveError("bundle.compression_ratio", `"${path}" expands too much for its size (a zip bomb?).`, path);
    }
    budget.add(bytes.length);
    files.set(path, bytes);
  }
  return files;
}

function inflateCapped(data: Buffer, cap: number, path: string): Buffer {
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(cap, 1) });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) {
      throw archiveError("bundle.too_large", `"${path}" expands past the bundle size limit.`, path);
    }
    throw corrupt(`"${path}" could not be decompressed.`);
  }
}

function findEndOfCentralDirectory(buf: Buffer): number {
  const min = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) return i;
  }
  throw corrupt("it has no central directory.");
}

function readTarGz(buf: Buffer): BundleFiles {
  let tar: Buffer;
  try {
    tar = gunzipSync(buf, {
      maxOutputLength: Math.min(MAX_BUNDLE_BYTES * 2, buf.length * MAX_COMPRESSION_RATIO) + 1024,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError) {
      throw archiveError(
        "bundle.compression_ratio",
        "The archive expands too much (a gzip bomb?) or past the size limit.",
      );
    }
    throw corrupt("it is not valid gzip.");
  }
  const budget = new Budget(buf.length);
  const files: BundleFiles = new Map();
  let at = 0;
  let longName: string | null = null;
  while (at + 512 <= tar.length) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    budget.entry();
    const size = parseOctal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156] ?? 0);
    const magic = header.subarray(257, 263).toString("latin1");
    let name = cString(header.subarray(0, 100));
    if (magic.startsWith("ustar")) {
      const prefix = cString(header.subarray(345, 500));
      if (prefix) name = `${prefix}/${name}`;
    }
    if (longName !== null) {
      name = longName;
      longName = null;
    }
    const dataStart = at + 512;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) throw corrupt(`the entry "${printable(name)}" is truncated.`);
    at = dataStart + Math.ceil(size / 512) * 512;

    if (type === "L") {
      longName = cString(tar.subarray(dataStart, dataEnd));
      continue;
    }
    if (type === "x" || type === "g") continue; // pax attributes: names above 100 chars use "L" or prefix
    if (type === "2" || type === "1") throw linkRefused(name);
    if (type === "5") {
      safeBundlePath(name.replace(/\/+$/, ""));
      continue;
    }
    if (type !== "0" && type !== "\0" && type !== "7") throw specialRefused(name);
    const path = safeBundlePath(name);
    if (files.has(path)) throw archiveError("bundle.duplicate_path", `"${path}" appears twice in the archive.`, path);
    budget.add(size);
    files.set(path, Buffer.from(tar.subarray(dataStart, dataEnd)));
  }
  return files;
}

function parseOctal(field: Buffer): number {
  const text = cString(field).trim();
  if (!/^[0-7]*$/.test(text)) throw corrupt("a tar header has a bad size.");
  return text ? parseInt(text, 8) : 0;
}

function cString(field: Buffer): string {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString("utf8");
}

/** People archive the folder itself: when every file sits under one top folder, drop it. */
export function stripCommonFolder(files: BundleFiles): BundleFiles {
  const names = [...files.keys()];
  if (names.length === 0 || names.includes("skill.json")) return files;
  const top = names[0]!.split("/")[0]!;
  if (!names.every((n) => n.startsWith(top + "/"))) return files;
  return new Map(names.map((n) => [n.slice(top.length + 1), files.get(n)!]));
}

function printable(s: string) {
  return s.replace(/[\u0000-\u001f\u007f]/g, "?").slice(0, MAX_PATH_LENGTH);
}

function archiveError(code: string, message: string, path?: string) {
  return new AppError(code, message, {
    details: path === undefined ? undefined : [{ path: printable(path), message }],
  });
}

const corrupt = (why: string) => archiveError("bundle.archive_corrupt", `The archive is damaged: ${why}`);
const linkRefused = (name: string) =>
  archiveError("bundle.link_refused", `"${printable(name)}" is a link; bundles may hold only regular files.`, name);
const specialRefused = (name: string) =>
  archiveError("bundle.special_file_refused", `"${printable(name)}" is not a regular file.`, name);
