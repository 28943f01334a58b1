// The server's side of signed results: a Link's statement must be about this job as the server
// placed it (its Link, code integrity, pinned inputs) and about the result it came with (status,
// output, stderr, timing), and be signed by that Link's key. Only then is the result recorded,
// with its attestation; otherwise it is refused with `run.result.signature_invalid`.
import "server-only";
import { sqlPool } from "../db";
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

/** A job as its Link's result finds it: what the statement is checked against, and what recording it needs. */
export type ResultFacts = {
  inputs: unknown;
  artifactName: string;
  artifactVersion: string;
  integrity: string;
  publicKey: string;
  state: string;
  placement: "own" | "pool" | null;
  /** The UTC day (YYYY-MM-DD) the job was created: a solo run's allowance was reserved on it. */
  createdDay: string;
  agentAlone: boolean;
  /** The run's hold (null when it has none): its amount, agent and skill. */
  holdMicros: bigint | null;
  holdAgentId: string | null;
  holdSkillSlug: string | null;
};

// One round trip: the job as placed, its version's integrity, its Link's key and its hold.
const FACTS_SQL = `
  SELECT j.inputs, j."artifactName", j."artifactVersion", v.integrity, l."publicKey", j.state::text AS state,
         j.placement::text AS placement, to_char(j."createdAt", 'YYYY-MM-DD') AS "createdDay", j."agentAlone",
         h."amountMicros" AS "holdMicros", h."agentId" AS "holdAgentId", h."skillSlug" AS "holdSkillSlug"
  FROM "RunJob" AS j
  JOIN "SkillVersion" AS v ON v.id = j."versionId"
  JOIN "Link" AS l ON l.id = j."linkId"
  LEFT JOIN "LedgerEntry" AS h ON h."idempotencyKey" = 'run:' || j.id || ':1'
  WHERE j.id = $1 AND j."linkId" = $2`;

/** The job's facts for a result from this Link, or null when the job is not this Link's. */
export async function resultFacts(linkId: string, jobId: string): Promise<ResultFacts | null> {
  const { rows } = await sqlPool().query<Omit<ResultFacts, "holdMicros"> & { holdMicros: string | null }>({
    name: "run-result-facts",
    text: FACTS_SQL,
    values: [jobId, linkId],
  });
  const row = rows[0];
  if (!row) return null;
  return { ...row, holdMicros: row.holdMicros === null ? null : BigInt(row.holdMicros) };
}

const invalid = (why: string) =>
  new AppError("run.result.signature_invalid", `The result's signed statement does not hold: ${why}.`);

/** The attestation to store with this result. Throws `run.result.signature_invalid` on any mismatch. */
export function verifiedAttestation(
  facts: ResultFacts,
  linkId: string,
  jobId: string,
  result: JobResultBody,
): Attestation {
  const { statement, signature } = result.attestation;
  const wrong = statementMismatches(statement, {
    job_id: jobId,
    link_id: linkId,
    artifact: { name: facts.artifactName, version: facts.artifactVersion },
    integrity: facts.integrity,
    input_digest: inputDigest(pinnedInputsSchema.parse(facts.inputs)),
    status: result.status,
    output: result.status === "ok" ? result.output : null,
    stderr: result.stderr,
    wall_ms: result.wall_ms,
    max_rss_bytes: result.max_rss_bytes,
  });
  if (wrong.length) throw invalid(`${wrong.join(", ")} ${wrong.length === 1 ? "does" : "do"} not match`);
  if (!verifyStatement(statement, signature, facts.publicKey)) throw invalid("the signature is not this Link's");
  return { statement, signature, key_id: keyIdOf(facts.publicKey) };
}

/** A stored attestation read back (null for a run without one: not finished, or from before signing). */
export function storedAttestation(value: unknown): Attestation | null {
  const parsed = attestationSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
