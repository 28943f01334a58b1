// `npm run backup [-- --out FILE]` and `npm run restore ARCHIVE` (lib/backup does the work).
// The database is DATABASE_URL, or the `openvibe` database that `npm start` uses; the Media store
// is the configured one (DATA_DIR/media, or Vercel Blob with BLOB_READ_WRITE_TOKEN). Exit 0 when
// done, 1 when refused or failed (the message says why), 2 for a usage error.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { BackupError } from "../lib/backup/errors";
import { ConfigError } from "../lib/config/env.mjs";
import { databaseUrl, ensureAuthSecret, ensurePostgres, ProvisionError } from "./provision.mjs";

const USAGE = "usage: npm run backup [-- --out FILE.tar.gz]   |   npm run restore ARCHIVE.tar.gz";

const say = (what: string) => (message: string) => console.log(`▸ ${what}: ${message}`);

async function prepareEnvironment(): Promise<void> {
  process.env.DATABASE_URL ??= databaseUrl(await ensurePostgres(), "openvibe");
  // The config module wants both; backup and restore use neither.
  process.env.AUTH_SECRET ??= ensureAuthSecret();
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379/0";
}

function stamp(date = new Date()): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
}

async function backup(args: string[]): Promise<number> {
  const i = args.indexOf("--out");
  if ((i !== -1 && !args[i + 1]) || args.some((a, j) => a !== "--out" && j !== i + 1)) {
    console.error(USAGE);
    return 2;
  }
  await prepareEnvironment();
  const { config } = await import("../lib/config/env.mjs");
  const { createMediaBackend } = await import("../lib/media");
  const { createBackup } = await import("../lib/backup/backup");
  const cfg = config();
  const out = path.resolve(i === -1 ? path.join(cfg.DATA_DIR, "backups", `openvibe-${stamp()}.tar.gz`) : args[i + 1]!);
  mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
  const started = Date.now();
  const result = await createBackup({
    databaseUrl: cfg.DATABASE_URL,
    media: createMediaBackend(cfg),
    out,
    env: process.env,
    pgBinDir: cfg.PG_BIN_DIR,
    progress: say("Backup"),
  });
  say("Backup")(
    `wrote ${result.file} (${result.bytes} bytes: ${result.tables} tables, ${result.rows} rows, ` +
      `${result.mediaObjects} Media objects) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}

async function restore(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0]!.startsWith("-")) {
    console.error(USAGE);
    return 2;
  }
  await prepareEnvironment();
  const { config } = await import("../lib/config/env.mjs");
  const { mediaTarget } = await import("../lib/backup/media-target");
  const { restoreBackup } = await import("../lib/backup/restore");
  const { migrationNames } = await import("../lib/db/migration-names");
  const cfg = config();
  const archive = path.resolve(args[0]!);
  const started = Date.now();
  const result = await restoreBackup({
    archive,
    databaseUrl: cfg.DATABASE_URL,
    media: mediaTarget(cfg),
    env: process.env,
    pgBinDir: cfg.PG_BIN_DIR,
    progress: say("Restore"),
  });
  say("Restore")(
    `restored the backup of ${result.createdAt}: ${result.tables} tables, ${result.rows} rows, ` +
      `${result.mediaObjects} Media objects in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const pending = migrationNames(path.resolve("prisma/migrations")).filter((m) => !result.migrations.includes(m));
  if (pending.length) say("Restore")(`${pending.length} migration(s) newer than the backup: run npm run db:migrate`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    if (command === "backup") return await backup(args);
    if (command === "restore") return await restore(args);
    console.error(USAGE);
    return 2;
  } catch (err) {
    if (err instanceof ProvisionError) {
      console.error(err.message);
      return 1;
    }
    if (err instanceof BackupError || err instanceof ConfigError) {
      console.error(`✖ ${command === "restore" ? "Restore" : "Backup"}: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

// Exit explicitly: pooled sockets (Prisma's, if anything loaded it) would keep the process alive.
main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
