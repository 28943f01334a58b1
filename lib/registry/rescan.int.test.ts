// Rescan on upgrade against the real PostgreSQL: versions whose verdict came from an older scanner
// (here: the entry-only scanner, which never read helpers) are rescanned through the scan queue's
// own job; a worse verdict updates the listing, revokes "always allow", tells each install why and
// is audited, and the next call has to ask again.
import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { ECHO_CODE, sandboxSkill } from "../../test/helpers/install-fixtures";
import { JOBS } from "../jobs";

const OLD_SCANNER = "2026.11-entry-only";

let env: IntegrationEnv;
let registry: typeof import("./index");
let installs: typeof import("../installs");
let SCANNER_VERSION: string;

async function user(label: string) {
  const { createUser } = await import("../auth/users");
  return createUser({
    email: `${label}-${Math.random().toString(36).slice(2)}@example.test`,
    name: label,
    password: null,
  });
}

/** Publishes and scans with the current scanner, then rewrites the row as the old scanner left it. */
async function publishAsOldScanner(ownerId: string, document: Record<string, unknown>) {
  const contracts = await import("../contracts");
  const r = contracts.validateSkillDocument(document);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const p = await registry.publishSkill({ ownerId, document: r.document, scan: "none" });
  await registry.scanVersion(p.versionId);
  const listing = await env.db.listing.findUniqueOrThrow({ where: { versionId: p.versionId } });
  await env.db.scanFinding.deleteMany({ where: { listingId: listing.id } });
  await env.db.listing.update({ where: { id: listing.id }, data: { findingsHash: null } });
  await env.db.skillVersion.update({
    where: { id: p.versionId },
    data: { status: "passed", scannerVersion: OLD_SCANNER },
  });
  return { id: p.versionId, slug: p.slug, version: p.version };
}

function withHelper(slug: string, helper: string, net: "deny" | "openvibe-only" = "deny") {
  const doc = sandboxSkill({
    slug,
    version: "1.0.0",
    tools: [{ name: "echo", net }],
    code: `require("./helper.js");\n${ECHO_CODE}`,
  });
  doc.resources.push({ name: "tools/helper.js", media_type: "text/javascript", text: helper });
  return doc;
}

beforeAll(async () => {
  env = await setupIntegration("rescan");
  registry = await import("./index");
  installs = await import("../installs");
  SCANNER_VERSION = (await import("../scan")).SCANNER_VERSION;
}, 120_000);

afterAll(async () => {
  await registry?.scanQueue().close();
  await env?.teardown();
});

