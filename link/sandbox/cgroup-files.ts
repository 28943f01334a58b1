// Reading and writing cgroup control files, and probing whether a cgroup folder takes them: shared
// by the job cgroups (./cgroup.ts) and their CPU groups (./cpu-group.ts).
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

/** A control file and the value written to it; a list, because the order of writes matters. */
export type CgroupWrite = [file: string, value: string];

/** The file's text, or "" when it cannot be read. */
export function safeRead(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** Writes `writes` in `dir` in order; false at the first one refused. */
export function writeAll(dir: string, writes: CgroupWrite[]): boolean {
  try {
    for (const [file, value] of writes) writeFileSync(path.join(dir, file), value);
    return true;
  } catch {
    return false;
  }
}

/** Whether a child of `parent` can be made and takes `writes` (probed with a folder made and removed). */
export function canMakeChild(parent: string, writes: CgroupWrite[]): boolean {
  const probe = path.join(parent, `openvibe-probe-${process.pid}-${randomBytes(3).toString("hex")}`);
  try {
    mkdirSync(probe);
  } catch {
    return false;
  }
  try {
    return writeAll(probe, writes);
  } finally {
    try {
      rmdirSync(probe);
    } catch {
      // A probe we could make but not remove is harmless; the kernel frees it when empty.
    }
  }
}
