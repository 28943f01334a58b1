// Processes anywhere on the machine, found by what their command line carries: a sandbox's Node
// carries its folder's id, a tool its marks.
import { readdirSync, readFileSync } from "node:fs";

/** The pids of processes whose command line carries one of `marks`. */
export function processesOf(...marks: string[]): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (marks.some((mark) => cmdline.includes(mark))) found.push(Number(pid));
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}
