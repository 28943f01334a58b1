// `npm run restore ARCHIVE`: an archive from createBackup into an EMPTY database and Media store.
// Nothing is written until the whole archive has been read once and every file matched its
// sha256 and size in the manifest (and the manifest its line in SHA256SUMS). Then the Media
// objects go into the store, then pg_restore runs as one transaction; if that fails the objects
// written are deleted again, so a failed restore leaves both targets as empty as it found them.
// Last, every table's row count is compared with the counts taken when the backup was made.
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { once } from "node:events";
import pg from "pg";
import { contentKey } from "../media/store";
import { type ArchiveEntry, readArchive, readEntry } from "./archive";
import { BackupError } from "./errors";
import type { MediaTarget } from "./media-target";
import {
  DATABASE_FILE,
  type Manifest,
  MANIFEST_FILE,
  manifestProblems,
  manifestSchema,
  MAX_INDEX_BYTES,
  mediaPathDigest,
  parseSums,
  SUMS_FILE,
} from "./manifest";
import { libpqTarget, runPgTool } from "./pg-run";
import { findPgTools } from "./pg-tools";
import { appliedMigrations, serverVersion, tableCounts, userObjects } from "./pg-stats";

export type RestoreOptions = {
  archive: string;
  databaseUrl: string;
  media: MediaTarget;
  env: Record<string, string | undefined>;
  pgBinDir?: string;
  progress?: (message: string) => void;
};

