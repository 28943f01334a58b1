// The transparency log's HTTP endpoints over a real server and database: the checkpoint is a C2SP
// signed note over the stored tree, every proof verifies with the client's own code, entries page
// within bounds, and every bad parameter is a 4xx with a stable code, never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashLeaf } from "../../lib/tlog/hash";
import { decodeBase64, openNote, parseCheckpoint, parseVerifierKey } from "../../lib/tlog/note";
import { verifyConsistency, verifyInclusion } from "../../lib/tlog/verify";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";
import { demoDocument } from "../helpers/skill-docs";
import { tlogRoutes } from "../helpers/tlog-routes";

let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let registry: typeof import("../../lib/registry");

const get = (path: string) => fetch(`${server.url}${path}`);
const getJson = async (path: string) => {
  const res = await get(path);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const b64 = (s: string) => decodeBase64(s)!;

beforeAll(async () => {
  env = await setupIntegration("tlogapi");
  registry = await import("../../lib/registry");
  server = await serveRoutes(await tlogRoutes());
  const { createUser } = await import("../../lib/auth/users");
  const author = await createUser({ email: "tlogapi@example.test", name: "Api", password: null });
  for (let i = 0; i < 6; i++) {
    const document = await demoDocument(i % 2 ? "commit-message-style" : "text-tools", {
      slug: `api-skill-${i}`,
      version: "1.0.0",
    });
    await registry.publishSkill({ ownerId: author.id, document, scan: "none" });
  }
  await registry.retireVersion({ ownerId: author.id, slug: "api-skill-0", version: "1.0.0" });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await registry?.scanQueue().close();
  await env?.teardown();
});

describe("GET /api/v1/log/key and /checkpoint", () => {
  it("serves the key and a checkpoint it signed over the stored tree", async () => {
    const key = await getJson("/api/v1/log/key");
    expect(key.status).toBe(200);
    const verifier = parseVerifierKey(key.body.vkey as string);
    expect(key.body).toMatchObject({
      origin: verifier.name,
      algorithm: "ed25519",
      key_id: verifier.keyId.toString(16).padStart(8, "0"),
    });
    const res = await get("/api/v1/log/checkpoint");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const note = await res.text();
    expect(note).toMatch(
      /^localhost:3000\/skills-log\n7\n[A-Za-z0-9+/]{43}=\ntime \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n\n— localhost:3000\/skills-log /,
    );
    const cp = parseCheckpoint(openNote(note, verifier));
    expect(cp.size).toBe(7);
    const { rootAt } = await import("../../lib/tlog/store");
    expect(cp.rootHash.equals(await rootAt(env.db, 7))).toBe(true);
  });
});

describe("proofs", () => {
  it("proves every entry at every size, and every pair of sizes consistent", async () => {
    const rows = await env.db.logEntry.findMany({ orderBy: { leafIndex: "asc" } });
    const { rootAt } = await import("../../lib/tlog/store");
    const roots = [Buffer.alloc(0), ...(await Promise.all(rows.map((_, i) => rootAt(env.db, i + 1))))];
    for (let size = 1; size <= rows.length; size++) {
      for (let leaf = 0; leaf < size; leaf++) {
        const { status, body } = await getJson(`/api/v1/log/proof/inclusion?leaf=${leaf}&size=${size}`);
        expect(status).toBe(200);
        expect(body.leaf_hash).toBe(hashLeaf(rows[leaf]!.data).toString("base64"));
        verifyInclusion(leaf, size, hashLeaf(rows[leaf]!.data), (body.hashes as string[]).map(b64), roots[size]!);
      }
      for (let from = 1; from <= size; from++) {
        const { status, body } = await getJson(`/api/v1/log/proof/consistency?from=${from}&to=${size}`);
        expect(status).toBe(200);
        verifyConsistency(from, size, (body.hashes as string[]).map(b64), roots[from]!, roots[size]!);
      }
    }
  });
});

describe("entries", () => {
  it("serves [start, end) clamped to the tree, with the bytes that hash to each leaf", async () => {
    const { status, body } = await getJson("/api/v1/log/entries?start=2&end=100");
    expect(status).toBe(200);
    expect(body).toMatchObject({ tree_size: 7, start: 2, end: 7 });
    expect(body.next).toBeUndefined();
    const entries = body.entries as Array<{ index: number; data: string }>;
    expect(entries.map((e) => e.index)).toEqual([2, 3, 4, 5, 6]);
    const stored = await env.db.logEntry.findUniqueOrThrow({ where: { leafIndex: 3n } });
    expect(hashLeaf(entries[1]!.data).equals(Buffer.from(stored.leafHash))).toBe(true);
  });

  it("serves a version's publish and retire entries", async () => {
    const { body } = await getJson("/api/v1/log/versions/api-skill-0/1.0.0");
    const entries = body.entries as Array<{ event: string; data: string }>;
    expect(entries.map((e) => e.event)).toEqual(["publish", "retire"]);
    expect((await getJson("/api/v1/log/versions/api-skill-0/9.9.9")).status).toBe(404);
  });

  it("serves a listing's pinned code bytes by sha256, as inert data", async () => {
    const listing = await registry.listingDocument("api-skill-2", "1.0.0");
    const pin = listing.code![0]!;
    const res = await get(`/api/v1/skills/api-skill-2/1.0.0/code/${pin.sha256}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    const { createHash } = await import("node:crypto");
    expect(
      createHash("sha256")
        .update(Buffer.from(await res.arrayBuffer()))
        .digest("hex"),
    ).toBe(pin.sha256);
  });
});

describe("bad parameters", () => {
  const cases: Array<[string, number, string]> = [
    ["/api/v1/log/proof/inclusion?size=3", 422, "log.parameter_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=abc&size=3", 422, "log.parameter_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=-1&size=3", 422, "log.parameter_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=01&size=3", 422, "log.parameter_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=1e2&size=3", 422, "log.parameter_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=1&leaf=2&size=3", 422, "log.parameter_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=99999999999999999&size=3", 422, "log.parameter_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=0&size=0", 422, "log.size_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=0&size=8", 422, "log.size_invalid"],
    ["/api/v1/log/proof/inclusion?leaf=3&size=3", 422, "log.leaf_out_of_range"],
    ["/api/v1/log/proof/consistency?from=0&to=3", 422, "log.range_invalid"],
    ["/api/v1/log/proof/consistency?from=4&to=3", 422, "log.range_invalid"],
    ["/api/v1/log/proof/consistency?from=1&to=9007199254740991", 422, "log.size_invalid"],
    ["/api/v1/log/proof/consistency?from=1", 422, "log.parameter_invalid"],
    ["/api/v1/log/entries?start=3&end=3", 422, "log.range_invalid"],
    ["/api/v1/log/entries?start=7&end=9", 422, "log.range_invalid"],
    ["/api/v1/log/entries?start=x&end=9", 422, "log.parameter_invalid"],
    ["/api/v1/log/entries?start=0", 422, "log.parameter_invalid"],
    ["/api/v1/skills/api-skill-2/1.0.0/code/XYZ", 422, "skill.code_ref_invalid"],
    [`/api/v1/skills/api-skill-2/1.0.0/code/${"0".repeat(64)}`, 404, "not_found"],
  ];
  it.each(cases)("%s answers %i %s", async (path, status, code) => {
    const res = await getJson(path);
    expect(res.status).toBe(status);
    expect((res.body.error as { code: string }).code).toBe(code);
  });

  it("bounds a page of entries at 256 and says where the next one starts", async () => {
    // 300 more entries (rows only: this endpoint reads no tree nodes), so a page must be cut.
    await env.db.$executeRaw`
      INSERT INTO "LogEntry" ("leafIndex", "versionId", "event", "data", "leafHash")
      SELECT g, 'filler-' || g, 'publish', 'filler ' || g, sha256(convert_to('filler ' || g, 'UTF8'))
      FROM generate_series(7, 306) g`;
    await env.db.logHead.update({ where: { id: 1 }, data: { size: 307n } });
    const { body } = await getJson("/api/v1/log/entries?start=5&end=1000");
    expect(body).toMatchObject({ tree_size: 307, start: 5, end: 261, next: 261 });
    expect((body.entries as unknown[]).length).toBe(256);
    const last = await getJson("/api/v1/log/entries?start=261&end=1000");
    expect(last.body).toMatchObject({ start: 261, end: 307 });
    expect(last.body.next).toBeUndefined();
  });
});
