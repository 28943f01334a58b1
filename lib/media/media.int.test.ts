// putMedia / getMedia / deleteMedia against a real PostgreSQL and the local store.
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../test/helpers/test-database";
import { removeTempDir, tempDir } from "../../test/helpers/temp-dir";

let database: ThrowawayDatabase;
let dataDir: string;
let media: typeof import("./index");
let dbModule: typeof import("../db");
let AppError: typeof import("../errors").AppError;

beforeAll(async () => {
  database = await createThrowawayDatabase("ov_it_media");
  dataDir = tempDir("media-int");
  vi.stubEnv("DATABASE_URL", database.url);
  vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
  vi.stubEnv("AUTH_SECRET", "x".repeat(32));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("BLOB_READ_WRITE_TOKEN", "");
  vi.stubEnv("LOG_LEVEL", "error");
  media = await import("./index");
  dbModule = await import("../db");
  AppError = (await import("../errors")).AppError;
});

afterAll(async () => {
  await dbModule?.db.$disconnect();
  await database?.drop();
  removeTempDir(dataDir);
  vi.unstubAllEnvs();
});

async function errorOf(p: Promise<unknown>) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as InstanceType<typeof AppError>;
}

const code = (s: string) => Buffer.from(`// ${s}\nprocess.stdout.write(JSON.stringify(${JSON.stringify(s)}));\n`);

