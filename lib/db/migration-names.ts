// The names of the committed migrations (the folders under prisma/migrations, in the order they
// apply), for the migrator and for the readiness check that compares them with the database.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

export function migrationNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
}

/** The names Prisma records as applied: finished and not rolled back. */
export const APPLIED_MIGRATIONS_SQL =
  "select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null";
