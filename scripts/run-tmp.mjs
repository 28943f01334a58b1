// `npm test`'s own temp folder: every suite (and every program it starts) gets TMPDIR pointed at
// one folder per run, so what tests leave behind can be found and counted without mistaking another
// run's files for ours, and the folder is removed at the end whatever happened.
import { chmodSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Names of what the project puts in the temp folder (test/helpers/temp-dir.ts, the Link's folders). */
export const TEMP_PREFIXES = ["ov-", "openvibe-"];
/** Outside TEMP_PREFIXES on purpose: a concurrent run's folder is never one of our leftovers. */
const RUN_TMP_PREFIX = "ovtest-run-";

/**
 * Makes this run's folder in parent (the system temp folder), named with this process's pid, and
 * first clears any such folder whose run is gone (killed before its cleanup).
 */
export function makeRunTmp(runId, parent = tmpdir()) {
  for (const entry of readdirSync(parent)) {
    if (!entry.startsWith(RUN_TMP_PREFIX)) continue;
    const pid = Number(entry.slice(RUN_TMP_PREFIX.length).split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid))
      rmSync(path.join(parent, entry), { recursive: true, force: true });
  }
  const dir = path.join(parent, `${RUN_TMP_PREFIX}${process.pid}-${runId}`);
  // Others may pass through but not list it: the Link sandbox runs tools as another uid, and bwrap
  // must reach the Link's folders inside (as it reaches them under the system temp folder).
  mkdirSync(dir, { mode: 0o711 });
  chmodSync(dir, 0o711);
  return dir;
}

/**
 * What is left in dir under the project's temp prefixes (tool caches such as tsx's are not ours).
 * A Link work folder (`openvibe-link-*`, made by the Link's sandbox for its job folders and kept
 * for its next run) is not counted while it holds only empty per-Link folders and the cache of
 * Node's own fetch WebAssembly (link/sandbox/fetch-wasm.ts); a job folder or a key in it is.
 */
export function tempLeftovers(dir) {
  return readdirSync(dir)
    .filter((name) => TEMP_PREFIXES.some((p) => name.startsWith(p)))
    .filter((name) => !(name.startsWith("openvibe-link-") && isIdleLinkWorkRoot(path.join(dir, name))))
    .sort();
}

/** The first few names inside a leftover folder, to say what it holds. */
export function peek(file, max = 5) {
  try {
    const names = readdirSync(file);
    return names.length > max ? [...names.slice(0, max), `… ${names.length - max} more`] : names;
  } catch {
    return [];
  }
}

function isIdleLinkWorkRoot(root) {
  try {
    return readdirSync(root).every(
      (name) => name === "fetch-wasm" || ((name === "exec" || name.startsWith("link-")) && isEmptyDir(path.join(root, name))),
    );
  } catch {
    return false;
  }
}

function isEmptyDir(file) {
  try {
    return readdirSync(file).length === 0;
  } catch {
    return false;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