export type RestoreResult = {
  tables: number;
  rows: number;
  mediaObjects: number;
  migrations: string[];
  createdAt: string;
};

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const progress = options.progress ?? (() => {});
  const client = new pg.Client({ connectionString: options.databaseUrl, application_name: "openvibe-restore" });
  client.on("error", () => {});
  await client.connect().catch((err: unknown) => {
    throw new BackupError(`Cannot connect to DATABASE_URL: ${(err as Error).message}`);
  });
  const work = await mkdtemp(path.join(tmpdir(), "openvibe-restore-"));
  try {
    await assertEmptyTargets(client, options);
    const dumpFile = path.join(work, DATABASE_FILE);
    const manifest = await verifyArchive(options.archive, dumpFile);
    progress(
      `archive verified: ${manifest.files.length} files match their sha256 (backup of ${manifest.createdAt}, ` +
        `PostgreSQL ${manifest.database.serverVersion})`,
    );
    const server = await serverVersion(client);
    const tools = await findPgTools({
      minMajor: manifest.database.pgDumpMajor,
      binDir: options.pgBinDir,
      why: `An archive made by pg_dump ${manifest.database.pgDumpVersion}`,
      envPath: options.env.PATH ?? "",
    });
    progress(`PostgreSQL ${server.version}, pg_restore ${tools.version} (${tools.dir})`);

    const written = await restoreMedia(options, manifest);
    progress(`media: ${written.length} objects written to ${options.media.where}`);
    try {
      const target = libpqTarget(options.databaseUrl);
      await runPgTool(
        tools.pgRestore,
        [
          "--single-transaction",
          "--exit-on-error",
          "--no-owner",
          "--no-privileges",
          `--dbname=${target.url}`,
          dumpFile,
        ],
        { env: options.env, password: target.password, what: "pg_restore" },
      );
    } catch (err) {
      await deleteKeys(options, written);
      throw err;
    }
    const counts = await tableCounts(client);
    const mismatched = Object.entries(manifest.database.tables)
      .filter(([table, n]) => counts[table] !== n)
      .map(([table, n]) => `${table}: ${counts[table] ?? "missing"} rows, ${n} in the backup`);
    if (mismatched.length) {
      throw new BackupError(`The restored database does not match the backup:\n  ${mismatched.join("\n  ")}`);
    }
    const rows = Object.values(counts).reduce((a, b) => a + b, 0);
    progress(`database restored: ${Object.keys(counts).length} tables, ${rows} rows, every count as in the backup`);
    return {
      tables: Object.keys(counts).length,
      rows,
      mediaObjects: written.length,
      migrations: await appliedMigrations(client),
      createdAt: manifest.createdAt,
    };
  } finally {
    await client.end().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

async function assertEmptyTargets(client: pg.Client, options: RestoreOptions) {
  const objects = await userObjects(client);
  if (objects.count) {
    const name = (await client.query<{ d: string }>("select current_database() as d")).rows[0]!.d;
    throw new BackupError(
      `The database "${name}" is not empty (${objects.count} objects, e.g. ${objects.examples.join(", ")}). ` +
        `Restore only goes into an empty database: create one (e.g. \`createdb openvibe_restored\`) and point DATABASE_URL at it.`,
    );
  }
  const existing = await options.media.firstObject();
  if (existing) {
    throw new BackupError(
      `The Media store (${options.media.where}) is not empty (it holds ${existing}). ` +
        `Restore only goes into an empty Media store: point DATA_DIR at an empty folder (or BLOB_READ_WRITE_TOKEN at an empty store).`,
    );
  }
}

/**
 * Reads the whole archive once: the manifest and SHA256SUMS first, then each listed file exactly
 * once with the size and sha256 listed, nothing else. Writes database.dump to `dumpFile`.
 */
async function verifyArchive(archive: string, dumpFile: string): Promise<Manifest> {
  let manifest: Manifest | undefined;
  let manifestSha = "";
  let files: Map<string, Manifest["files"][number]> | undefined;
  const seen = new Set<string>();
  let index = 0;
  const refuse = (why: string) => new BackupError(`${archive} is not a valid OpenVibe backup: ${why}.`);
  try {
    await readArchive(archive, async (entry) => {
      const position = index++;
      if (entry.type !== "file") throw refuse(`${JSON.stringify(entry.name)} is a ${entry.type}, not a file`);
      if (position === 0) {
        if (entry.name !== MANIFEST_FILE) throw refuse(`it does not start with ${MANIFEST_FILE}`);
        const bytes = await readEntry(entry, MAX_INDEX_BYTES);
        manifestSha = sha256(bytes);
        const parsed = manifestSchema.safeParse(parseJson(bytes));
        if (!parsed.success) throw refuse(`${MANIFEST_FILE} is not a manifest (${parsed.error.issues[0]?.message})`);
        manifest = parsed.data;
        return;
      }
      if (position === 1) {
        if (entry.name !== SUMS_FILE) throw refuse(`${SUMS_FILE} does not follow ${MANIFEST_FILE}`);
        const sums = parseSums((await readEntry(entry, MAX_INDEX_BYTES)).toString("utf8"));
        const problems = manifestProblems(manifest!, sums, manifestSha);
        if (problems.length) throw refuse(problems.slice(0, 5).join("; "));
        files = new Map(manifest!.files.map((f) => [f.path, f]));
        return;
      }
      const listed = files!.get(entry.name);
      if (!listed) throw refuse(`it holds ${JSON.stringify(entry.name)}, which the manifest does not list`);
      if (seen.has(entry.name)) throw refuse(`it holds ${entry.name} twice`);
      seen.add(entry.name);
      if (entry.size !== listed.size)
        throw refuse(`${entry.name} has ${entry.size} bytes, the manifest says ${listed.size}`);
      const actual = await hashEntry(entry, entry.name === DATABASE_FILE ? dumpFile : null);
      if (actual !== listed.sha256) {
        throw refuse(`${entry.name} does not match its sha256 (${actual}, the manifest says ${listed.sha256})`);
      }
    });
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw refuse((err as Error).message);
  }
  if (!manifest || !files) throw refuse(`it has no ${manifest ? SUMS_FILE : MANIFEST_FILE}`);
  const missing = [...files.keys()].filter((p) => !seen.has(p));
  if (missing.length) throw refuse(`${missing.length} listed file(s) are missing, e.g. ${missing[0]}`);
  return manifest;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The entry's sha256, streaming it into `copyTo` when given. */
async function hashEntry(entry: ArchiveEntry, copyTo: string | null): Promise<string> {
  const hash = createHash("sha256");
  const out = copyTo ? createWriteStream(copyTo, { mode: 0o600 }) : null;
  for await (const chunk of entry.stream) {
    hash.update(chunk);
    if (out && !out.write(chunk)) await once(out, "drain");
  }
  if (out)
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return hash.digest("hex");
}

/** Second pass: each Media file into the store, checked again on the way (the file may have changed since). */
async function restoreMedia(options: RestoreOptions, manifest: Manifest): Promise<string[]> {
  const types = new Map(manifest.media.objects.map((o) => [o.sha256, o]));
  const written: string[] = [];
  try {
    await readArchive(options.archive, async (entry) => {
      const digest = mediaPathDigest(entry.name);
      const object = digest ? types.get(digest) : undefined;
      if (!digest || !object) {
        for await (const chunk of entry.stream) void chunk;
        return;
      }
      const bytes = await readEntry(entry, object.sizeBytes);
      if (sha256(bytes) !== digest)
        throw new BackupError(`${entry.name} changed since it was verified; nothing was restored.`);
      const key = contentKey(digest);
      await options.media.backend.put(key, bytes, object.mediaType);
      written.push(key);
    });
  } catch (err) {
    await deleteKeys(options, written);
    throw err;
  }
  if (written.length !== manifest.media.objects.length) {
    await deleteKeys(options, written);
    throw new BackupError(`${options.archive} changed since it was verified; nothing was restored.`);
  }
  return written;
}

async function deleteKeys(options: RestoreOptions, keys: string[]) {
  for (const key of keys) await options.media.backend.delete(key).catch(() => {});
}
