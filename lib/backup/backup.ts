// `npm run backup`: one consistent archive of the instance. The database is dumped by pg_dump
// from a snapshot exported by a REPEATABLE READ transaction, which also lists the Media objects
// and counts every table; then the bytes of every Media object in that snapshot are read through
// the Media store (verified by sha256 on the way) into the same archive. Bytes are immutable and
// content-addressed, so the only way the store can disagree with the snapshot is an object deleted
// since; that attempt is dropped and the backup starts again.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { AppError } from "../errors";
import { contentKey, type BlobBackend } from "../media/store";
import { ArchiveWriter } from "./archive";
import { BackupError } from "./errors";
import {
  BACKUP_FORMAT,
  DATABASE_FILE,
  formatSums,
  type Manifest,
  MANIFEST_FILE,
  mediaPath,
  SUMS_FILE,
} from "./manifest";
import { libpqTarget, runPgTool } from "./pg-run";
import { findPgTools } from "./pg-tools";
import { appliedMigrations, serverVersion, tableCounts } from "./pg-stats";

export type BackupOptions = {
  databaseUrl: string;
  media: BlobBackend;
  /** Where the archive goes; it appears under this name only when complete. */
  out: string;
  /** The environment the PostgreSQL tools run with (PATH and TLS settings). */
  env: Record<string, string | undefined>;
  pgBinDir?: string;
  progress?: (message: string) => void;
};

export type BackupResult = {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  mediaObjects: number;
  mediaBytes: number;
};

const ATTEMPTS = 3;
// Media reads in flight while the archive is written in order (Vercel Blob is a round trip each).
const MEDIA_READ_AHEAD = 4;

/** A Media object of the snapshot was deleted from the store during the backup: try again. */
class MediaChangedError extends Error {}

type MediaRow = { sha256: string; sizeBytes: number; mediaType: string };

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptBackup(options);
    } catch (err) {
      if (!(err instanceof MediaChangedError) || attempt === ATTEMPTS) {
        if (err instanceof MediaChangedError) {
          throw new BackupError(
            `Media objects kept being deleted during the backup (${ATTEMPTS} attempts); run it again.`,
          );
        }
        throw err;
      }
      options.progress?.(`${err.message}; starting again (attempt ${attempt + 1} of ${ATTEMPTS})`);
    }
  }
}

async function attemptBackup(options: BackupOptions): Promise<BackupResult> {
  const progress = options.progress ?? (() => {});
  const target = libpqTarget(options.databaseUrl);
  const client = new pg.Client({ connectionString: options.databaseUrl, application_name: "openvibe-backup" });
  client.on("error", () => {});
  const work = await mkdtemp(path.join(tmpdir(), "openvibe-backup-"));
  const dumpFile = path.join(work, DATABASE_FILE);
  try {
    await client.connect().catch((err: unknown) => {
      throw new BackupError(`Cannot connect to DATABASE_URL: ${(err as Error).message}`);
    });
    await client.query("begin isolation level repeatable read read only");
    const snapshot = (await client.query<{ s: string }>("select pg_export_snapshot() as s")).rows[0]!.s;
    const server = await serverVersion(client);
    const tools = await findPgTools({
      minMajor: server.major,
      binDir: options.pgBinDir,
      why: `The PostgreSQL server (${server.version})`,
      envPath: options.env.PATH ?? "",
    });
    progress(`PostgreSQL ${server.version}, pg_dump ${tools.version} (${tools.dir})`);
    const tables = await tableCounts(client);
    const migrations = await appliedMigrations(client);
    const media = (
      await client.query<MediaRow>(
        `select distinct on (sha256) sha256, "sizeBytes", "mediaType" from "MediaObject"
          where "inlineBytes" is null order by sha256, "createdAt"`,
      )
    ).rows;
    await runPgTool(
      tools.pgDump,
      ["--format=custom", "--compress=0", `--snapshot=${snapshot}`, `--file=${dumpFile}`, `--dbname=${target.url}`],
      { env: options.env, password: target.password, what: "pg_dump" },
    );
    await client.query("commit");
    const rows = Object.values(tables).reduce((a, b) => a + b, 0);
    const dump = { size: (await stat(dumpFile)).size, sha256: await sha256OfFile(dumpFile) };
    progress(`database dumped: ${Object.keys(tables).length} tables, ${rows} rows, ${dump.size} bytes`);

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      database: {
        file: DATABASE_FILE,
        format: "pg_dump-custom",
        serverVersion: server.version,
        pgDumpVersion: tools.version,
        pgDumpMajor: tools.major,
        migrations,
        tables,
      },
      media: { backend: options.media.kind, objects: media },
      files: [
        { path: DATABASE_FILE, sha256: dump.sha256, size: dump.size },
        ...media.map((m) => ({ path: mediaPath(m.sha256), sha256: m.sha256, size: m.sizeBytes })),
      ],
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
    const manifestSha = createHash("sha256").update(manifestBytes).digest("hex");
    const sums = formatSums([{ path: MANIFEST_FILE, sha256: manifestSha }, ...manifest.files]);

    const writer = ArchiveWriter.create(options.out);
    try {
      await writer.addBuffer(MANIFEST_FILE, manifestBytes);
      await writer.addBuffer(SUMS_FILE, Buffer.from(sums));
      await writer.addFile(DATABASE_FILE, dumpFile, dump.size);
      const mediaBytes = await writeMedia(writer, options, media);
      await writer.finish();
      progress(`media: ${media.length} objects, ${mediaBytes} bytes from the ${options.media.kind} store`);
      return {
        file: options.out,
        bytes: (await stat(options.out)).size,
        tables: Object.keys(tables).length,
        rows,
        mediaObjects: media.length,
        mediaBytes,
      };
    } catch (err) {
      await writer.abort();
      throw err;
    }
  } finally {
    await client.end().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

async function writeMedia(writer: ArchiveWriter, options: BackupOptions, media: MediaRow[]): Promise<number> {
  const reads: Array<Promise<Buffer>> = [];
  let next = 0;
  const readAhead = () => {
    while (reads.length < MEDIA_READ_AHEAD && next < media.length) {
      const read = readMedia(options, media[next++]!);
      read.catch(() => {});
      reads.push(read);
    }
  };
  let total = 0;
  readAhead();
  for (const m of media) {
    const bytes = await reads.shift()!;
    readAhead();
    await writer.addBuffer(mediaPath(m.sha256), bytes);
    total += bytes.length;
  }
  return total;
}

async function readMedia(options: BackupOptions, m: MediaRow): Promise<Buffer> {
  let bytes: Buffer;
  try {
    // get() re-hashes the bytes against the content key.
    bytes = await options.media.get(contentKey(m.sha256));
  } catch (err) {
    if (!(err instanceof AppError && err.code === "media.bytes_missing")) throw err;
    if (!(await stillReferenced(options.databaseUrl, m.sha256))) {
      throw new MediaChangedError(`Media object ${m.sha256} was deleted during the backup`);
    }
    throw new BackupError(
      `Media object ${m.sha256} is referenced by the database but its bytes are missing from the ` +
        `${options.media.kind} store: the store has lost data. Restore it from an older backup or the store's own copies.`,
    );
  }
  if (bytes.length !== m.sizeBytes) {
    throw new BackupError(
      `Media object ${m.sha256} has ${bytes.length} bytes in the store, ${m.sizeBytes} in the database.`,
    );
  }
  return bytes;
}

async function stillReferenced(databaseUrl: string, sha256: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`select 1 from "MediaObject" where sha256 = $1 limit 1`, [sha256])).rowCount! > 0;
  } finally {
    await client.end();
  }
}
