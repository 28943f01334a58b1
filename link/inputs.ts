// Lays a job's inputs in its fresh job folder. Pinned inputs are fetched by media id and must
// match their sha256 before anything runs; a local folder (for `exec`) is copied, symlinks refused,
// so the tool sees a snapshot that cannot point outside it.
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MAX_JOB_INPUTS, pinnedInputSchema, type PinnedInput } from "../lib/protocol";
import { LinkError } from "./errors";

export type { PinnedInput };
export type FetchMedia = (mediaId: string) => Promise<Uint8Array>;

export const MAX_INPUTS = MAX_JOB_INPUTS;
const LOCAL_MAX_FILES = 256;
const LOCAL_MAX_BYTES = 32 * 1024 * 1024;

/** A job's inputs, checked with the protocol's schema; each refusal says which input and why. */
export function parsePinnedInputs(value: unknown): PinnedInput[] {
  if (!Array.isArray(value) || value.length > MAX_INPUTS) {
    throw new LinkError("run.job.inputs_invalid", `inputs must be an array of at most ${MAX_INPUTS}.`);
  }
  const names = new Set<string>();
  return value.map((raw: unknown, i) => {
    const parsed = pinnedInputSchema.safeParse(raw);
    if (!parsed.success) throw new LinkError("run.job.inputs_invalid", `inputs[${i}] needs name, media_id (med_…), sha256 (lowercase hex) and size_bytes.`);
    const input = parsed.data;
    if (names.has(input.name)) throw new LinkError("run.job.inputs_invalid", `inputs[${i}] repeats the name ${input.name}.`);
    names.add(input.name);
    return input;
  });
}

/** Fetches, verifies and writes every input; throws `run.job.input_digest_mismatch` on the first bad one. */
export async function layPinnedInputs(dir: string, inputs: PinnedInput[], fetchMedia: FetchMedia): Promise<void> {
  const fetched = await Promise.all(inputs.map(async (input) => ({ input, bytes: await fetchMedia(input.media_id) })));
  for (const { input, bytes } of fetched) {
    const digest = createHash("sha256").update(bytes).digest("hex");
    if (digest !== input.sha256 || bytes.byteLength !== input.size_bytes) {
      throw new LinkError(
        "run.job.input_digest_mismatch",
        `Input ${input.name} (${input.media_id}) has sha256 ${digest} and ${bytes.byteLength} bytes; the job pinned ${input.sha256} and ${input.size_bytes}.`,
      );
    }
  }
  // Written only after every input verified: nothing of a bad job ever lands in the folder.
  for (const { input, bytes } of fetched) {
    const target = path.join(dir, input.name);
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    writeFileSync(target, bytes, { flag: "wx", mode: 0o644 });
  }
}

/** Copies the regular files and folders of `source` into `dir`; any symlink or special file refuses the copy. */
export function copyLocalFolder(source: string, dir: string): void {
  let files = 0;
  let bytes = 0;
  const walk = (from: string, to: string, depth: number) => {
    for (const name of readdirSync(from)) {
      if (depth === 0 && name === ".openvibe") throw new LinkError("link.exec.reserved_name", "A tool folder may not contain .openvibe at its top.");
      const src = path.join(from, name);
      const dst = path.join(to, name);
      const stat = lstatSync(src);
      if (stat.isSymbolicLink()) throw new LinkError("link.exec.symlink", `${src} is a symlink; tool folders may hold only regular files and folders.`);
      if (stat.isDirectory()) {
        mkdirSync(dst, { mode: 0o755 });
        walk(src, dst, depth + 1);
      } else if (stat.isFile()) {
        files += 1;
        bytes += stat.size;
        if (files > LOCAL_MAX_FILES || bytes > LOCAL_MAX_BYTES) {
          throw new LinkError("link.exec.folder_too_large", `A tool folder holds at most ${LOCAL_MAX_FILES} files and ${LOCAL_MAX_BYTES} bytes.`);
        }
        writeFileSync(dst, readFileSync(src), { flag: "wx", mode: 0o644 });
      } else {
        throw new LinkError("link.exec.special_file", `${src} is not a regular file or folder.`);
      }
    }
  };
  walk(source, dir, 0);
}

/** An entry is a relative path to a .js/.mjs/.cjs file inside the job folder, never outside it. */
export function parseEntry(entry: string): string {
  const normal = path.posix.normalize(entry.replace(/\\/g, "/"));
  if (path.posix.isAbsolute(normal) || normal.startsWith("..") || normal.startsWith(".openvibe") || !/\.(c|m)?js$/.test(normal)) {
    throw new LinkError("link.exec.entry_invalid", `The entry ${JSON.stringify(entry)} must be a .js file inside the tool folder.`);
  }
  return normal;
}
