// Every result this Link reports is signed: a statement of the job, this Link, the code's
// integrity, the pinned inputs' digest, the output's and stderr's sha256, timing and the egress
// record (lib/protocol/attestation.ts), signed with the key that signs this Link's requests.
import { z } from "zod";
import {
  inputDigest,
  integritySchema,
  jobIdSchema,
  outputDigest,
  pinnedInputsSchema,
  signStatement,
  STATEMENT_TYPE,
  STDERR_MAX_BYTES,
  stderrDigest,
  type LinkRunResult,
  type ResultRequest,
  type RunStatement,
} from "../../lib/protocol";

/** Who signs: this Link's id and its private key. */
export type LinkIdentity = { linkId: string; privateKeyPem: string };

/** The parts of a job a statement names; read on their own, so even a job that fails to parse can be refused signed. */
const attestedJobSchema = z.looseObject({
  id: jobIdSchema,
  artifact: z.looseObject({ name: z.string().min(1).max(128), version: z.string().min(1).max(64) }),
  skill: z.looseObject({ slug: z.string(), version: z.string(), tool: z.string(), integrity: integritySchema }),
  inputs: pinnedInputsSchema,
});
export type AttestedJob = z.infer<typeof attestedJobSchema>;

export function readAttestedJob(envelope: unknown): AttestedJob | null {
  const parsed = attestedJobSchema.safeParse(envelope);
  return parsed.success ? parsed.data : null;
}

/** The result as the server takes it, with its signed statement. */
export function signedResult(
  identity: LinkIdentity,
  job: AttestedJob,
  result: LinkRunResult,
  times: { startedAt: Date; finishedAt: Date },
): ResultRequest {
  let status = result.status === "cancelled" ? "refused" : result.status;
  let output = status === "ok" ? result.output : undefined;
  let stderr = result.stderr;
  let outputSha256: string;
  try {
    outputSha256 = outputDigest(output ?? null);
  } catch {
    // JSON without a canonical form (nested past the bound, a lone surrogate) cannot be vouched
    // for: the run is reported as one whose output was not acceptable JSON.
    status = "output";
    output = undefined;
    stderr = `${stderr}\n[openvibe-link: the output has no RFC 8785 form, so it is not reported]`.slice(
      -STDERR_MAX_BYTES,
    );
    outputSha256 = outputDigest(null);
  }
  const statement: RunStatement = {
    type: STATEMENT_TYPE,
    job_id: job.id,
    link_id: identity.linkId,
    artifact: { name: job.artifact.name, version: job.artifact.version },
    skill: { slug: job.skill.slug, version: job.skill.version, tool: job.skill.tool },
    integrity: job.skill.integrity,
    input_digest: inputDigest(job.inputs),
    output_sha256: outputSha256,
    stderr_sha256: stderrDigest(stderr),
    status,
    wall_ms: result.wall_ms,
    max_rss_bytes: result.max_rss_bytes,
    started_at: times.startedAt.toISOString(),
    finished_at: times.finishedAt.toISOString(),
    egress: result.egress ?? [],
  };
  return {
    status,
    output,
    stderr,
    exit: result.exit,
    wall_ms: result.wall_ms,
    max_rss_bytes: result.max_rss_bytes,
    ...(result.code ? { code: result.code } : {}),
    attestation: signStatement(statement, identity.privateKeyPem),
  };
}
