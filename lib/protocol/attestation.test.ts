import { describe, expect, it } from "vitest";
import {
  ATTESTATION_PREFIX,
  inputDigest,
  keyIdOf,
  outputDigest,
  signStatement,
  statementBytes,
  statementMismatches,
  stderrDigest,
  STATEMENT_TYPE,
  verifyStatement,
  type RunStatement,
} from "./attestation";
import { generateLinkKeyPair } from "./signing";

const inputs = [
  { name: "tools/a.js", sha256: "a".repeat(64), size_bytes: 10 },
  { name: "job.json", sha256: "b".repeat(64), size_bytes: 20 },
];
const statement: RunStatement = {
  type: STATEMENT_TYPE,
  job_id: "job_01jc000000000000000000000a",
  link_id: "clink000000000000000000001",
  artifact: { name: "openvibe-skill-runner", version: "1.0.0" },
  skill: { slug: "text-tools", version: "2.0.1", tool: "slugify" },
  integrity: `sha256:${"c".repeat(64)}`,
  input_digest: inputDigest(inputs),
  output_sha256: outputDigest({ slug: "hello" }),
  stderr_sha256: stderrDigest(""),
  status: "ok",
  wall_ms: 12,
  max_rss_bytes: null,
  started_at: "2026-12-02T00:00:00.000Z",
  finished_at: "2026-12-02T00:00:01.000Z",
  egress: [],
};
const run = {
  job_id: statement.job_id,
  link_id: statement.link_id,
  artifact: statement.artifact,
  integrity: statement.integrity,
  input_digest: inputDigest([...inputs].reverse()),
  status: "ok",
  output: { slug: "hello" },
  stderr: "",
  wall_ms: 12,
  max_rss_bytes: null,
};

describe("run attestations", () => {
  const keys = generateLinkKeyPair();

  it("signs the prefix and the canonical statement, and verifies with the public key only", () => {
    expect(
      statementBytes(statement)
        .toString("utf8")
        .startsWith(ATTESTATION_PREFIX + '{"artifact":'),
    ).toBe(true);
    const { signature } = signStatement(statement, keys.privateKeyPem);
    expect(verifyStatement(statement, signature, keys.publicKey)).toBe(true);
    expect(verifyStatement({ ...statement, wall_ms: 13 }, signature, keys.publicKey)).toBe(false);
    expect(verifyStatement(statement, signature, generateLinkKeyPair().publicKey)).toBe(false);
    expect(verifyStatement(statement, "A".repeat(86), keys.publicKey)).toBe(false);
    expect(verifyStatement(statement, signature, "not a key")).toBe(false);
  });

  it("digests inputs independent of order, output by its canonical form", () => {
    expect(inputDigest(inputs)).toBe(inputDigest([...inputs].reverse()));
    expect(outputDigest({ b: 1, a: 2 })).toBe(outputDigest({ a: 2, b: 1 }));
    expect(outputDigest(undefined)).toBe(outputDigest(null));
    expect(keyIdOf(keys.publicKey)).toMatch(/^ed25519:[0-9a-f]{64}$/);
  });

  it("names every field that does not match the run", () => {
    expect(statementMismatches(statement, run)).toEqual([]);
    expect(statementMismatches(statement, { ...run, output: { slug: "hellp" }, stderr: "x", status: "error" })).toEqual(
      ["status", "output_sha256", "stderr_sha256"],
    );
    expect(statementMismatches({ ...statement, finished_at: "2025-01-01T00:00:00.000Z" }, run)).toEqual([
      "finished_at",
    ]);
  });
});
