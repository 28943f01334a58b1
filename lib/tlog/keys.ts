// The log's signing key. Production: TLOG_SIGNING_KEY from config, the same on every host. A local
// instance: a key generated once into $DATA_DIR/tlog-signing-key (mode 0600) and kept there, named
// after APP_URL's host. The key that first signs a log is pinned in its LogHead row (checkpoint.ts).
import "server-only";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "../config/env.mjs";
import { generateSignerKey, parseSignerKey, type SignerKey } from "./note";

export const LOCAL_KEY_FILE = "tlog-signing-key";

let cached: SignerKey | undefined;

export function logSigner(): SignerKey {
  if (cached) return cached;
  const cfg = config();
  cached = parseSignerKey(
    cfg.TLOG_SIGNING_KEY ?? localSignerKey(path.resolve(cfg.DATA_DIR, LOCAL_KEY_FILE), localKeyName(cfg.APP_URL)),
  );
  return cached;
}

export const localKeyName = (appUrl: string) => `${new URL(appUrl).host}/skills-log`;

/** Reads the local key, or makes it; two processes starting at once agree on one file (O_EXCL). */
function localSignerKey(file: string, name: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${generateSignerKey(name).skey}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return readFileSync(file, "utf8").trim();
}
