// Where a Sandbox keeps its files (the prepared /usr tree, the job folders), and how Links that
// share a machine tell a live folder from an abandoned one. Every Sandbox owns one folder and holds
// an exclusive flock on it for as long as its process lives; the kernel drops the lock when the
// process dies, whatever PID namespace it ran in. A folder whose lock can be taken is abandoned,
// and only then is it removed (with the job cgroups named after it). PIDs decide nothing.
//
//   <base>/                      <tmpdir>/openvibe-link-<uid> unless given; 0711, owned by the Link's uid
//     link-<key>/<instance>/     the Sandboxes of one Link, key = hash of its home (`openvibe-link run`)
//     exec/<instance>/           one per `openvibe-link exec`, removed when it ends
//       sys/ wasm/ job-<id>/
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { LinkError } from "../errors";
import { EMPTY_ENV, systemTool } from "./bwrap";

const SCOPE = /^(?:link-[0-9a-f]{16}|exec)$/;
const INSTANCE = /^i[0-9a-f]{12}$/;
/** A folder being claimed: made and locked under this name, then renamed, so no sweeper sees it unlocked. */
const CLAIMING = /^\.new-(i[0-9a-f]{12})$/;
/** A claim still unfinished after this long was left by a process that died while making it. */
const CLAIM_GRACE_MS = 60_000;
/** Descriptors handed to one flock run. */
const LOCK_BATCH = 48;
/** Tries each inherited descriptor ($3…) without waiting and prints the ones it locked. */
const LOCK_SCRIPT = 'f=$1; shift; for fd in "$@"; do "$f" --exclusive --nonblock "$fd" && echo "$fd"; done; exit 0';

export function defaultBase(): string {
  return path.join(os.tmpdir(), `openvibe-link-${process.getuid?.() ?? "user"}`);
}

/** The folder of one Link (keyed by its home), or the one `exec` invocations share. */
export function scopeOf(linkHome?: string): string {
  if (linkHome === undefined) return "exec";
  return `link-${createHash("sha256").update(path.resolve(linkHome)).digest("hex").slice(0, 16)}`;
}

/** A folder whose owner is gone; its lock is held by us until `discard` or `keep`. */
export class AbandonedFolder {
  constructor(
    readonly id: string,
    readonly dir: string,
    private fd: number | null,
  ) {}

  /** Removes it, then lets the lock go. */
  discard(): void {
    rmSync(this.dir, { recursive: true, force: true });
    this.keep();
  }

