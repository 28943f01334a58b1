// The server's side of signed results: a Link's statement must be about this job as the server
// placed it (its Link, code integrity, pinned inputs) and about the result it came with (status,
// output, stderr, timing), and be signed by that Link's key. Only then is the result recorded,
// with its attestation; otherwise it is refused with `run.result.signature_invalid`.
import "server-only";
import { db } from "../db";
import { AppError } from "../errors";
import {
  attestationSchema,
  inputDigest,
  keyIdOf,
  pinnedInputsSchema,
  statementMismatches,
  verifyStatement,
  type Attestation,
  type JobResultBody,
} from "../protocol";

const invalid = (why: string) =>
  new AppError("run.result.signature_invalid", `The result's signed statement does not hold: ${why}.`);

/**
 * The attestation to store with this result, or null when the job is not this Link's (the caller
 * answers that as it always has). Throws `run.result.signature_invalid` on any mismatch.
 */
export async function verifiedAttestation(
  linkId: string,
  jobId: string,
  result: JobResultBody,
): Promise<Attestation | null> {
  // One round trip: the job as placed, its version's integrity and its Link's key.
  const rows = await db.$queryRaw<
    { inputs: unknown; artifactName: string; artifactVersion: string; integrity: string; publicKey: string }[]
  >`
    SELECT j.inputs, j."artifactName", j."artifactVersion", v.integrity, l."publicKey"
    FROM "RunJob" AS j
    JOIN "SkillVersion" AS v ON v.id = j."versionId"
    JOIN "Link" AS l ON l.id = j."linkId"
    WHERE j.id = ${jobId} AND j."linkId" = ${linkId}`;
  const found = rows[0];
  if (!found) return null;
  const job = { ...found, version: { integrity: found.integrity }, link: { publicKey: found.publicKey } };
  const { statement, signature } = result.attestation;
  const wrong = statementMismatches(statement, {
    job_id: jobId,
    link_id: linkId,
    artifact: { name: job.artifactName, version: job.artifactVersion },
    integrity: job.version.integrity,
    input_digest: inputDigest(pinnedInputsSchema.parse(job.inputs)),
    status: result.status,
    output: result.status === "ok" ? result.output : null,
    stderr: result.stderr,
    wall_ms: result.wall_ms,
    max_rss_bytes: result.max_rss_bytes,
  });
  if (wrong.length) throw invalid(`${wrong.join(", ")} ${wrong.length === 1 ? "does" : "do"} not match`);
  if (!verifyStatement(statement, signature, job.link.publicKey)) throw invalid("the signature is not this Link's");
  return { statement, signature, key_id: keyIdOf(job.link.publicKey) };
}

/** A stored attestation read back (null for a run without one: not finished, or from before signing). */
export function storedAttestation(value: unknown): Attestation | null {
  const parsed = attestationSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