describe("rescan on a scanner upgrade", () => {
  it("rescans every version from an older scanner; a worse verdict revokes, explains and audits", async () => {
    const author = await user("author");
    const person = await user("person");
    const helperEnv = await publishAsOldScanner(
      author.id,
      withHelper("rescan-env", "module.exports = process.env.TOKEN;\n"),
    );
    const helperNet = await publishAsOldScanner(
      author.id,
      withHelper("rescan-net", 'fetch("https://api.openvibe.services/v1/ping");\n', "openvibe-only"),
    );
    const clean = await publishAsOldScanner(
      author.id,
      sandboxSkill({ slug: "rescan-clean", version: "1.0.0", tools: [{ name: "echo" }] }),
    );
    for (const v of [helperEnv, helperNet, clean]) {
      await installs.installSkill({ userId: person.id, slug: v.slug, version: v.version });
      await installs.grantAlwaysAllow({ userId: person.id, versionId: v.id, tool: "echo" });
    }
    expect(await registry.hasOutdatedScans()).toBe(true);

    // the scan queue's own job, as a worker runs it
    const { processorFor } = await import("../../workers/registry");
    const { scanQueueDefinition } = await import("../../workers/scan");
    const run = processorFor(scanQueueDefinition);
    const result = await run({ name: JOBS.scanRescan.name, data: {}, id: "t" } as unknown as Job);
    expect(result).toMatchObject({ worse: 2, more: false });

    const rows = await env.db.skillVersion.findMany({
      where: { id: { in: [helperEnv.id, helperNet.id, clean.id] } },
      select: { id: true, status: true, scannerVersion: true },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(helperEnv.id)).toMatchObject({ status: "failed", scannerVersion: SCANNER_VERSION });
    expect(byId.get(helperNet.id)).toMatchObject({ status: "flagged", scannerVersion: SCANNER_VERSION });
    expect(byId.get(clean.id)).toMatchObject({ status: "passed", scannerVersion: SCANNER_VERSION });

    // the listing shows the helper's finding, named by tool and resource
    const findings = await env.db.scanFinding.findMany({ where: { listing: { versionId: helperEnv.id } } });
    expect(findings.map((f) => [f.tool, f.resource, f.ruleId])).toEqual([["echo", "tools/helper.js", "env.read"]]);
    const listing = await env.db.listing.findUniqueOrThrow({ where: { versionId: helperEnv.id } });
    expect(listing.findingsHash).not.toBeNull();

    // "always allow" stops working for the worse versions only
    expect(await installs.hasAlwaysAllow({ userId: person.id, versionId: helperEnv.id, tool: "echo" })).toBe(false);
    expect(await installs.hasAlwaysAllow({ userId: person.id, versionId: helperNet.id, tool: "echo" })).toBe(false);
    expect(await installs.hasAlwaysAllow({ userId: person.id, versionId: clean.id, tool: "echo" })).toBe(true);

    // My skills says why
    const mine = new Map((await installs.listInstalls(person.id)).map((i) => [i.slug, i]));
    expect(mine.get("rescan-env")).toMatchObject({
      status: "failed",
      blocked: "scan_failed",
      rescan: {
        from: "passed",
        to: "failed",
        rules: ["env.read"],
        grants_revoked: 1,
        scanner_version: SCANNER_VERSION,
      },
    });
    expect(mine.get("rescan-net")).toMatchObject({
      blocked: "findings_changed",
      rescan: { from: "passed", to: "flagged", rules: ["net.use"], grants_revoked: 1 },
    });
    expect(mine.get("rescan-clean")!.rescan).toBeNull();

    // the next call does not run on the old say-so: failed is refused, flagged asks for the
    // findings to be confirmed, and once they are, the tool asks for approval again
    await expect(
      installs.requireRunnableInstall({ userId: person.id, slug: "rescan-env", version: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "step.scan_blocked",
    });
    await expect(
      installs.requireRunnableInstall({ userId: person.id, slug: "rescan-net", version: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "step.scan_blocked",
    });
    const netListing = await env.db.listing.findUniqueOrThrow({ where: { versionId: helperNet.id } });
    await installs.installSkill({
      userId: person.id,
      slug: "rescan-net",
      version: "1.0.0",
      findingsAck: netListing.findingsHash,
    });
    await installs.requireRunnableInstall({ userId: person.id, slug: "rescan-net", version: "1.0.0" });
    expect(await installs.hasAlwaysAllow({ userId: person.id, versionId: helperNet.id, tool: "echo" })).toBe(false);

    // the audit has it, for the person and for the author
    const events = await env.db.auditEvent.findMany({
      where: { action: "scan.verdict_worse", subjectId: helperEnv.id },
    });
    expect(events.map((e) => e.userId).sort()).toEqual([author.id, person.id].sort());
    expect(events.every((e) => e.actor === "system:scanner")).toBe(true);
    expect(events.find((e) => e.userId === person.id)!.data).toMatchObject({
      slug: "rescan-env",
      from: "passed",
      to: "failed",
      rules: ["env.read"],
      grants_revoked: 1,
    });

    // done once: nothing is left for the sweep, and a second run changes nothing
    expect(await registry.hasOutdatedScans()).toBe(false);
    expect(await registry.rescanOutdated()).toEqual({ rescanned: [], more: false });
    expect(await env.db.auditEvent.count({ where: { action: "scan.verdict_worse" } })).toBe(events.length + 2);
  });

  it("a new publish is stamped with the current scanner and never rescanned", async () => {
    const author = await user("author2");
    const contracts = await import("../contracts");
    const r = contracts.validateSkillDocument(
      sandboxSkill({ slug: "rescan-fresh", version: "1.0.0", tools: [{ name: "echo" }] }),
    );
    if (!r.ok) throw new Error("invalid");
    const p = await registry.publishSkill({ ownerId: author.id, document: r.document, scan: "none" });
    await registry.scanVersion(p.versionId);
    const row = await env.db.skillVersion.findUniqueOrThrow({ where: { id: p.versionId } });
    expect(row).toMatchObject({ status: "passed", scannerVersion: SCANNER_VERSION });
    expect(await registry.rescanVersion(p.versionId)).toBeNull();
  });
});
