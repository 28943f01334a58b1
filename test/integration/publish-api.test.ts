// POST /api/v1/skills and the read/retire routes, called as Next calls them, against real
// PostgreSQL, Redis and the media store. Broken and hostile bundles must leave nothing behind.
import { readdir, readFile } from "node:fs/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTarGz, makeZip } from "../helpers/archives";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

const BUNDLE = path.resolve(import.meta.dirname, "../../scripts/demo/skills/csv-stats");
let env: IntegrationEnv;
let publish: typeof import("../../app/api/v1/skills/route");
let retire: typeof import("../../app/api/v1/skills/[slug]/[version]/retire/route");
let listing: typeof import("../../app/api/v1/skills/[slug]/[version]/listing/route");
let token: string;
let otherToken: string;
let files: Map<string, Buffer>;

async function readFolder(dir: string, rel = ""): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of await readFolder(dir, p)) out.set(k, v);
    else if (e.name !== "demo.json") out.set(p, await readFile(path.join(dir, p)));
  }
  return out;
}

function form(entries: Map<string, Buffer | string>): FormData {
  const fd = new FormData();
  for (const [name, bytes] of entries)
    fd.append("file", new Blob([typeof bytes === "string" ? bytes : new Uint8Array(bytes)]), name);
  return fd;
}

const post = (body: BodyInit, headers: Record<string, string> = {}, query = "", bearer: string | null = token) =>
  publish.POST(
    new Request(`http://localhost/api/v1/skills${query}`, {
      method: "POST",
      body,
      headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers },
    }),
  );

async function rowCounts() {
  const { db } = env;
  return {
    skills: await db.skill.count(),
    versions: await db.skillVersion.count(),
    media: await db.mediaObject.count(),
  };
}

function withManifest(change: (m: Record<string, unknown>) => void): Map<string, Buffer> {
  const copy = new Map(files);
  const manifest = JSON.parse(copy.get("skill.json")!.toString());
  change(manifest);
  copy.set("skill.json", Buffer.from(JSON.stringify(manifest)));
  return copy;
}

beforeAll(async () => {
  env = await setupIntegration("publishapi");
  publish = await import("../../app/api/v1/skills/route");
  retire = await import("../../app/api/v1/skills/[slug]/[version]/retire/route");
  listing = await import("../../app/api/v1/skills/[slug]/[version]/listing/route");
  const { createUser, createApiToken } = await import("../../lib/auth");
  const a = await createUser({ email: "pub@example.test", name: "Pub", password: null });
  const b = await createUser({ email: "other@example.test", name: "Other", password: null });
  token = (await createApiToken(a.id, "cli")).secret;
  otherToken = (await createApiToken(b.id, "cli")).secret;
  files = await readFolder(BUNDLE);
}, 120_000);

afterAll(async () => {
  await (await import("../../lib/registry")).scanQueue().close();
  await env?.teardown();
});

