// One set-up for integration tests: a throw-away migrated database, its own data folder and Redis
// key prefix, and the app modules imported only after the environment points at them.
import { randomBytes } from "node:crypto";
import { vi } from "vitest";
import { createThrowawayDatabase, type ThrowawayDatabase } from "./test-database";
import { removeTempDir, tempDir } from "./temp-dir";

export type IntegrationEnv = {
  database: ThrowawayDatabase;
  dataDir: string;
  redisPrefix: string;
  db: (typeof import("../../lib/db"))["db"];
  teardown(): Promise<void>;
};

export async function setupIntegration(name: string): Promise<IntegrationEnv> {
  const database = await createThrowawayDatabase(`ov_it_${name}`);
  const dataDir = tempDir(name);
  const redisPrefix = `test:${name}:${randomBytes(4).toString("hex")}`;

  vi.stubEnv("REDIS_URL", process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0");
  vi.stubEnv("DATABASE_URL", database.url);
  vi.stubEnv("REDIS_PREFIX", redisPrefix);
  vi.stubEnv("AUTH_SECRET", "integration-secret-".padEnd(40, "x"));
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("BLOB_READ_WRITE_TOKEN", "");
  vi.stubEnv("LOG_LEVEL", "error");
  const { db } = await import("../../lib/db");
  return {
    database,
    dataDir,
    redisPrefix,
    db,
    async teardown() {
      await db.$disconnect();
      const { redis } = await import("../../lib/redis");
      const client = redis();
      const keys = await client.keys(`${redisPrefix}:*`);
      if (keys.length) await client.del(...keys);
      await client.quit();
      await database.drop();
      removeTempDir(dataDir);
      vi.unstubAllEnvs();
    },
  };
}
