// The demo catalogue: loads the bundles under scripts/demo/skills and records them as published skills
// (people, skills, versions, listings, pinned code in Media, scan findings). Idempotent: every row
// is keyed (email, slug, slug@version) and a second run creates and changes nothing.
import "server-only";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { hashPassword, verifyPassword } from "../../lib/auth/password";
import { createUser } from "../../lib/auth/users";
import { recordTopUp } from "../../lib/billing/ledger";
import { isCodeResource, loadBundle, sha256Hex, type SkillDocument } from "../../lib/contracts";
import { db } from "../../lib/db";
import { installSkill } from "../../lib/installs/service";
import { log } from "../../lib/log";
import { contentKey, mediaBackend } from "../../lib/media";
import { publishSkill } from "../../lib/registry/publish";
import { scanVersion } from "../../lib/registry/scan-version";
import { compareSemver } from "../../lib/registry/semver";
import { retireVersion } from "../../lib/registry/versions";

export const DEMO_SKILLS_DIR = path.resolve(import.meta.dirname, "../../scripts/demo/skills");

/** People of the demo. Only `demo` can sign in; the others exist to author skills. */
export const DEMO_PEOPLE = [
  { handle: "demo", email: "demo@openvibe.dev", name: "Demo Person", password: "openvibe-demo", firstParty: false },
  { handle: "ada", email: "ada@authors.openvibe.dev", name: "Ada Okafor", password: null, firstParty: false },
  { handle: "mika", email: "mika@authors.openvibe.dev", name: "Mika Laine", password: null, firstParty: false },
  { handle: "ovlabs", email: "labs@openvibe.dev", name: "OpenVibe Labs", password: null, firstParty: true },
] as const;

const demoMetaSchema = z.object({
  author: z.string(),
  installs: z.number().int().min(0),
  expected_scan: z.enum(["passed", "flagged", "failed"]),
  retired: z.boolean(),
  note: z.string().optional(),
  /** Calls of the skill's tools with the exact output they give; the bundle tests run them. */
  examples: z
    .array(z.object({ tool: z.string(), input: z.record(z.string(), z.unknown()), output: z.unknown() }))
    .default([]),
});

export type DemoMeta = z.infer<typeof demoMetaSchema>;
export type DemoBundle = { dir: string; document: SkillDocument; meta: DemoMeta };

/** Every bundle under `dir`, validated by the contract loader, oldest version of a slug first. */
export async function loadDemoBundles(dir = DEMO_SKILLS_DIR): Promise<DemoBundle[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  const bundles: DemoBundle[] = [];
  for (const entry of entries) {
    const bundleDir = path.join(dir, entry.name);
    const loaded = await loadBundle(bundleDir);
    if (!loaded.ok) {
      const lines = loaded.errors.map((e) => `  ${e.path || "/"} ${e.code}: ${e.message}`).join("\n");
      throw new Error(`Demo bundle ${entry.name} is not a valid skill:\n${lines}`);
    }
    const meta = demoMetaSchema.safeParse(JSON.parse(await readFile(path.join(bundleDir, "demo.json"), "utf8")));
    if (!meta.success) throw new Error(`Demo bundle ${entry.name}: demo.json is invalid: ${meta.error.message}`);
    bundles.push({ dir: bundleDir, document: loaded.document, meta: meta.data });
  }
  return bundles.sort(
    (a, b) => a.document.slug.localeCompare(b.document.slug) || compareSemver(a.document.version, b.document.version),
  );
}

/**
 * The demo.json of each bundle says which verdict the real scanner must reach; a demo skill that
 * scans differently is a broken demo (or a scanner regression), so seeding stops.
 */
function checkScanOutcome(bundle: DemoBundle, outcome: { status: string }) {
  if (outcome.status !== bundle.meta.expected_scan) {
    const { slug, version } = bundle.document;
    throw new Error(
      `${slug}@${version}: the scan says ${outcome.status}, demo.json expects ${bundle.meta.expected_scan}`,
    );
  }
}

/**
 * The demo people. Only `demo` has a password, and only with `demoSignIn`: without it a demo
 * person that still signs in with the published password loses it (so a deployment reachable
 * from elsewhere has no account anyone can guess). Returns whether demo sign-in works afterwards.
 */
async function ensurePeople(demoSignIn: boolean) {
  const people = new Map<string, { id: string; firstParty: boolean; created: boolean }>();
  let demoCanSignIn = false;
  for (const p of DEMO_PEOPLE) {
    const existing = await db.user.findUnique({
      where: { email: p.email },
      select: { id: true, handle: true, passwordHash: true },
    });
    if (existing && existing.handle !== p.handle) {
      throw new Error(
        `${p.email} exists with handle "${existing.handle}", not "${p.handle}": refusing to seed over it.`,
      );
    }
    const password = p.password && demoSignIn ? p.password : null;
    const id = existing?.id ?? (await createUser({ email: p.email, name: p.name, handle: p.handle, password })).id;
    if (existing && p.password) {
      const published = await verifyPassword(p.password, existing.passwordHash);
      if (demoSignIn && !published) {
        await db.user.update({ where: { id }, data: { passwordHash: await hashPassword(p.password) } });
      } else if (!demoSignIn && published) {
        await db.user.update({ where: { id }, data: { passwordHash: null } });
      }
    }
    if (p.password) demoCanSignIn = demoSignIn;
    people.set(p.handle, { id, firstParty: p.firstParty, created: !existing });
  }
  return { people, demoCanSignIn };
}

