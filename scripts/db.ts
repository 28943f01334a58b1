// Database migrations from the command line, through Prisma's WebAssembly schema engine
// (lib/db/migrator.ts):
//   tsx scripts/db.ts migrate [--json]   apply every migration not yet applied to DATABASE_URL,
//                                        then render the Markdown HTML of versions that lack it
//   tsx scripts/db.ts status             list each migration as applied or pending
import pg from "pg";
import { applyMigrations, migrationsList } from "../lib/db/migrator.ts";
import { backfillRenderedMarkdown } from "../lib/registry/markdown-backfill.ts";

async function appliedMigrations(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query("select to_regclass('public._prisma_migrations') as t");
    if (!table.rows[0]?.t) return new Set();
    const rows = await client.query<{ migration_name: string }>(
      "select migration_name from _prisma_migrations where finished_at is not null and rolled_back_at is null",
    );
    return new Set(rows.rows.map((r) => r.migration_name));
  } finally {
    await client.end();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...flags] = argv;
  const url = process.env.DATABASE_URL;
  if (command !== "migrate" && command !== "status") {
    console.error("usage: tsx scripts/db.ts migrate [--json] | status");
    return 2;
  }
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    console.error("DATABASE_URL is missing or not a postgresql:// URL (see .env.example)");
    return 2;
  }
  if (command === "migrate") {
    const applied = await applyMigrations(url);
    const rendered = await backfillRenderedMarkdown(url);
    if (rendered && !flags.includes("--json")) console.log(`rendered the Markdown of ${rendered} earlier versions`);
    if (flags.includes("--json")) console.log(JSON.stringify(applied));
    else console.log(applied.length ? `applied: ${applied.join(", ")}` : "no migrations to apply: up to date");
    return 0;
  }
  const applied = await appliedMigrations(url);
  const names = migrationsList().migrationDirectories.map((d) => d.path);
  for (const name of names) console.log(`${applied.has(name) ? "applied" : "pending"}  ${name}`);
  const pending = names.filter((n) => !applied.has(n)).length;
  console.log(pending ? `${pending} pending: run npm run db:migrate` : "up to date");
  return 0;
}

// Exit explicitly: the schema engine can leave a pooled socket open for a while after its work.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // The schema engine appends a Rust backtrace ("   0: sql_schema_connector::…"); the cause is above it.
    const message = err instanceof Error ? err.message : String(err);
    const cause = message.split("\n").filter((line) => line.trim());
    const end = cause.findIndex((line) => /^\s+\d+: /.test(line));
    const named = message.match(/migration_name="([^"]+)"/);
    console.error(
      [...cause.slice(0, end === -1 ? undefined : end), named ? `(migration ${named[1]})` : ""].join(" ").trim(),
    );
    process.exit(1);
  },
);