  /** Lets the lock go without removing anything (a later sweep tries again). */
  keep(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

export class SandboxFolder {
  private constructor(
    readonly id: string,
    readonly dir: string,
    private fd: number | null,
  ) {}

  /**
   * Makes this Sandbox's folder under `base/scope` and locks it for the life of this process. The
   * locks of abandoned folders (any scope) are taken in the same flock run and handed back: the
   * caller clears what their owners left elsewhere (job cgroups), then discards them.
   */
  static claim(base: string, scope: string): { folder: SandboxFolder; abandoned: AbandonedFolder[] } {
    if (!SCOPE.test(scope)) throw new Error(`bad sandbox scope ${scope}`);
    privateDir(base);
    const scopeDir = path.join(base, scope);
    const id = `i${randomBytes(6).toString("hex")}`;
    const claiming = path.join(scopeDir, `.new-${id}`);
    // Another Sandbox may remove the scope folder as empty between the two steps; then make it again.
    for (let attempt = 0; ; attempt++) {
      try {
        privateDir(scopeDir);
        mkdirSync(claiming, { mode: 0o711 });
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT" || attempt >= 5) throw err;
      }
    }
    chmodSync(claiming, 0o711);
    const own = openSync(claiming, "r");
    const candidates = abandonedCandidates(base).flatMap(({ id: other, dir }) => {
      try {
        return [{ id: other, dir, fd: openSync(dir, "r") }];
      } catch {
        return []; // Removed meanwhile by another sweeper.
      }
    });
    let locked: Set<number>;
    try {
      locked = takeLocks([own, ...candidates.map((c) => c.fd)]);
    } catch (err) {
      for (const c of candidates) closeSync(c.fd);
      closeSync(own);
      rmSync(claiming, { recursive: true, force: true });
      throw err;
    }
    const abandoned: AbandonedFolder[] = [];
    for (const c of candidates) {
      if (locked.has(c.fd)) abandoned.push(new AbandonedFolder(c.id, c.dir, c.fd));
      else closeSync(c.fd);
    }
    if (!locked.has(own)) {
      for (const a of abandoned) a.keep();
      closeSync(own);
      rmSync(claiming, { recursive: true, force: true });
      throw new LinkError("link.sandbox.unavailable", `Could not lock the sandbox folder ${claiming}.`);
    }
    const dir = path.join(scopeDir, id);
    renameSync(claiming, dir);
    return { folder: new SandboxFolder(id, dir, own), abandoned };
  }

  /** Removes the folder and everything in it, then drops the lock. */
  release(): void {
    if (this.fd === null) return;
    rmSync(this.dir, { recursive: true, force: true });
    closeSync(this.fd);
    this.fd = null;
  }
}

/** Removes the scope folders under `base` that hold nothing any more, except `keep`. */
export function removeEmptyScopes(base: string, keep: string): void {
  for (const scope of safeList(base)) {
    if (!SCOPE.test(scope) || scope === keep) continue;
    try {
      rmdirSync(path.join(base, scope));
    } catch {
      // Not empty, or gone already.
    }
  }
}

/** Makes `dir` (its parent must exist) or accepts it only as a real folder of ours that nobody else may write. */
function privateDir(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o711 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const stat = lstatSync(dir);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new LinkError("link.sandbox.unavailable", `${dir} is not a folder owned by this user; remove it or choose another place for the Link's sandbox folders.`);
  }
  chmodSync(dir, 0o711);
}

/** Every instance folder under `base`, and claims left unfinished for longer than the grace. */
function abandonedCandidates(base: string): Array<{ id: string; dir: string }> {
  const out: Array<{ id: string; dir: string }> = [];
  for (const scope of safeList(base)) {
    if (!SCOPE.test(scope)) continue;
    const scopeDir = path.join(base, scope);
    for (const name of safeList(scopeDir)) {
      const dir = path.join(scopeDir, name);
      if (INSTANCE.test(name)) out.push({ id: name, dir });
      const claim = CLAIMING.exec(name);
      if (claim && isOlderThan(dir, CLAIM_GRACE_MS)) out.push({ id: claim[1]!, dir });
    }
  }
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function isOlderThan(file: string, ms: number): boolean {
  try {
    return Date.now() - lstatSync(file).mtimeMs > ms;
  } catch {
    return false;
  }
}

/**
 * Takes, without waiting, an exclusive flock on each descriptor and returns the ones now held.
 * Node has no flock; util-linux's flock(1) locks the descriptor it inherits, and the lock belongs
 * to the open file, which this process keeps, so it lasts until we close it or die.
 */
function takeLocks(fds: number[]): Set<number> {
  const flock = systemTool("flock");
  const held = new Set<number>();
  for (let start = 0; start < fds.length; start += LOCK_BATCH) {
    const batch = fds.slice(start, start + LOCK_BATCH);
    const result = spawnSync("/bin/sh", ["-c", LOCK_SCRIPT, "sh", flock, ...batch.map((_, i) => String(3 + i))], {
      stdio: ["ignore", "pipe", "pipe", ...batch],
      env: EMPTY_ENV,
      encoding: "utf8",
      timeout: 10_000,
    });
    if (result.status !== 0) throw new LinkError("link.sandbox.unavailable", `flock failed: ${result.error?.message ?? result.stderr.trim()}`);
    for (const line of result.stdout.split("\n")) {
      const index = Number(line) - 3;
      if (line && index >= 0 && index < batch.length) held.add(batch[index]!);
    }
  }
  return held;
}