/** The exact bytes of each code resource, read from the bundle folder and checked against the document. */
async function codeBytes(bundle: DemoBundle): Promise<{ name: string; bytes: Buffer }[]> {
  const code = bundle.document.resources.filter(isCodeResource);
  return Promise.all(
    code.map(async (r) => {
      const bytes = await readFile(path.join(bundle.dir, r.name));
      if (!bytes.equals(Buffer.from(r.text, "utf8"))) throw new Error(`${r.name} changed while the bundle was loaded`);
      return { name: r.name, bytes };
    }),
  );
}

const DAY_MS = 86_400_000;

/** Publishes through the registry's one publish path, scans with the real scanner, retires if asked. */
async function publishVersion(bundle: DemoBundle, ownerId: string, publishedAt: Date) {
  const { document, meta } = bundle;
  const published = await publishSkill({ ownerId, document, publishedAt, scan: "none" });
  checkScanOutcome(bundle, await scanVersion(published.versionId));
  if (meta.retired) {
    const retiredAt = new Date(publishedAt.getTime() + 10 * DAY_MS);
    await retireVersion({ ownerId, slug: document.slug, version: document.version, retiredAt });
  }
}

/** Puts back pinned bytes the store lost (e.g. a wiped data folder under a kept database). */
async function restoreMissingBytes(bundle: DemoBundle, versionId: string): Promise<number> {
  const pins = await db.listingCode.findMany({ where: { listing: { versionId } }, include: { media: true } });
  const code = await codeBytes(bundle);
  let restored = 0;
  for (const pin of pins) {
    if (await mediaBackend().has(pin.media.storageKey)) continue;
    const c = code.find((x) => x.name === pin.name);
    if (!c || sha256Hex(c.bytes) !== pin.sha256)
      throw new Error(`Pinned bytes of ${pin.name} are missing and the bundle no longer has them`);
    await mediaBackend().put(contentKey(pin.sha256), c.bytes, pin.media.mediaType);
    restored++;
  }
  return restored;
}

export type SeedReport = {
  people: number;
  /** Whether demo@openvibe.dev signs in with the published demo password after this seed. */
  demoSignIn: boolean;
  skills: number;
  versionsCreated: number;
  versionsKept: number;
  bytesRestored: number;
};

/**
 * Seeds the demo catalogue; safe to run any number of times. `demoSignIn: false` seeds the same
 * catalogue without a demo account anyone can sign in to (see ensurePeople).
 */
export async function seedDemo(
  dir = DEMO_SKILLS_DIR,
  { demoSignIn = true }: { demoSignIn?: boolean } = {},
): Promise<SeedReport> {
  const bundles = await loadDemoBundles(dir);
  const { people, demoCanSignIn } = await ensurePeople(demoSignIn);
  const report: SeedReport = {
    people: people.size,
    demoSignIn: demoCanSignIn,
    skills: 0,
    versionsCreated: 0,
    versionsKept: 0,
    bytesRestored: 0,
  };
  const slugs = [...new Set(bundles.map((b) => b.document.slug))];
  // Deterministic, spread-out publish dates so lists sort the way a real catalogue would.
  const now = Date.now();

  for (const [slugIndex, slug] of slugs.entries()) {
    const versions = bundles.filter((b) => b.document.slug === slug);
    const newest = versions.at(-1)!;
    const author = people.get(newest.meta.author);
    if (!author) throw new Error(`${slug}: unknown demo author "${newest.meta.author}"`);
    if (versions.some((v) => v.meta.author !== newest.meta.author))
      throw new Error(`${slug}: every version needs the same author`);

    const existing = await db.skill.findUnique({ where: { slug }, select: { id: true, ownerId: true } });
    if (existing && existing.ownerId !== author.id)
      throw new Error(`${slug} is owned by someone else: refusing to seed over it.`);
    const installsCount = Math.max(...versions.map((v) => v.meta.installs));
    const trust = author.firstParty ? "first_party" : "community";
    const skill =
      existing ??
      (await db.skill.create({
        data: { slug, ownerId: author.id, trust, installsCount },
        select: { id: true, ownerId: true },
      }));
    report.skills++;

    for (const [i, bundle] of versions.entries()) {
      const { version, integrity } = bundle.document;
      const published = await db.skillVersion.findUnique({
        where: { skillId_version: { skillId: skill.id, version } },
        select: { id: true, integrity: true },
      });
      if (published) {
        if (published.integrity !== integrity) {
          throw new Error(
            `${slug}@${version} is already published with different content; publish a new version instead.`,
          );
        }
        report.versionsKept++;
        report.bytesRestored += await restoreMissingBytes(bundle, published.id);
        continue;
      }
      const daysAgo = 3 + slugIndex * 2 + (versions.length - 1 - i) * 30;
      await publishVersion(bundle, author.id, new Date(now - daysAgo * DAY_MS));
      report.versionsCreated++;
    }
  }
  // A new demo person starts with a sandbox and a prompt skill installed and a small demo balance,
  // so an MCP client (or the REST API) lists and runs something at once; later seeds never undo
  // what the person changed since.
  const demo = people.get("demo");
  if (demo?.created) {
    await recordTopUp({ userId: demo.id, amountMicros: DEMO_BALANCE_MICROS, paymentId: `demo-seed-${demo.id}`, memo: "Demo balance" });
    for (const slug of DEMO_INSTALLS) {
      const newest = bundles.filter((b) => b.document.slug === slug && !b.meta.retired).at(-1);
      if (newest) await installSkill({ userId: demo.id, slug, version: newest.document.version });
    }
  }
  log.info("demo catalogue seeded", report);
  return report;
}

const DEMO_INSTALLS = ["text-tools", "code-review-checklist"];
const DEMO_BALANCE_MICROS = 5_000_000n;
