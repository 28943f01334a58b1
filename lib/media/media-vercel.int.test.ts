// With BLOB_READ_WRITE_TOKEN set, Media uses Vercel Blob: here the real client against the fake.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startFakeVercelBlob, type FakeVercelBlob } from "../../test/fakes/vercel-blob-server";
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../test/helpers/test-database";

let database: ThrowawayDatabase;
let fake: FakeVercelBlob;
let media: typeof import("./index");
let dbModule: typeof import("../db");

beforeAll(async () => {
  database = await createThrowawayDatabase("ov_it_mediablob");
  fake = await startFakeVercelBlob();
  vi.stubEnv("DATABASE_URL", database.url);
  vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
  vi.stubEnv("AUTH_SECRET", "x".repeat(32));
  vi.stubEnv("BLOB_READ_WRITE_TOKEN", fake.token);
  vi.stubEnv("BLOB_API_URL", fake.apiUrl);
  vi.stubEnv("LOG_LEVEL", "error");
  media = await import("./index");
  dbModule = await import("../db");
});

afterAll(async () => {
  await dbModule?.db.$disconnect();
  await fake?.close();
  await database?.drop();
  vi.unstubAllEnvs();
});

it("stores private objects in Vercel Blob, verifies reads, and cleans up after a failed transaction", async () => {
  expect(media.mediaBackend().kind).toBe("vercel-blob");
  const bytes = Buffer.from('process.stdout.write("{}");\n');
  const object = await media.putMedia({ bytes, mediaType: "text/javascript" });
  const pathname = `media/${object.storageKey}`;
  expect(fake.blobs.get(pathname)?.access).toBe("private");
  expect((await media.getMedia(object.id)).bytes).toEqual(bytes);

  fake.tamper(pathname, Buffer.from('process.stdout.write("{}") ;\n'));
  await expect(media.getMedia(object.id)).rejects.toMatchObject({ code: "media.integrity_mismatch" });

  const lonely = Buffer.from("// never committed\n");
  await expect(
    media.withMediaTransaction(async (_tx, m) => {
      await m.put({ bytes: lonely, mediaType: "text/javascript" });
      throw new Error("rolled back");
    }),
  ).rejects.toThrow("rolled back");
  expect(fake.blobs.has(`media/${media.contentKey(media.sha256Hex(lonely))}`)).toBe(false);
});
