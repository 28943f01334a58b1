// Lays a job's inputs in its fresh job folder. Pinned inputs are fetched by media id and must
// match their sha256 before anything runs. A local folder (for `exec`) is ./local-folder's.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { MAX_JOB_INPUTS, pinnedInputSchema, type PinnedInput } from "../lib/protocol";
import { LinkError } from "./errors";

export type { PinnedInput };
export type FetchMedia = (mediaId: string) => Promise<Uint8Array>;

export const MAX_INPUTS = MAX_JOB_INPUTS;

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
