// Descriptors a process inherited open across exec (not close-on-exec) pass on to every child it
// starts, and through bwrap into the sandbox: Node's permission model checks paths, not
// descriptors, so a tool could read or write one (a supervisor's log pipe, a socket). The Link's
// commands that run tools, and its spawner, close them first: all but the standard three and `keep`.
import { closeSync, readdirSync, readFileSync } from "node:fs";

/** Linux's O_CLOEXEC as /proc/<pid>/fdinfo prints it (octal flags). */
const O_CLOEXEC = 0o2000000;

/** Closes this process's inherited descriptors above 2 (except `keep`); returns those closed. */
export function closeInheritedDescriptors(keep: readonly number[] = []): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc/self/fd");
  } catch {
    // No /proc (macOS): nothing to go by.
    return [];
  }
  const closed: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isSafeInteger(fd) || fd <= 2 || keep.includes(fd)) continue;
    let flags: number;
    try {
      flags = parseInt(/^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1] ?? "", 8);
    } catch {
      continue;
    }
    if (Number.isNaN(flags) || flags & O_CLOEXEC) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // Gone meanwhile.
    }
  }
  return closed;
}
