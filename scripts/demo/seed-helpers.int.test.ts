// The demo seed against a throw-away database: what it records, and that running it again (through
// the real `npm run seed` entry point) changes nothing.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../test/helpers/test-database";
import { removeTempDir, tempDir } from "../../test/helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
let database: ThrowawayDatabase;
let dataDir: string;
let seed: typeof import("./seed-helpers");
let media: typeof import("../../lib/media");
let dbModule: typeof import("../../lib/db");

beforeAll(async () => {
  database = await createThrowawayDatabase("ov_it_seed");
  dataDir = tempDir("seed-int");
  vi.stubEnv("DATABASE_URL", database.url);
  vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
  vi.stubEnv("AUTH_SECRET", "s".repeat(40));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("BLOB_READ_WRITE_TOKEN", "");
  vi.stubEnv("LOG_LEVEL", "error");
  seed = await import("./seed-helpers");
  media = await import("../../lib/media");
  dbModule = await import("../../lib/db");
}, 120_000);

afterAll(async () => {
  await dbModule?.db.$disconnect();
  await database?.drop();
  removeTempDir(dataDir);
  vi.unstubAllEnvs();
});

async function snapshot() {
  const { db } = dbModule;
  return {
    users: await db.user.findMany({
      select: { id: true, email: true, handle: true, updatedAt: true },
      orderBy: { id: "asc" },
    }),
    projects: await db.project.count(),
    skills: await db.skill.findMany({ orderBy: { id: "asc" } }),
    versions: await db.skillVersion.findMany({ orderBy: { id: "asc" } }),
    listings: await db.listing.findMany({ orderBy: { id: "asc" } }),
    code: await db.listingCode.findMany({ orderBy: { id: "asc" } }),
    media: await db.mediaObject.findMany({ orderBy: { id: "asc" } }),
    findings: await db.scanFinding.findMany({ orderBy: { id: "asc" } }),
  };
}

describe("demo seed", () => {
  let first: Awaited<ReturnType<typeof snapshot>>;

  it("records people, skills of every kind and outcome, listings, pinned code and findings", async () => {
    const report = await seed.seedDemo();
    expect(report.versionsCreated).toBe(10);
    first = await snapshot();
    const { db } = dbModule;

    const demo = await db.user.findUniqueOrThrow({
      where: { email: "demo@openvibe.dev" },
      omit: { passwordHash: false },
    });
    expect(demo.handle).toBe("demo");
    // A new demo person has a sandbox and a prompt skill installed (so MCP clients list something).
    expect((await db.install.findMany({ where: { userId: demo.id }, include: { skill: true } })).map((i) => i.skill.slug).sort()).toEqual([
      "code-review-checklist",
      "text-tools",
    ]);
    expect(await db.ledgerEntry.count({ where: { userId: demo.id, kind: "topup" } })).toBe(1);
    const { verifyPassword } = await import("../../lib/auth/password");
    expect(await verifyPassword("openvibe-demo", demo.passwordHash)).toBe(true);

    expect(first.skills.length).toBeGreaterThanOrEqual(8);
    expect(new Set(first.skills.map((s) => s.ownerId)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(first.versions.map((v) => v.runs))).toEqual(new Set(["prompt", "sandbox"]));
    expect(new Set(first.versions.map((v) => v.status))).toEqual(new Set(["passed", "flagged", "failed"]));
    const retired = first.versions.filter((v) => v.retiredAt);
    expect(retired.map((v) => v.version)).toEqual(["1.0.0"]);
    expect(first.skills.find((s) => s.id === retired[0]!.skillId)?.slug).toBe("unit-convert");

    for (const v of first.versions) {
      const listing = first.listings.find((l) => l.versionId === v.id)!;
      expect(listing.contract).toBe(v.runs === "sandbox" ? "actor.skill-listing@2" : "actor.skill-listing@1");
      const findings = first.findings.filter((f) => f.listingId === listing.id);
      if (v.status === "passed") expect(findings).toEqual([]);
      if (v.status === "flagged") expect(findings.map((f) => f.severity)).toEqual(["flag"]);
      if (v.status === "failed") expect(findings.some((f) => f.severity === "fail")).toBe(true);
      expect(listing.findingsHash === null).toBe(findings.length === 0);
      const pins = first.code.filter((c) => c.listingId === listing.id);
      expect(pins.length > 0).toBe(v.runs === "sandbox");
    }
    // The failed example's findings point at the real lines of its code.
    const envRead = first.findings.find((f) => f.ruleId === "env.read")!;
    expect(envRead.excerpt).toContain("process.env");
  });

  it("pins the exact bytes of every code resource, readable and verified through Media", async () => {
    const bundles = await seed.loadDemoBundles();
    for (const pin of first.code) {
      const { object, bytes } = await media.getMedia(pin.mediaId);
      expect(media.sha256Hex(bytes)).toBe(pin.sha256);
      expect(object.sizeBytes).toBe(pin.sizeBytes);
      const listing = first.listings.find((l) => l.id === pin.listingId)!;
      const version = first.versions.find((v) => v.id === listing.versionId)!;
      const bundle = bundles.find((b) => b.document.integrity === version.integrity)!;
      expect(bytes).toEqual(await readFile(path.join(bundle.dir, pin.name)));
      const doc = version.document as { resources: { name: string; text: string }[] };
      expect(Buffer.from(doc.resources.find((r) => r.name === pin.name)!.text, "utf8")).toEqual(bytes);
    }
  });

  it("running `npm run seed`'s entry point again changes nothing", () => {
    const run = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("0 versions published now, 10 already there");
    return snapshot().then((second) => expect(second).toEqual(first));
  });

  it("puts back code bytes a wiped store lost, without new rows", async () => {
    const pin = first.code[0]!;
    const key = media.contentKey(pin.sha256);
    await media.mediaBackend().delete(key);
    await expect(media.getMedia(pin.mediaId)).rejects.toMatchObject({ code: "media.bytes_missing" });
    const report = await seed.seedDemo();
    expect(report.versionsCreated).toBe(0);
    expect(report.bytesRestored).toBeGreaterThanOrEqual(1);
    expect(media.sha256Hex((await media.getMedia(pin.mediaId)).bytes)).toBe(pin.sha256);
    expect(await snapshot()).toEqual(first);
  });

  it("on a site that is not loopback there is no demo sign-in, unless `npm run seed -- --demo` asks for it", async () => {
    const { db } = dbModule;
    const { verifyPassword } = await import("../../lib/auth/password");
    const demoHash = async () =>
      (await db.user.findUniqueOrThrow({ where: { email: "demo@openvibe.dev" }, omit: { passwordHash: false } }))
        .passwordHash;
    const seedAt = (appUrl: string, ...args: string[]) =>
      spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts", ...args], {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 120_000,
        env: { ...process.env, APP_URL: appUrl },
      });

    const production = seedAt("https://skills.example.com");
    expect(production.status).toBe(0);
    expect(production.stdout).toContain("No demo sign-in");
    expect(production.stdout).not.toContain("openvibe-demo");
    expect(await demoHash()).toBeNull();
    // The catalogue is untouched: the demo person still authors its skills.
    expect((await snapshot()).skills).toEqual(first.skills);

    const onPurpose = seedAt("https://skills.example.com", "--demo");
    expect(onPurpose.status).toBe(0);
    expect(onPurpose.stdout).toContain("demo@openvibe.dev can sign in");
    expect(await verifyPassword("openvibe-demo", await demoHash())).toBe(true);

    expect(seedAt("http://localhost:3000", "--bogus").status).toBe(2);
  });
});
