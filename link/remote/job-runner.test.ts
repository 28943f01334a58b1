// What a Link refuses before anything runs: a job of another class or runner (run.job.unsupported),
// and a job of a version the server revoked (run.job.revoked), even one it already claimed.
import { describe, expect, it } from "vitest";
import { jobSchema, type Job } from "../../lib/protocol";
import { refusalFor } from "./job-runner";

const job: Job = jobSchema.parse({
  id: "job_01jc000000000000000000000a",
  class: "function",
  artifact: { name: "openvibe-skill-runner", version: "1.0.0" },
  skill: { slug: "text-tools", version: "2.0.1", tool: "slugify", integrity: `sha256:${"a".repeat(64)}` },
  inputs: [{ name: "job.json", media_id: "med_01JC00000000000000000000A1", sha256: "b".repeat(64), size_bytes: 10 }],
  net: "deny",
  limits: { wall_ms: 10_000, mem_bytes: 134_217_728 },
  ttl_ms: 120_000,
  expires_at: new Date(0).toISOString(),
});

describe("refusalFor", () => {
  it("runs a function job of openvibe-skill-runner@1.0.0 whose version is not revoked", () => {
    expect(refusalFor(job, new Set())).toBeNull();
  });

  it.each([
    ["another class", { ...job, class: "container" }],
    ["another runner", { ...job, artifact: { name: "openvibe-codes", version: "1.0.0" } }],
    ["another runner version", { ...job, artifact: { name: "openvibe-skill-runner", version: "1.0.1" } }],
  ])("refuses %s with run.job.unsupported", (_what, odd) => {
    expect(refusalFor(odd, new Set())).toMatchObject({ code: "run.job.unsupported" });
  });

  it("refuses a revoked version with run.job.revoked", () => {
    expect(refusalFor(job, new Set([job.skill.integrity]))).toMatchObject({ code: "run.job.revoked" });
    expect(refusalFor(job, new Set([`sha256:${"c".repeat(64)}`]))).toBeNull();
  });

  it("reads only what the protocol says a job is: an unknown net, limits over the caps, a path that climbs out", () => {
    expect(jobSchema.safeParse({ ...job, net: "openvibe_only" }).success).toBe(false);
    expect(jobSchema.safeParse({ ...job, limits: { wall_ms: 30_001, mem_bytes: 134_217_728 } }).success).toBe(false);
    expect(jobSchema.safeParse({ ...job, inputs: [{ ...job.inputs[0], name: "../x.js" }] }).success).toBe(false);
    expect(jobSchema.safeParse({ ...job, extra: 1 }).success).toBe(false);
  });
});
