// The one way tests make temp folders (and the Link keys inside them): under the OS temp folder,
// named `ov-<name>-XXXXXX`, and always removed, also when a test fails. Vitest removes them after
// each test file (test/helpers/vitest-setup.ts); Playwright specs call removeTempDirs in afterAll;
// whatever is still there when the process exits goes then. `npm test` runs every suite with its
// own TMPDIR and fails if anything with the project's prefixes is left in it (scripts/test.mjs).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Names of everything the project puts in the temp folder start with one of these. */
export const TEMP_PREFIXES = ["ov-", "openvibe-"] as const;

const made = new Set<string>();

/** A new empty folder `ov-<name>-XXXXXX` in the temp folder, removed with the others. */
export function tempDir(name: string): string {
  if (!/^[a-z0-9-]{1,40}$/.test(name))
    throw new Error(`tempDir: use a short kebab-case name, not ${JSON.stringify(name)}`);
  const dir = mkdtempSync(path.join(tmpdir(), `${TEMP_PREFIXES[0]}${name}-`));
  made.add(dir);
  return dir;
}

/** Removes one folder made by tempDir now (e.g. to test what happens without it). */
export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  made.delete(dir);
}

/** Removes every folder tempDir made in this process. */
export function removeTempDirs(): void {
  for (const dir of made) removeTempDir(dir);
}

// The last resort: a process that ends without running its hooks still takes its folders along.
process.once("exit", removeTempDirs);
