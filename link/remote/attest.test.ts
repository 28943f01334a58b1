// The Link's signed results: what it signs matches what it reports, and an output with no
// canonical form is reported as `output` (not acceptable JSON) rather than left unsigned.
import { describe, expect, it } from "vitest";
import {
  generateLinkKeyPair,
  outputDigest,
  resultRequestSchema,
  statementMismatches,
  verifyStatement,
  inputDigest,
} from "../../lib/protocol";
import { signedResult } from "./attest";

const keys = generateLinkKeyPair();
const identity = { linkId: "clink000000000000000000001", privateKeyPem: keys.privateKeyPem };
const job = {
  id: "job_01jc000000000000000000000a",
  artifact: { name: "openvibe-skill-runner", version: "1.0.0" },
  skill: { slug: "text-tools", version: "2.0.1", tool: "slugify", integrity: `sha256:${"a".repeat(64)}` },
  inputs: [{ name: "job.json", media_id: "med_01JC00000000000000000000A1", sha256: "b".repeat(64), size_bytes: 10 }],
};
const times = { startedAt: new Date("2026-12-02T00:00:00Z"), finishedAt: new Date("2026-12-02T00:00:01Z") };
const base = { stderr: "", exit: 0, wall_ms: 20, max_rss_bytes: 1000 };

describe("signedResult", () => {
  it("signs a statement that matches the result it comes with", () => {
    const body = resultRequestSchema.parse(
      signedResult(identity, job, { ...base, status: "ok", output: { slug: "a" }, egress: [] }, times),
    );
    const { statement, signature } = body.attestation;
    expect(verifyStatement(statement, signature, keys.publicKey)).toBe(true);
    expect(statement).toMatchObject({
      job_id: job.id,
      link_id: identity.linkId,
      output_sha256: outputDigest({ slug: "a" }),
      started_at: "2026-12-02T00:00:00.000Z",
    });
    const run = {
      job_id: job.id,
      link_id: identity.linkId,
      artifact: job.artifact,
      integrity: job.skill.integrity,
      input_digest: inputDigest(job.inputs),
      status: body.status,
      output: body.output,
      stderr: body.stderr,
      wall_ms: body.wall_ms,
      max_rss_bytes: body.max_rss_bytes,
    };
    expect(statementMismatches(statement, run)).toEqual([]);
  });

  it("reports an output nested past the canonical bound as `output`, signed", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 400; i++) deep = [deep];
    const body = resultRequestSchema.parse(signedResult(identity, job, { ...base, status: "ok", output: deep }, times));
    expect(body.status).toBe("output");
    expect(body.output).toBeUndefined();
    expect(body.stderr).toMatch(/no RFC 8785 form/);
    expect(body.attestation.statement).toMatchObject({
      status: "output",
      output_sha256: outputDigest(null),
      egress: [],
    });
    expect(verifyStatement(body.attestation.statement, body.attestation.signature, keys.publicKey)).toBe(true);
  });
});
