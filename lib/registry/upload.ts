// Turns a publish request into a bundle's files, whatever way it came: an archive (.zip/.tar.gz)
// as the body, a multipart form with the folder's files (path in each part's filename) or one
// archive, or a JSON document with every resource's text inline. All three share the caps.
import "server-only";
import { AppError } from "../errors";
import {
  MAX_ARCHIVE_BYTES,
  MAX_ARCHIVE_ENTRIES,
  MAX_BUNDLE_BYTES,
  isArchiverClutter,
  readArchive,
  safeBundlePath,
  stripCommonFolder,
  type BundleFiles,
} from "./archive";

/** A multipart form carries the files uncompressed, plus a little framing per part. */
export const MAX_UPLOAD_BYTES = MAX_BUNDLE_BYTES + 256 * 1024;

export type Upload = { kind: "files"; files: BundleFiles } | { kind: "document"; document: unknown };

const ARCHIVE_TYPES = /^application\/(zip|x-zip-compressed|gzip|x-gzip|x-tar\+gzip|x-compressed-tar|octet-stream)\b/i;

export async function readUpload(req: Request): Promise<Upload> {
  const type = req.headers.get("content-type") ?? "";
  if (ARCHIVE_TYPES.test(type)) return { kind: "files", files: await readArchive(await readCapped(req, MAX_ARCHIVE_BYTES)) };
  if (/^multipart\/form-data\b/i.test(type)) return { kind: "files", files: await readMultipart(req, type) };
  if (/^application\/json\b/i.test(type)) {
    const text = (await readCapped(req, MAX_UPLOAD_BYTES)).toString("utf8");
    try {
      return { kind: "document", document: JSON.parse(text) };
    } catch {
      throw new AppError("request.invalid_json", "The request body is not valid JSON.");
    }
  }
  throw new AppError(
    "request.unsupported_media_type",
    "Send the bundle as a .zip or .tar.gz body, a multipart form of its files, or a JSON document.",
  );
}

async function readMultipart(req: Request, type: string): Promise<BundleFiles> {
  const body = await readCapped(req, MAX_UPLOAD_BYTES);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("request.invalid", "The multipart form could not be read.");
  }
  const archive = form.get("archive");
  if (archive instanceof File) {
    return readArchive(Buffer.from(await archive.arrayBuffer()));
  }
  const files: BundleFiles = new Map();
  let count = 0;
  for (const [, value] of form.entries()) {
    if (!(value instanceof File)) continue;
    if (++count > MAX_ARCHIVE_ENTRIES) {
      throw new AppError("bundle.too_many_entries", `A bundle has at most ${MAX_ARCHIVE_ENTRIES} files.`);
    }
    const path = safeBundlePath(value.name);
    if (isArchiverClutter(path)) continue;
    if (files.has(path)) throw new AppError("bundle.duplicate_path", `"${path}" was sent twice.`);
    files.set(path, Buffer.from(await value.arrayBuffer()));
  }
  if (files.size === 0) {
    throw new AppError("request.invalid", "The form has no files: send the bundle's files or one `archive`.");
  }
  return stripCommonFolder(files);
}

async function readCapped(req: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const tooLarge = (maxBytes: number) =>
  new AppError(
    "bundle.too_large",
    `The upload is over ${maxBytes} bytes; a bundle is at most ${MAX_BUNDLE_BYTES} bytes.`,
  );
