import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AppError } from "../errors";
import { LocalBlobBackend } from "./local-store";
import { contentKey, sha256Hex } from "./store";
import { removeTempDir, tempDir } from "../../test/helpers/temp-dir";

// The logger reads the validated config; give it a complete one without touching a real service.
vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));
vi.stubEnv("LOG_LEVEL", "error");

let root: string;
let store: LocalBlobBackend;

beforeEach(async () => {
  root = tempDir("media");
  store = new LocalBlobBackend(path.join(root, "media"));
});
afterEach(async () => {
  removeTempDir(root);
});

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("LocalBlobBackend", () => {
  const bytes = Buffer.from('export const hello = "world";\n');
  const key = contentKey(sha256Hex(bytes));

  it("stores content-addressed, owner-only files and reads them back", async () => {
    await store.put(key, bytes);
    const hex = sha256Hex(bytes);
    const file = path.join(root, "media", "sha256", hex.slice(0, 2), hex.slice(2, 4), hex);
    expect(await readFile(file)).toEqual(bytes);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await store.get(key)).toEqual(bytes);
    expect(await store.has(key)).toBe(true);
    // no temporary files left behind by the atomic write
    expect(await readdir(path.dirname(file))).toEqual([hex]);
  });

  it("reads small and large objects whole, and a large one changed on disk fails loudly too", async () => {
    for (const size of [0, 64 * 1024, 64 * 1024 + 1, 300 * 1024]) {
      const blob = Buffer.alloc(size, size % 251);
      const blobKey = contentKey(sha256Hex(blob));
      await store.put(blobKey, blob);
      expect((await store.get(blobKey)).equals(blob)).toBe(true);
    }
    const large = Buffer.alloc(300 * 1024, 7);
    const largeKey = contentKey(sha256Hex(large));
    await store.put(largeKey, large);
    await writeFile(store.pathOf(largeKey), Buffer.alloc(300 * 1024, 8));
    expect((await errorOf(store.get(largeKey))).code).toBe("media.integrity_mismatch");
  });

  it("writing the same content twice is harmless", async () => {
    await store.put(key, bytes);
    await store.put(key, bytes);
    expect(await store.get(key)).toEqual(bytes);
  });

  it("fails loudly when the bytes on disk were changed", async () => {
    await store.put(key, bytes);
    await writeFile(store.pathOf(key), 'export const hello = "w0rld";\n');
    const err = await errorOf(store.get(key));
    expect(err.code).toBe("media.integrity_mismatch");
  });

  it("a put of the same content repairs a damaged copy", async () => {
    await store.put(key, bytes);
    await writeFile(store.pathOf(key), "damaged");
    await store.put(key, bytes);
    expect(await store.get(key)).toEqual(bytes);
  });

  it("reports missing bytes with their own code", async () => {
    const err = await errorOf(store.get(key));
    expect(err.code).toBe("media.bytes_missing");
    expect(await store.has(key)).toBe(false);
  });

  it("refuses bytes that do not match the key, and keys that are not content keys", async () => {
    await expect(store.put(key, Buffer.from("other"))).rejects.toThrow(/Refusing to store/);
    await expect(store.get("../../etc/passwd")).rejects.toThrow(/Not a content-addressed media key/);
    await expect(store.get(`sha256/00/00/${sha256Hex(bytes)}`)).rejects.toThrow(/Not a content-addressed/);
  });

  it("deletes, and deleting twice is not an error", async () => {
    await store.put(key, bytes);
    await store.delete(key);
    await store.delete(key);
    expect(await store.has(key)).toBe(false);
  });
});
