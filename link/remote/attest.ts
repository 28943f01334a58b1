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
  const status = result.status === "cancelled" ? "refused" : result.status;
  const output = status === "ok" ? result.output : undefined;
  const statement: RunStatement = {
    type: STATEMENT_TYPE,
    job_id: job.id,
    link_id: identity.linkId,
    artifact: { name: job.artifact.name, version: job.artifact.version },
    skill: { slug: job.skill.slug, version: job.skill.version, tool: job.skill.tool },
    integrity: job.skill.integrity,
    input_digest: inputDigest(job.inputs),
    output_sha256: outputDigest(output ?? null),
    stderr_sha256: stderrDigest(result.stderr),
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
    stderr: result.stderr,
    exit: result.exit,
    wall_ms: result.wall_ms,
    max_rss_bytes: result.max_rss_bytes,
    ...(result.code ? { code: result.code } : {}),
    attestation: signStatement(statement, identity.privateKeyPem),
  };
}
