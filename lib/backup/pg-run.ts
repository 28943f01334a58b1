// Runs pg_dump / pg_restore against a DATABASE_URL: the password goes in PGPASSWORD (never on the
// command line, where `ps` would show it) and the query parameters only Prisma understands are
// dropped, so libpq accepts the URL.
import { spawn } from "node:child_process";
import { BackupError } from "./errors";

// Parameters of Prisma's connection strings that libpq would reject.
const PRISMA_ONLY_PARAMS = [
  "schema",
  "connection_limit",
  "pool_timeout",
  "pgbouncer",
  "socket_timeout",
  "statement_cache_size",
];
const STDERR_KEPT = 4_000;
// libpq variables that would point the tools somewhere else than the URL (TLS ones are kept).
const TARGET_VARS = new Set([
  "PGHOST",
  "PGHOSTADDR",
  "PGPORT",
  "PGDATABASE",
  "PGUSER",
  "PGPASSWORD",
  "PGPASSFILE",
  "PGSERVICE",
  "PGSERVICEFILE",
  "PGOPTIONS",
]);

export function libpqTarget(databaseUrl: string): { url: string; password?: string } {
  const url = new URL(databaseUrl);
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.password = "";
  for (const p of PRISMA_ONLY_PARAMS) url.searchParams.delete(p);
  return { url: url.toString(), password };
}

export async function runPgTool(
  bin: string,
  args: string[],
  options: { env: Record<string, string | undefined>; password?: string; what: string },
): Promise<void> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined && !TARGET_VARS.has(k)) env[k] = v;
  if (options.password) env.PGPASSWORD = options.password;
  let stderr = "";
  const code = await new Promise<number>((resolve) => {
    const child = spawn(bin, args, { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "ignore", "pipe"] });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
    });
    child.on("error", (err) => {
      stderr += err.message;
      resolve(127);
    });
    child.on("exit", (c, signal) => resolve(c ?? (signal ? 128 : 1)));
  });
  if (code !== 0) {
    throw new BackupError(`${options.what} failed (${bin} exit ${code}):\n${stderr.trim() || "(no output)"}`);
  }
}
