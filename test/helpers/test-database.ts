// For integration tests: a throw-away PostgreSQL database with every migration applied, on the
// local server only, dropped afterwards. Tests set DATABASE_URL to it before importing lib/db.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { applyMigrations } from "../../lib/db/migrator";

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

function baseUrl(): URL {
  // Tests pick their own database; the server is the one the test runner provisioned, if any.
  const url = new URL(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
  if (!LOCAL_HOSTS.has(url.hostname)) {
    throw new Error(`Refusing to create test databases on a non-local server (${url.hostname}).`);
  }
  return url;
}

export type ThrowawayDatabase = { url: string; name: string; drop(): Promise<void> };

export async function createThrowawayDatabase(prefix = "ov_it"): Promise<ThrowawayDatabase> {
  const admin = baseUrl();
  admin.pathname = "/postgres";
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
