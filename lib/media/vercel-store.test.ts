import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startFakeVercelBlob, type FakeVercelBlob } from "../../test/fakes/vercel-blob-server";
import { AppError } from "../errors";
import { contentKey, sha256Hex } from "./store";
import { VercelBlobBackend } from "./vercel-store";

vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));
vi.stubEnv("LOG_LEVEL", "error");

let fake: FakeVercelBlob;
let store: VercelBlobBackend;

beforeAll(async () => {
  fake = await startFakeVercelBlob();
  store = new VercelBlobBackend({ token: fake.token, apiUrl: fake.apiUrl });
});
afterAll(async () => {
  await fake.close();
  vi.unstubAllEnvs();
});

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("VercelBlobBackend through the real @vercel/blob client", () => {
  const bytes = Buffer.from("process.stdout.write(JSON.stringify({ ok: true }));\n");
  const key = contentKey(sha256Hex(bytes));

  it("puts a private object and reads the same bytes back", async () => {
    await store.put(key, bytes, "text/javascript");
    const stored = fake.blobs.get(`media/${key}`);
    expect(stored?.access).toBe("private");
    expect(stored?.contentType).toBe("text/javascript");
    expect(stored?.bytes).toEqual(bytes);
    expect(await store.has(key)).toBe(true);
    expect(await store.get(key)).toEqual(bytes);
    // the read went to the private store host with the bearer token, not to a public URL
    const read = fake.requests.findLast((r) => r.host.endsWith(".blob.vercel-storage.com"));
    expect(read?.host).toBe(`${fake.storeId}.private.blob.vercel-storage.com`);
    expect(read?.headers.authorization).toBe(`Bearer ${fake.token}`);
  });

  it("fails loudly when the stored object was changed", async () => {
    await store.put(key, bytes, "text/javascript");
    fake.tamper(`media/${key}`, Buffer.from("process.stdout.write(JSON.stringify(process.env));\n"));
    const err = await errorOf(store.get(key));
    expect(err.code).toBe("media.integrity_mismatch");
  });

  it("reports a missing object, and delete removes it", async () => {
    await store.put(key, bytes, "text/javascript");
    await store.delete(key);
    expect(fake.blobs.has(`media/${key}`)).toBe(false);
    expect(await store.has(key)).toBe(false);
    expect((await errorOf(store.get(key))).code).toBe("media.bytes_missing");
  });

  it("a wrong token is refused on write, read and delete", async () => {
    await store.put(key, bytes, "text/javascript");
    const wrong = new VercelBlobBackend({ token: `vercel_blob_rw_${fake.storeId}_wrongsecret`, apiUrl: fake.apiUrl });
    expect((await errorOf(wrong.put(key, bytes, "text/javascript"))).code).toBe("media.storage_failed");
    expect((await errorOf(wrong.get(key))).code).toBe("media.storage_failed");
    expect((await errorOf(wrong.delete(key))).code).toBe("media.storage_failed");
    expect(fake.blobs.get(`media/${key}`)?.bytes).toEqual(bytes);
  });
});
