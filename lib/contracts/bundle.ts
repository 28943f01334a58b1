// A skill bundle on disk: a folder with `skill.json` (the document, each resource listed by `name`
// and `media_type` only) and each resource's text in the file at its `name` inside the folder.
// Reading refuses anything that could make the document differ from the folder's own text files:
// paths that escape it, symlinks anywhere on the way, non-regular files, non-UTF-8 and NUL bytes.
import { constants } from "node:fs";
import { lstat, open, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { DOCUMENT_MAX_BYTES, RESOURCE_NAME_PATTERN, RESOURCE_TEXT_MAX_BYTES } from "./limits";
import type { ContractError, Result, SkillDocument } from "./types";
import { validateSkillDocument } from "./validate";

export const BUNDLE_MANIFEST = "skill.json";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const RESOURCE_NAME = new RegExp(RESOURCE_NAME_PATTERN);

type Read = { ok: true; text: string } | { ok: false; code: string; message: string };

/**
 * Loads the bundle in `dir` into a skill document with every resource's text inlined, validated
 * like any other document (defaults applied, integrity computed; an integrity stated in
 * skill.json must match). Returns every problem found at once.
 */
export async function loadBundle(dir: string): Promise<Result<SkillDocument>> {
  let root: string;
  try {
    root = await realpath(dir);
    if (!(await stat(root)).isDirectory()) throw new Error("not a directory");
  } catch {
    return {
      ok: false,
      errors: [{ path: "", code: "contract.bundle_unreadable", message: `${dir} is not a readable folder.` }],
    };
  }

  return assembleBundle((name, maxBytes) => readBundleFile(root, name, maxBytes));
}

/**
 * The same as loadBundle for a bundle already in memory (an uploaded folder or archive):
 * `files` maps bundle-relative paths to bytes.
 */
export async function bundleFromFiles(files: ReadonlyMap<string, Buffer>): Promise<Result<SkillDocument>> {
  return assembleBundle(async (name, maxBytes) => {
    if (!RESOURCE_NAME.test(name) || name.split("/").some((s) => s === "." || s === "..")) {
      return { ok: false, code: "contract.bundle_path_escape", message: PATH_RULE };
    }
    const bytes = files.get(name);
    if (!bytes) return { ok: false, code: "contract.bundle_missing_file", message: "no such file in the bundle." };
    return decodeText(bytes, maxBytes);
  });
}

type ReadFile = (name: string, maxBytes: number) => Promise<Read>;

async function assembleBundle(read: ReadFile): Promise<Result<SkillDocument>> {
  const manifest = await read(BUNDLE_MANIFEST, DOCUMENT_MAX_BYTES);
  if (!manifest.ok)
    return {
      ok: false,
      errors: [{ path: "", code: manifest.code, message: `${BUNDLE_MANIFEST}: ${manifest.message}` }],
    };
  let doc: unknown;
  try {
    doc = JSON.parse(manifest.text);
  } catch {
    return {
      ok: false,
      errors: [{ path: "", code: "contract.bundle_invalid_json", message: `${BUNDLE_MANIFEST} is not valid JSON.` }],
    };
  }
  if (!isObject(doc) || !Array.isArray(doc.resources)) return validateSkillDocument(doc);

  const errors: ContractError[] = [];
  const resources = await Promise.all(
    doc.resources.map(async (entry: unknown, i) => {
      if (!isObject(entry) || typeof entry.name !== "string") return entry;
      if (entry.text !== undefined) {
        errors.push({
          path: `/resources/${i}/text`,
          code: "contract.schema",
          message: `In a bundle, a resource's text is the file at its name, not a field of ${BUNDLE_MANIFEST}.`,
        });
        return entry;
      }
      const file = await read(entry.name, RESOURCE_TEXT_MAX_BYTES);
      if (!file.ok) {
        errors.push({ path: `/resources/${i}/name`, code: file.code, message: `${entry.name}: ${file.message}` });
        return { ...entry, text: "" };
      }
      return { ...entry, text: file.text };
    }),
  );
  const result = validateSkillDocument({ ...doc, resources });
  if (errors.length === 0) return result;
  // With a file unread the content is incomplete, so its hash says nothing; the other errors stand.
  const rest = result.ok ? [] : result.errors.filter((e) => e.code !== "contract.integrity_mismatch");
  return { ok: false, errors: [...errors, ...rest] };
}

const PATH_RULE = "a resource name is a relative path inside the bundle (no .., no leading / or dot).";

function decodeText(bytes: Buffer, maxBytes: number): Read {
  if (bytes.length > maxBytes)
    return { ok: false, code: "contract.bundle_too_large", message: `over ${maxBytes} bytes.` };
  if (bytes.includes(0))
    return { ok: false, code: "contract.bundle_binary", message: "a NUL byte: resources are text, not binary." };
  try {
    // ignoreBOM keeps a leading BOM as text, so the text re-encodes to exactly the file's bytes.
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { ok: false, code: "contract.bundle_not_utf8", message: "not valid UTF-8." };
  }
}

async function readBundleFile(root: string, name: string, maxBytes: number): Promise<Read> {
  if (!RESOURCE_NAME.test(name) || name.split("/").some((s) => s === "." || s === "..")) {
    return {
      ok: false,
      code: "contract.bundle_path_escape",
      message: PATH_RULE,
    };
  }
  const full = path.resolve(root, name);
  if (!full.startsWith(root + path.sep)) {
    return { ok: false, code: "contract.bundle_path_escape", message: "the path leaves the bundle folder." };
  }
  // Every component is checked with lstat, so no symlink on the way can point elsewhere.
  const segments = name.split("/");
  let current = root;
  for (let i = 0; i < segments.length; i++) {
    current = path.join(current, segments[i]!);
    let st;
    try {
      st = await lstat(current);
    } catch {
      return { ok: false, code: "contract.bundle_missing_file", message: "no such file in the bundle." };
    }
    if (st.isSymbolicLink())
      return { ok: false, code: "contract.bundle_symlink", message: "symlinks are not followed in a bundle." };
    const last = i === segments.length - 1;
    if (last ? !st.isFile() : !st.isDirectory()) {
      return { ok: false, code: "contract.bundle_not_file", message: "not a regular file." };
    }
  }

  let handle;
  try {
    // O_NOFOLLOW closes the gap between the lstat above and the read.
    handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (err) {
    const code =
      (err as NodeJS.ErrnoException).code === "ELOOP" ? "contract.bundle_symlink" : "contract.bundle_unreadable";
    return { ok: false, code, message: "the file could not be opened." };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { ok: false, code: "contract.bundle_not_file", message: "not a regular file." };
    if (st.size > maxBytes) return { ok: false, code: "contract.bundle_too_large", message: `over ${maxBytes} bytes.` };
    const buf = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes)
        return { ok: false, code: "contract.bundle_too_large", message: `over ${maxBytes} bytes.` };
    }
    return decodeText(buf.subarray(0, length), maxBytes);
  } finally {
    await handle.close();
  }
}
