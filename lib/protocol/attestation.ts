// Signed results. The Link signs a statement of what it ran and what came out — the job, the
// Link, the code's integrity, a digest of every pinned input, sha256 of the output and stderr,
// timing, and the egress record — as RFC 8785 JSON behind a domain-separation prefix, with the
// same Ed25519 key that signs its requests. The server verifies it before it records the result,
// and anyone handed the statement, the output and the Link's public key can check it again.
import { createHash, sign, verify } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "./canonical-json";
import { egressRecordSchema } from "./egress";
import {
  INTEGRITY_PATTERN,
  JOB_ID_PATTERN,
  LINK_ID_PATTERN,
  SHA256_PATTERN,
  SLUG_PATTERN,
  TOOL_NAME_PATTERN,
} from "./patterns";
import { parsePublicKey, privateKeyOf } from "./signing";
import { RESULT_STATUSES } from "./statuses";

/** Signed before the statement's bytes, so a run signature can never be read as any other signature. */
export const ATTESTATION_PREFIX = "openvibe-run-attestation/v1\n";
export const STATEMENT_TYPE = "https://openvibe.services/attestation/run/v1" as const;

const re = (pattern: string) => new RegExp(pattern);
const sha256 = z.string().regex(re(SHA256_PATTERN));
const isoTime = z.iso.datetime();

export const runStatementSchema = z.strictObject({
  type: z.literal(STATEMENT_TYPE),
  job_id: z.string().regex(re(JOB_ID_PATTERN)),
  link_id: z.string().regex(re(LINK_ID_PATTERN)),
  artifact: z.strictObject({ name: z.string().min(1).max(128), version: z.string().min(1).max(64) }),
  skill: z.strictObject({
    slug: z.string().regex(re(SLUG_PATTERN)),
    version: z.string().min(1).max(64),
    tool: z.string().regex(re(TOOL_NAME_PATTERN)),
  }),
  integrity: z.string().regex(re(INTEGRITY_PATTERN)),
  input_digest: sha256,
  output_sha256: sha256,
  stderr_sha256: sha256,
  status: z.enum(RESULT_STATUSES),
  wall_ms: z.number().int().min(0).max(600_000),
  max_rss_bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  started_at: isoTime,
  finished_at: isoTime,
  egress: egressRecordSchema,
});
export type RunStatement = z.infer<typeof runStatementSchema>;

/** A Link's key id: `ed25519:` and the sha256 (hex) of its 32 raw public key bytes. */
export const KEY_ID_PATTERN = "^ed25519:[0-9a-f]{64}$";

/** What a Link sends beside its result: the statement and its signature (base64url, 64 bytes). */
export const signedStatementSchema = z.strictObject({
  statement: runStatementSchema,
  signature: z.string().regex(/^[A-Za-z0-9_-]{86}$/),
});
export type SignedStatement = z.infer<typeof signedStatementSchema>;

/** An attestation as the run page, the agent's result and RUN.json carry it. */
export const attestationSchema = signedStatementSchema.extend({ key_id: z.string().regex(re(KEY_ID_PATTERN)) });
export type Attestation = z.infer<typeof attestationSchema>;

export function keyIdOf(publicKey: string): string {
  return `ed25519:${createHash("sha256").update(Buffer.from(publicKey, "base64url")).digest("hex")}`;
}

/** The bytes that are signed: the prefix, then the statement's RFC 8785 form. */
export function statementBytes(statement: RunStatement): Buffer {
  return Buffer.from(ATTESTATION_PREFIX + canonicalJson(statement), "utf8");
}

/** sha256 of a result's output: of its RFC 8785 form (`null` when the run produced none). */
export function outputDigest(output: unknown): string {
  return createHash("sha256")
    .update(canonicalJson(output ?? null), "utf8")
    .digest("hex");
}

export function stderrDigest(stderr: string): string {
  return createHash("sha256").update(stderr, "utf8").digest("hex");
}