describe("broken and hostile bundles", () => {
  it("reports every validation error at once, with JSON paths, and stores nothing", async () => {
    const broken = withManifest((m) => {
      m.version = "one";
      m.name = 42;
      (m.tools as Array<Record<string, unknown>>)[0]!.net = "everywhere";
      (m.tools as Array<Record<string, unknown>>)[0]!.entry = "tools/missing.js";
    });
    const before = await rowCounts();
    const res = await post(form(broken), {}, "");
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.error.code).toBe("contract.invalid");
    const paths = body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["/version", "/name", "/tools/0/net"]));
    expect(paths.some((p: string) => p.startsWith("/tools/0/entry"))).toBe(true);
    expect(await rowCounts()).toEqual(before);
  });

  it.each([
    [
      "binary bytes in a .js",
      () => {
        const m = new Map(files);
        const js = [...m.keys()].find((k) => k.endsWith(".js"))!;
        m.set(js, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x01]));
        return post(form(m));
      },
      422,
    ],
    [
      "a ../ path in a zip",
      () =>
        post(new Uint8Array(makeZip([{ name: "../skill.json", data: "{}" }])), { "content-type": "application/zip" }),
      422,
    ],
    [
      "a symlink in a tar.gz",
      () =>
        post(new Uint8Array(makeTarGz([{ name: "skill.json", type: "2", linkName: "/etc/passwd" }])), {
          "content-type": "application/gzip",
        }),
      422,
    ],
    [
      "a 10 000-entry archive",
      () =>
        post(
          new Uint8Array(
            makeZip(Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}.md`, data: "x", store: true }))),
          ),
          { "content-type": "application/zip" },
        ),
      413,
    ],
    [
      "a zip bomb",
      () =>
        post(new Uint8Array(makeZip([{ name: "skill.json", data: Buffer.alloc(3 * 1024 * 1024, 32) }])), {
          "content-type": "application/zip",
        }),
      413,
    ],
    [
      "a huge field",
      () =>
        post(
          form(
            withManifest((m) => {
              m.summary = "x".repeat(100_000);
            }),
          ),
        ),
      422,
    ],
    [
      "wrong types everywhere",
      () =>
        post(JSON.stringify({ contract: "actor.skill@2", slug: 7, tools: "all", resources: {} }), {
          "content-type": "application/json",
        }),
      422,
    ],
    ["not JSON at all", () => post("{nope", { "content-type": "application/json" }), 400],
    ["an unknown body type", () => post("hello", { "content-type": "text/plain" }), 415],
    ["no token", () => post(form(files), {}, "", null), 401],
    ["a bad token", () => post(form(files), {}, "", "ovp_not-a-real-token"), 401],
  ] as const)("refuses %s with a 4xx code and stores nothing", async (_what, send, status) => {
    const before = await rowCounts();
    const res = await send();
    const body = await res.json();
    expect(res.status === status || (status === 413 && res.status === 422)).toBe(true);
    expect(body.error.code).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
    expect(await rowCounts()).toEqual(before);
  });
});

describe("bad archives", () => {
  const zipOf = (m: Map<string, Buffer>, change: (e: { name: string; data: Buffer; crc?: number; flags?: number }) => void = () => {}) =>
    makeZip(
      [...m].map(([name, data]) => {
        const e = { name: `csv-stats/${name}`, data };
        change(e);
        return e;
      }),
    );
  const tarOf = (m: Map<string, Buffer>) => makeTarGz([...m].map(([name, data]) => ({ name, data })));
  it.each([
    ["a zip entry whose CRC-32 is wrong", () => zipOf(files, (e) => e.name.endsWith("skill.json") && (e.crc = 1)), "bundle.archive_corrupt"],
    ["an encrypted zip entry", () => zipOf(files, (e) => (e.flags = 1)), "bundle.archive_encrypted"],
    ["a pax path that leaves the bundle", () => makeTarGz([{ name: "skill.json", data: "{}", pax: { path: "../../x" } }]), "bundle.path_invalid"],
    ["a hard link in a tar.gz", () => makeTarGz([{ name: "a.js", type: "1", linkName: "skill.json" }]), "bundle.link_refused"],
    [
      "a tar whose header checksum is wrong",
      () => {
        const tar = gunzipSync(tarOf(files));
        tar[1] = tar[1]! ^ 1;
        return gzipSync(tar);
      },
      "bundle.archive_corrupt",
    ],
    ["a truncated zip", () => zipOf(files).subarray(0, 200), "bundle.archive_corrupt"],
  ] as const)("refuses %s with its stable code and stores nothing", async (_what, make, code) => {
    const before = await rowCounts();
    const bytes = make();
    const res = await post(new Uint8Array(bytes), { "content-type": bytes[0] === 0x1f ? "application/gzip" : "application/zip" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const body = await res.json();
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(10);
    expect(await rowCounts()).toEqual(before);
  });
});

describe("publishing", () => {
  it("validates only with ?dry_run=1", async () => {
    const res = await post(form(files), {}, "?dry_run=1");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ slug: "csv-stats", dry_run: true, created: false });
    expect((await rowCounts()).versions).toBe(0);
  });

  it("publishes a folder upload, then the same bytes as a zip are a harmless retry", async () => {
    const res = await post(form(files));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ slug: "csv-stats", status: "scanning", created: true });
    expect(body.url).toMatch(/\/skills\/csv-stats\//);
    const zip = makeZip([...files].map(([name, data]) => ({ name: `csv-stats/${name}`, data })));
    const again = await post(new Uint8Array(zip), { "content-type": "application/zip" });
    expect(again.status).toBe(200);
    expect((await again.json()).created).toBe(false);
  });

  it("ignores macOS clutter in a zip and stores the Markdown already rendered", async () => {
    const m = withManifest((doc) => {
      doc.version = "1.0.1";
    });
    m.set("__MACOSX/._skill.json", Buffer.from("resource fork"));
    m.set(".DS_Store", Buffer.from("finder"));
    const res = await post(new Uint8Array(makeZip([...m].map(([name, data]) => ({ name, data })))), {
      "content-type": "application/zip",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const row = await env.db.skillVersion.findFirstOrThrow({
      where: { version: "1.0.1", skill: { slug: "csv-stats" } },
      select: { instructions: true, instructionsHtml: true, resourcesHtml: true },
    });
    expect(row.instructionsHtml).toMatch(/^<(h\d|p|ul|ol)/);
    expect(row.instructionsHtml).not.toMatch(/<script/i);
    expect(Object.keys(row.resourcesHtml as object)).toEqual(["docs/examples.md"]);
  });

  it("refuses a changed bundle under a published version (409) and another author's slug (403)", async () => {
    const changed = withManifest((m) => {
      m.instructions = `${m.instructions as string}\nChanged.`;
    });
    const res = await post(form(changed));
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("skill.version_exists");
    const theirs = withManifest((m) => {
      m.version = "5.0.0";
    });
    const res2 = await post(form(theirs), {}, "", otherToken);
    expect(res2.status).toBe(403);
  });

  it("serves the listing and lets only the owner retire", async () => {
    const version = JSON.parse(files.get("skill.json")!.toString()).version as string;
    const params = Promise.resolve({ slug: "csv-stats", version });
    const l = await listing.GET(new Request(`http://localhost/api/v1/skills/csv-stats/${version}/listing`), { params });
    const body = await l.json();
    expect(body.contract).toBe("actor.skill-listing@2");
    expect(body.code.length).toBeGreaterThan(0);
    const call = (bearer: string) =>
      retire.POST(
        new Request(`http://localhost/api/v1/skills/csv-stats/${version}/retire`, {
          method: "POST",
          headers: { authorization: `Bearer ${bearer}` },
        }),
        { params },
      );
    expect((await call(otherToken)).status).toBe(403);
    expect((await call(token)).status).toBe(200);
  });
});
