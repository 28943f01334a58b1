// Building blocks for the run-path integration tests: Links as rows (with the principal a signed
// request would give), pending steps of a published version, and Link results.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { generateLinkKeyPair, jobSchema, type JobResultBody, type LinkRunResult } from "../../lib/protocol";
import type { IntegrationEnv } from "./integration";

export type TestLink = {
  linkId: string;
  userId: string;
  name: string;
  runner: "on" | "off";
  pool: boolean;
  /** The Link's key, so its results can be signed as `openvibe-link` signs them. */
  privateKeyPem: string;
};

export async function linkFor(
  env: IntegrationEnv,
  userId: string,
  opts: { runner?: boolean; pool?: boolean; approved?: boolean; name?: string } = {},
): Promise<TestLink> {
  const keys = generateLinkKeyPair();
  const link = await env.db.link.create({
    data: {
      userId,
      name: opts.name ?? `machine-${randomBytes(2).toString("hex")}`,
      publicKey: keys.publicKey,
      runnerEnabled: opts.runner ?? true,
      poolOffer: opts.pool ?? false,
      poolApprovedAt: opts.approved ? new Date() : null,
      lastSeenAt: new Date(),
    },
  });
  return {
    linkId: link.id,
    userId,
    name: link.name,
    runner: link.runnerEnabled ? "on" : "off",
    pool: link.poolOffer,
    privateKeyPem: keys.privateKeyPem,
  };
}

/** One poll of this Link as `openvibe-link run` makes it (reporting its state), without waiting. */
export async function claim(link: TestLink, waitMs = 0) {
  const { pollForJob } = await import("../../lib/runs");
  return pollForJob(link, { runner: link.runner, runner_epoch: 0, pool: link.pool, wait_ms: waitMs });
}

export async function pendingStep(
  env: IntegrationEnv,
  p: { userId: string; projectId: string; versionId: string; tool?: string; expiresInMs?: number; agentId?: string },
) {
  const tool = p.tool ?? "slugify";
  return env.db.step.create({
    data: {
      userId: p.userId,
      projectId: p.projectId,
      versionId: p.versionId,
      agentId: p.agentId ?? null,
      kind: "skill.run",
      label: "running a skill's code in a sandbox",
      target: `text-tools@2.0.1 ${tool}`,
      tool,
      input: { text: "Hello World" },
      net: "deny",
      expiresAt: new Date(Date.now() + (p.expiresInMs ?? 600_000)),
    },
  });
}

export const ok = (output: unknown, wall = 1500) => ({
  status: "ok" as const,
  output,
  stderr: "",
  exit: 0,
  wall_ms: wall,
  max_rss_bytes: 1000,
});

/** A result as this Link reports it, signed over the job as the server placed it. */
export async function signed(link: TestLink, jobId: string, result: LinkRunResult): Promise<JobResultBody> {
  const { signedResult } = await import("../../link/remote/attest");
  const { jobForLink } = await import("../../lib/runs");
  const { db } = await import("../../lib/db");
  const job = await db.runJob.findUniqueOrThrow({
    where: { id: jobId },
    include: { version: { select: { version: true, integrity: true, skill: { select: { slug: true } } } } },
  });
  const request = signedResult(
    { linkId: link.linkId, privateKeyPem: link.privateKeyPem },
    jobSchema.parse(jobForLink(job)),
    result,
    { startedAt: new Date(), finishedAt: new Date() },
  );
  return {
    ...request,
    stderr: request.stderr ?? "",
    exit: request.exit ?? null,
    max_rss_bytes: request.max_rss_bytes ?? null,
  };
}

/** Reports a result as the Link `link` (signed), through the server's result handling. */
export async function report(link: TestLink, jobId: string, result: LinkRunResult) {
  const { recordResult } = await import("../../lib/runs");
  return recordResult(link, jobId, await signed(link, jobId, result));
}

/** The sum of a job's ledger entries: 0 when its hold came back in full. */
export async function ledgerSum(env: IntegrationEnv, jobId: string): Promise<bigint> {
  const entries = await env.db.ledgerEntry.findMany({ where: { jobId } });
  return entries.reduce((n, e) => n + e.amountMicros, 0n);
}

/** A person with the demo text-tools published, scanned and installed, and 10 USD to run it with. */
export async function textToolsPerson(email: string) {
  const { createUser, getDefaultProject } = await import("../../lib/auth/users");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { loadBundle } = await import("../../lib/contracts");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  const person = await createUser({ email, name: email.split("@")[0]!, password: null });
  const projectId = (await getDefaultProject(person.id))!.id;
  const bundle = await loadBundle(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  const { versionId } = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
  await scanVersion(versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
  await recordTopUp({ userId: person.id, amountMicros: 10_000_000n, paymentId: email, memo: "test" });
  return { person, projectId, versionId };
}

/** Closes the queues and the event bus a run-path test opened. */
export async function closeRunPath(): Promise<void> {
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
}
