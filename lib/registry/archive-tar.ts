// A .tar.gz bundle: gunzip through node:zlib with the output capped (bombs stop while inflating),
// then tar-stream, which verifies each header's checksum and applies pax (`x`, `g`) and GNU long
// name records, so the name checked here is the one the entry really has.
import { gunzipSync } from "node:zlib";
import { extract as tarExtract, type Header } from "tar-stream";
import { AppError } from "../errors";
import {
  archiveError,
  corrupt,
  duplicate,
  isArchiverClutter,
  linkRefused,
  MAX_BUNDLE_BYTES,
  MAX_COMPRESSION_RATIO,
  safeBundlePath,
  specialRefused,
  type Budget,
  type BundleFiles,
} from "./archive";

/** Room for tar's own headers and padding on top of the files' bytes. */
const TAR_OVERHEAD_BYTES = 512 * 1024;

export async function readTarGz(buf: Buffer, budget: Budget): Promise<BundleFiles> {
  const tar = gunzip(buf);
  const files: BundleFiles = new Map();
  const extract = tarExtract();
  const done = (async () => {
    for await (const entry of extract) {
      budget.entry();
      const path = checkEntry(entry.header, files);
      if (path === null) {
        entry.resume();
        continue;
      }
      const size = entry.header.size ?? 0;
      budget.check(size);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      budget.add(bytes.length);
      files.set(path, bytes);
    }
  })();
  extract.end(tar);
  try {
    await done;
  } catch (err) {
    extract.destroy();
    if (err instanceof AppError) throw err;
    throw corrupt("it is not a valid tar archive (a header or its checksum is wrong, or it is cut short).");
  }
  return files;
}

/** The entry's bundle path, null for a folder or archiver clutter, or throws why it is refused. */
function checkEntry(h: Header, files: BundleFiles): string | null {
  const name = h.name;
  switch (h.type) {
    case "link":
    case "symlink":
      throw linkRefused(name);
    case "directory":
      safeBundlePath(name.replace(/\/+$/, ""));
      return null;
    case "file":
    case "contiguous-file":
      break;
    default:
      throw specialRefused(name);
  }
  const path = safeBundlePath(name);
  if (isArchiverClutter(path)) return null;
  if (files.has(path)) throw duplicate(path);
  return path;
}

function gunzip(buf: Buffer): Buffer {
  try {
    return gunzipSync(buf, {
      maxOutputLength: Math.min(MAX_BUNDLE_BYTES + TAR_OVERHEAD_BYTES, buf.length * MAX_COMPRESSION_RATIO) + 1024,
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
}