describe("media", () => {
  it("puts and gets an object with a med_ ULID id and its sha256", async () => {
    const bytes = code("round trip");
    const object = await media.putMedia({ bytes, mediaType: "text/javascript" });
    expect(object.id).toMatch(/^med_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(object.sha256).toBe(media.sha256Hex(bytes));
    expect(object.sizeBytes).toBe(bytes.length);
    expect(object.storageKey).toBe(media.contentKey(object.sha256));
    const read = await media.getMedia(object.id);
    expect(read.bytes).toEqual(bytes);
    expect(read.object.id).toBe(object.id);
    expect(media.mediaBackend().kind).toBe("local");
  });

  it("throws media.not_found for an unknown or malformed id", async () => {
    expect((await errorOf(media.getMedia("med_01JZZZZZZZZZZZZZZZZZZZZZZZ"))).code).toBe("media.not_found");
    expect((await errorOf(media.getMedia("../etc"))).code).toBe("media.not_found");
  });

  it("validates what it is given", async () => {
    expect((await errorOf(media.putMedia({ bytes: code("x"), mediaType: "javascript" }))).code).toBe(
      "media.invalid_media_type",
    );
    const big = Buffer.alloc(media.MEDIA_MAX_BYTES + 1);
    expect((await errorOf(media.putMedia({ bytes: big, mediaType: "application/octet-stream" }))).code).toBe(
      "media.too_large",
    );
  });

  it("fails loudly when the bytes on disk were tampered with", async () => {
    const object = await media.putMedia({ bytes: code("tamper on disk"), mediaType: "text/javascript" });
    const store = media.mediaBackend() as InstanceType<typeof media.LocalBlobBackend>;
    await writeFile(store.pathOf(object.storageKey), code("tampered!"));
    expect((await errorOf(media.getMedia(object.id))).code).toBe("media.integrity_mismatch");
  });

  it("fails loudly when the row's recorded sha256 no longer matches the bytes", async () => {
    const object = await media.putMedia({ bytes: code("row edited"), mediaType: "text/javascript" });
    await dbModule.db.mediaObject.update({ where: { id: object.id }, data: { sha256: "0".repeat(64) } });
    expect((await errorOf(media.getMedia(object.id))).code).toBe("media.integrity_mismatch");
  });

  it("a failed transaction leaves no orphan bytes, but never removes bytes another row uses", async () => {
    const shared = code("shared by a committed row");
    const kept = await media.putMedia({ bytes: shared, mediaType: "text/javascript" });
    const lonely = code("only in the failed publish");
    const store = media.mediaBackend();

    await expect(
      media.withMediaTransaction(async (_tx, m) => {
        await m.put({ bytes: lonely, mediaType: "text/javascript" });
        await m.put({ bytes: shared, mediaType: "text/javascript" });
        expect(await store.has(media.contentKey(media.sha256Hex(lonely)))).toBe(true);
        throw new Error("publish failed after storing code");
      }),
    ).rejects.toThrow("publish failed after storing code");

    expect(await store.has(media.contentKey(media.sha256Hex(lonely)))).toBe(false);
    expect(await dbModule.db.mediaObject.count({ where: { sha256: media.sha256Hex(lonely) } })).toBe(0);
    expect((await media.getMedia(kept.id)).bytes).toEqual(shared);
  });

  it("cleanup waits for an open transaction that stored the same bytes, then keeps them", async () => {
    const bytes = code("in flight");
    const sha256 = media.sha256Hex(bytes);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let stored!: () => void;
    const putDone = new Promise<void>((r) => (stored = r));
    const publish = media.withMediaTransaction(async (_tx, m) => {
      const object = await m.put({ bytes, mediaType: "text/javascript" });
      stored();
      await gate;
      return object;
    });
    await putDone;
    let cleanupFinished = false;
    const cleanup = media.deleteUnreferencedBlobs([sha256]).then((deleted) => {
      cleanupFinished = true;
      return deleted;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(cleanupFinished).toBe(false);
    release();
    const object = await publish;
    expect(await cleanup).toEqual([]);
    expect((await media.getMedia(object.id)).bytes).toEqual(bytes);
  });

  it("a committed transaction keeps its rows and bytes", async () => {
    const bytes = code("committed");
    const object = await media.withMediaTransaction((_tx, m) => m.put({ bytes, mediaType: "text/javascript" }));
    expect((await media.getMedia(object.id)).bytes).toEqual(bytes);
  });

  it("deleteMedia removes the row, and the bytes only when no other row shares them", async () => {
    const bytes = code("twice uploaded");
    const a = await media.putMedia({ bytes, mediaType: "text/javascript" });
    const b = await media.putMedia({ bytes, mediaType: "text/javascript" });
    const key = media.contentKey(a.sha256);
    await media.deleteMedia(a.id);
    expect(await media.mediaBackend().has(key)).toBe(true);
    expect((await media.getMedia(b.id)).bytes).toEqual(bytes);
    await media.deleteMedia(b.id);
    expect(await media.mediaBackend().has(key)).toBe(false);
    expect((await errorOf(media.getMedia(b.id))).code).toBe("media.not_found");
    expect((await errorOf(media.deleteMedia(b.id))).code).toBe("media.not_found");
  });

  it("refuses to delete an object a listing pins", async () => {
    const { db } = dbModule;
    const user = await db.user.create({ data: { email: "pin@example.test", handle: "pinner", name: "Pinner" } });
    const skill = await db.skill.create({ data: { slug: "pinned", ownerId: user.id } });
    const version = await db.skillVersion.create({
      data: {
        skillId: skill.id,
        version: "1.0.0",
        semverMajor: 1,
        semverMinor: 0,
        semverPatch: 0,
        contract: "actor.skill@2",
        document: {},
        integrity: `sha256:${"1".repeat(64)}`,
        runs: "sandbox",
        name: "Pinned",
        summary: "s",
        instructions: "i",
      },
    });
    const bytes = code("pinned");
    const object = await media.putMedia({ bytes, mediaType: "text/javascript", ownerId: user.id });
    await db.listing.create({
      data: {
        versionId: version.id,
        contract: "actor.skill-listing@2",
        code: {
          create: { name: "tools/p.js", mediaId: object.id, sha256: object.sha256, sizeBytes: object.sizeBytes },
        },
      },
    });
    expect((await errorOf(media.deleteMedia(object.id))).code).toBe("media.in_use");
    expect((await media.getMedia(object.id)).bytes).toEqual(bytes);
  });
});