/** One digest of every input a job pinned (name, sha256, size), independent of their order. */
export function inputDigest(inputs: readonly { name: string; sha256: string; size_bytes: number }[]): string {
  const pinned = inputs
    .map((i) => ({ name: i.name, sha256: i.sha256, size_bytes: i.size_bytes }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return createHash("sha256").update(canonicalJson(pinned), "utf8").digest("hex");
}

export function signStatement(statement: RunStatement, privateKeyPem: string): SignedStatement {
  const signature = sign(null, statementBytes(statement), privateKeyOf(privateKeyPem)).toString("base64url");
  return { statement, signature };
}

/** Whether `signature` is the Ed25519 signature of `statement` by the holder of `publicKey` (base64url). */
export function verifyStatement(statement: RunStatement, signature: string, publicKey: string): boolean {
  const key = parsePublicKey(publicKey);
  if (!key || !/^[A-Za-z0-9_-]{86}$/.test(signature)) return false;
  try {
    return verify(null, statementBytes(statement), key, Buffer.from(signature, "base64url"));
  } catch {
    return false;
  }
}

/** The part of a run the statement vouches for: what the result reports and what the job pinned. */
export type AttestedRun = {
  job_id: string;
  link_id: string;
  artifact: { name: string; version: string };
  integrity: string;
  input_digest: string;
  status: string;
  output: unknown;
  stderr: string;
  wall_ms: number;
  max_rss_bytes: number | null;
};

/** The fields of a statement that do not match the run it claims to be about (empty when it matches). */
export function statementMismatches(statement: RunStatement, run: AttestedRun): string[] {
  const wrong: string[] = [];
  const same = (name: string, a: unknown, b: unknown) => {
    if (a !== b) wrong.push(name);
  };
  same("job_id", statement.job_id, run.job_id);
  same("link_id", statement.link_id, run.link_id);
  same(
    "artifact",
    `${statement.artifact.name}@${statement.artifact.version}`,
    `${run.artifact.name}@${run.artifact.version}`,
  );
  same("integrity", statement.integrity, run.integrity);
  same("input_digest", statement.input_digest, run.input_digest);
  same("status", statement.status, run.status);
  let output: string | null = null;
  try {
    output = outputDigest(run.output);
  } catch {
    // An output with no canonical form matches no digest.
  }
  same("output_sha256", statement.output_sha256, output);
  same("stderr_sha256", statement.stderr_sha256, stderrDigest(run.stderr));
  same("wall_ms", statement.wall_ms, run.wall_ms);
  same("max_rss_bytes", statement.max_rss_bytes, run.max_rss_bytes);
  if (Date.parse(statement.finished_at) < Date.parse(statement.started_at)) wrong.push("finished_at");
  return wrong;
}

export const RUN_FILE_FORMAT = "openvibe-run/v1";

/**
 * RUN.json, as the run page exports it and `openvibe verify-run` reads it: the attestation and the
 * output and stderr it vouches for. `server` says where it came from; the verifier chooses whom to
 * ask for the Link's key.
 */
export const runFileSchema = z.strictObject({
  format: z.literal(RUN_FILE_FORMAT),
  server: z.string().max(2000),
  job_id: z.string().regex(re(JOB_ID_PATTERN)),
  attestation: attestationSchema,
  output: z.unknown(),
  stderr: z.string().max(1_000_000),
});
export type RunFile = z.infer<typeof runFileSchema>;

/** `GET /api/v1/links/{id}/key` as a verifier reads it. */
export const linkKeyResponseSchema = z.object({
  link_id: z.string().regex(re(LINK_ID_PATTERN)),
  algorithm: z.literal("Ed25519"),
  key_id: z.string().regex(re(KEY_ID_PATTERN)),
  public_key: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  pool: z.boolean(),
  revoked_at: z.string().nullable(),
});
export type LinkKeyResponse = z.infer<typeof linkKeyResponseSchema>;
