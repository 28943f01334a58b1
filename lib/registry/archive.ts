// Reads an uploaded bundle archive (.zip or .tar.gz / .tgz) into memory as `path → bytes`, through
// maintained parsers (yauzl for zip, tar-stream for tar; node:zlib inflates), refusing anything that
// could escape the bundle or exhaust the server: path traversal, absolute paths, links and devices,
// duplicate names, too many entries, bombs (by size and by ratio), and damaged data (CRC-32 of
// every zip entry, checksums of every tar header). macOS clutter (`__MACOSX/`, `.DS_Store`) is
// skipped. This file is the policy; archive-zip.ts and archive-tar.ts read the two formats.
import { AppError, type ErrorCode } from "../errors";
import { readTarGz } from "./archive-tar";
import { readZip } from "./archive-zip";

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

export async function readArchive(bytes: Buffer): Promise<BundleFiles> {
  if (bytes.length > MAX_ARCHIVE_BYTES) {
    throw archiveError("bundle.too_large", `The archive is over ${MAX_ARCHIVE_BYTES} bytes.`);
  }
  const kind = detectArchiveKind(bytes);
  if (kind === "zip") return stripCommonFolder(await readZip(bytes, new Budget(bytes.length)));
  if (kind === "tar.gz") return stripCommonFolder(await readTarGz(bytes, new Budget(bytes.length)));
  throw archiveError("bundle.archive_unsupported", "Upload a .zip or .tar.gz archive, or the bundle's files.");
}

/** Checks one bundle-relative path and returns it normalised, or throws `bundle.path_invalid`. */
export function safeBundlePath(raw: string): string {
  const p = normalBundlePath(raw);
  if (p === null) throw pathInvalid(raw);
  return p;
}

/** The path without leading `./`, or null when it may not be in a bundle. */
export function normalBundlePath(raw: string): string | null {
  // Bounded before any pattern runs: a path is short or it is refused.
  if (raw.length > MAX_PATH_LENGTH + 2) return null;
  const p = raw.replace(/^(\.\/)+/, "");
  const bad =
    p.length === 0 ||
    p.length > MAX_PATH_LENGTH ||
    p.startsWith("/") ||
    /^[a-zA-Z]:/.test(p) ||
    p.includes("\\") ||
    /[\u0000-\u001f\u007f]/.test(p) ||
    p.split("/").some((seg) => seg === ".." || seg === "." || seg === "");
  return bad ? null : p;
}

/** Files an archiver adds on its own (macOS resource forks and Finder state): never part of a bundle. */
export function isArchiverClutter(path: string): boolean {
  return path === "__MACOSX" || path.startsWith("__MACOSX/") || path.split("/").includes(".DS_Store");
}

/** The entry and byte caps of one archive, shared by both readers. */
export class Budget {
  private entries = 0;
  private total = 0;
  constructor(private readonly compressedSize: number) {}

  entry() {
    if (++this.entries > MAX_ARCHIVE_ENTRIES) throw tooManyEntries();
  }

  /** Throws if `size` more bytes would break the bundle size or the whole-archive ratio cap. */
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

/** People archive the folder itself: when every file sits under one top folder, drop it. */
export function stripCommonFolder(files: BundleFiles): BundleFiles {
  const names = [...files.keys()];
  if (names.length === 0 || names.includes("skill.json")) return files;
  const top = names[0]!.split("/")[0]!;
  if (!names.every((n) => n.startsWith(top + "/"))) return files;
  return new Map(names.map((n) => [n.slice(top.length + 1), files.get(n)!]));
}

export function printable(s: string) {
  return s.slice(0, MAX_PATH_LENGTH).replace(/[\u0000-\u001f\u007f]/g, "?");
}

export function archiveError(code: ErrorCode, message: string, path?: string) {
  return new AppError(code, message, {
    details: path === undefined ? undefined : [{ path: printable(path), message }],
  });
}

const pathInvalid = (raw: string) =>
  archiveError("bundle.path_invalid", `The path "${printable(raw)}" is not allowed in a bundle.`, raw);
export const corrupt = (why: string) => archiveError("bundle.archive_corrupt", `The archive is damaged: ${why}`);
export const linkRefused = (name: string) =>
  archiveError("bundle.link_refused", `"${printable(name)}" is a link; bundles may hold only regular files.`, name);
export const specialRefused = (name: string) =>
  archiveError("bundle.special_file_refused", `"${printable(name)}" is not a regular file.`, name);
export const duplicate = (path: string) =>
  archiveError("bundle.duplicate_path", `"${path}" appears twice in the archive.`, path);
export const tooManyEntries = () =>
  archiveError("bundle.too_many_entries", `The archive has more than ${MAX_ARCHIVE_ENTRIES} entries.`);
