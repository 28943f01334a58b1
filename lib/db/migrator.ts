// Prisma Migrate through Prisma's WebAssembly schema engine: applies, diffs and creates the SQL
// migrations under prisma/migrations with Prisma's own semantics (`_prisma_migrations` table),
// without the native engine binary that the Prisma CLI would download.
import { readFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { migrationNames } from "./migration-names";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCHEMA_PATH = path.join(ROOT, "prisma/schema.prisma");
const MIGRATIONS_DIR = path.join(ROOT, "prisma/migrations");
const ENGINE_DIR = path.join(ROOT, "node_modules/@prisma/schema-engine-wasm");
const NO_FILTER = { externalTables: [], externalEnums: [] };

type Engine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout?: string | null }>;
  free(): void;
};

let enginePromise: Promise<{ SchemaEngine: { new: (...args: unknown[]) => Promise<Engine> } }> | undefined;

function loadEngineModule() {
  enginePromise ??= (async () => {
    const bg = await import(pathToFileURL(path.join(ENGINE_DIR, "schema_engine_bg.js")).href);
    const { instance } = await WebAssembly.instantiate(readFileSync(path.join(ENGINE_DIR, "schema_engine_bg.wasm")), {
      "./schema_engine_bg.js": bg,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg;
  })();
  return enginePromise;
}

function schemaFiles() {
  return [{ path: SCHEMA_PATH, content: readFileSync(SCHEMA_PATH, "utf8") }];
}

export function migrationsList() {
  const dirs = migrationNames(MIGRATIONS_DIR);
  const lockPath = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: "migration_lock.toml", content: existsSync(lockPath) ? readFileSync(lockPath, "utf8") : null },
    shadowDbInitScript: "",
    migrationDirectories: dirs.map((name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok", value: readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8") },
      },
    })),
  };
}

async function withEngine<T>(databaseUrl: string, fn: (engine: Engine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  // Our own pool, ended here: the engine never disposes its adapter, and an idle pooled connection
  // would keep Prisma's migration advisory lock (blocking the next run) and the process alive.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on("error", () => {});
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  const files = schemaFiles();
  try {
    const engine = await SchemaEngine.new({ datamodels: files.map((f) => [f.path, f.content]) }, () => {}, adapter);
    try {
      return await fn(engine);
    } finally {
      engine.free();
    }
  } finally {
    await pool.end();
  }
}

/** Applies every migration not yet applied; returns the names applied now. */
export async function applyMigrations(databaseUrl: string): Promise<string[]> {
  return withEngine(databaseUrl, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList: migrationsList(), filters: NO_FILTER });
    return out.appliedMigrationNames;
  });
}

/** The SQL that would take the committed migrations to the current schema ("" when in step). */
export async function pendingSchemaChange(databaseUrl: string): Promise<string> {
  return withEngine(databaseUrl, async (engine) => {
    const out = await engine.diff({
      from: { tag: "migrations", ...migrationsList() },
      to: { tag: "schemaDatamodel", files: schemaFiles() },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    });
    return out.exitCode === 2 ? (out.stdout ?? "") : "";
  });
}

/** The SQL that creates the whole of schema.prisma in an empty database (the reference the
 * migrations are tested against). databaseUrl only has to be reachable; nothing is changed there. */
export async function schemaSql(databaseUrl: string): Promise<string> {
  return withEngine(databaseUrl, async (engine) => {
    const out = await engine.diff({
      from: { tag: "empty" },
      to: { tag: "schemaDatamodel", files: schemaFiles() },
      script: true,
      exitCode: false,
      filters: NO_FILTER,
    });
    return out.stdout ?? "";
  });
}

/** Writes prisma/migrations/<timestamp>_<name>/migration.sql from the schema change, if any. */
export async function createMigration(databaseUrl: string, name: string): Promise<string | null> {
  const sql = await pendingSchemaChange(databaseUrl);
  if (!sql.trim()) return null;
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "migration.sql"), sql);
  const lock = path.join(MIGRATIONS_DIR, "migration_lock.toml");
  if (!existsSync(lock)) writeFileSync(lock, 'provider = "postgresql"\n');
  return dir;
}
