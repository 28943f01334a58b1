// Every listing the registry serves is valid against its contract: the whole demo catalogue and
// every valid contract fixture is published and scanned, then each version's listing, as the
// listing route serves it, is checked with validateListing against its own document. A prompt
// actor.skill@2 is listed as actor.skill-listing@2. Deleting a version takes its listing's Media
// (rows and bytes) with it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(ROOT, "test/fixtures/contracts");
let env: IntegrationEnv;
let registry: typeof import("../../lib/registry");
let contracts: typeof import("../../lib/contracts");
let author: { id: string };

beforeAll(async () => {
  env = await setupIntegration("listings");
  registry = await import("../../lib/registry");
  contracts = await import("../../lib/contracts");
  const { createUser } = await import("../../lib/auth/users");
  author = await createUser({ email: "lister@example.test", name: "Lister", password: null });
  await (await import("../../scripts/demo/seed-helpers")).seedDemo();
  const documents = readdirSync(path.join(FIXTURES, "skills/valid")).map((f) =>
    JSON.parse(readFileSync(path.join(FIXTURES, "skills/valid", f), "utf8")),
  );
  for (const dir of readdirSync(path.join(FIXTURES, "bundles"))) {
    const bundle = await contracts.loadBundle(path.join(FIXTURES, "bundles", dir));
    if (!bundle.ok) throw new Error(`fixture bundle ${dir}`);
    documents.push(bundle.document);
  }
  for (const fixture of documents) {
    // Fixtures share slugs with the demo catalogue: published under their own (integrity recomputed).
    const { integrity: _stated, ...rest } = fixture;
    void _stated;
    const raw = { ...rest, slug: `fx-${fixture.slug}`.slice(0, 64) };
    const checked = contracts.validateSkillDocument(raw);
    if (!checked.ok) throw new Error(`fixture ${raw.slug}: ${JSON.stringify(checked.errors)}`);
    const published = await registry.publishSkill({ ownerId: author.id, document: checked.document, scan: "none" });
    await registry.scanVersion(published.versionId);
  }
}, 240_000);

afterAll(async () => {
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("served listings", () => {
  it("every version's listing validates against its contract and its document", async () => {
    const { GET } = await import("../../app/api/v1/skills/[slug]/[version]/listing/route");
    const versions = await env.db.skillVersion.findMany({ include: { skill: true } });
    expect(versions.length).toBeGreaterThanOrEqual(14);
    const contractsSeen = new Set<string>();
    for (const v of versions) {
      const res = await GET(new Request(`http://local/api/v1/skills/${v.skill.slug}/${v.version}/listing`), {
        params: Promise.resolve({ slug: v.skill.slug, version: v.version }),
      });
      expect(res.status, `${v.skill.slug}@${v.version}`).toBe(200);
      const listing = await res.json();
      const checked = contracts.validateListing(listing, v.document);
      expect(checked.ok ? [] : checked.errors, `${v.skill.slug}@${v.version}`).toEqual([]);
      // A listing follows its document's major, prompt or sandbox.
      expect(listing.contract).toBe(v.contract === "actor.skill@2" ? "actor.skill-listing@2" : "actor.skill-listing@1");
      contractsSeen.add(`${v.contract} ${v.runs}`);
    }
    expect([...contractsSeen].sort()).toEqual(["actor.skill@1 prompt", "actor.skill@2 prompt", "actor.skill@2 sandbox"]);
  });

  it("deleting an unused version deletes its listing's Media, rows and bytes; a used one is refused", async () => {
    const doc = JSON.parse(readFileSync(path.join(FIXTURES, "skills/valid/text-kit.json"), "utf8"));
    doc.slug = `fx-${doc.slug}`;
    const version = await env.db.skillVersion.findFirstOrThrow({
      where: { skill: { slug: doc.slug }, version: doc.version },
      include: { listing: { include: { code: { include: { media: true } } } } },
    });
    const code = version.listing!.code;
    expect(code.length).toBeGreaterThan(0);
    const { mediaBackend } = await import("../../lib/media");
    for (const c of code) await expect(mediaBackend().get(c.media.storageKey)).resolves.toBeTruthy();
    const done = await registry.deleteVersion({ slug: doc.slug, version: doc.version });
    expect(done.media_deleted).toBe(code.length);
    expect(await env.db.listing.count({ where: { versionId: version.id } })).toBe(0);
    expect(await env.db.mediaObject.count({ where: { id: { in: code.map((c) => c.mediaId) } } })).toBe(0);
    // Bytes no other Media row names are gone from the store too.
    for (const c of code) {
      if ((await env.db.mediaObject.count({ where: { sha256: c.sha256 } })) > 0) continue;
      await expect(mediaBackend().get(c.media.storageKey)).rejects.toThrow();
    }
    expect(done.bytes_deleted).toBeGreaterThan(0);
    // A version someone installed is retired, never deleted.
    const { installSkill } = await import("../../lib/installs");
    const csv = await env.db.skillVersion.findFirstOrThrow({ where: { skill: { slug: "csv-stats" }, status: "passed" }, include: { skill: true } });
    await installSkill({ userId: author.id, slug: csv.skill.slug, version: csv.version });
    await expect(registry.deleteVersion({ slug: csv.skill.slug, version: csv.version })).rejects.toMatchObject({
      code: "skill.version_in_use",
      status: 409,
    });
  });
});
