// One job end to end on this Link: lay and verify the pinned inputs, run the tool in the sandbox,
// clean up. The result is the shape a Link reports to the server.
import { LinkError } from "./errors";
import { layPinnedInputs, parseEntry, type FetchMedia, type PinnedInput } from "./inputs";
import type { JobResult, Limits, NetPolicy } from "./sandbox/policy";
import { refused, type Sandbox } from "./sandbox/run";

export type SkillJob = { entry: string; input: unknown; inputs: PinnedInput[]; net: NetPolicy; limits: Limits };

export async function runSkillJob(sandbox: Sandbox, job: SkillJob, fetchMedia: FetchMedia): Promise<JobResult> {
  const started = performance.now();
  const folder = sandbox.newJobFolder();
  try {
    try {
      await layPinnedInputs(folder.files, job.inputs, fetchMedia);
    } catch (err) {
      if (err instanceof LinkError && err.code === "run.job.input_digest_mismatch") {
        return { status: "integrity", output: null, stderr: err.message, exit: null, wall_ms: Math.round(performance.now() - started), max_rss_bytes: null, code: err.code };
      }
      throw err;
    }
    let entry: string;
    try {
      entry = parseEntry(job.entry);
    } catch (err) {
      return refused(started, (err as LinkError).code, (err as Error).message);
    }
    return await sandbox.run({ folder, entry, input: Buffer.from(JSON.stringify(job.input ?? null)), net: job.net, limits: job.limits });
  } finally {
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
  }
}
