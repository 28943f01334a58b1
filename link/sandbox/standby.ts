// The standby shell: started ahead of its job, already in the job's fresh cgroup and at the tool's
// priority, holding the fixed start of the command line. A job sends it the rest (./run.ts
// `launch`) and it becomes bwrap, then Node. Started by the Link's spawner when there is one
// (./spawner.ts), else by the Link itself.
import { spawn } from "node:child_process";
import { EMPTY_ENV } from "./bwrap";
import type { JobCgroup } from "./cgroup";
import { LIMIT_CAPS } from "./policy";
import { lowerTaskPriority } from "./priority";
import { Spawner, type SandboxChild } from "./spawner";
import { CONTROL_FD } from "./warm";

/** Unprivileged ids for the sandbox when the Link runs as root (nobody/nogroup). */
export const SANDBOX_UID = 65534;
export const SANDBOX_GID = 65534;
/** Where bwrap reports the sandbox's pid. */
export const INFO_FD = 3;
/** bwrap reads its (long) option list from here in one read; the shell reads only the short rest. */
export const ARGS_FD = 4;
/** The standby's descriptors the Link reads: the tool's stdout and stderr, bwrap's info, warm.cjs's control. */
const READ_FDS = [1, 2, INFO_FD, CONTROL_FD];
/** Caps every sandbox gets, set by the standby shell before it becomes bwrap. */
const RLIMIT_FSIZE_BLOCKS = 2048; // 512-byte blocks: 1 MiB
const RLIMIT_NOFILE = 64;
/**
 * CPU seconds: above any wall_ms a job may ask (GC threads add CPU time), so it never ends a job
 * early; it is the kernel's bound that still holds if the Link dies and nobody enforces wall_ms.
 */
const RLIMIT_CPU_SECONDS = Math.ceil((LIMIT_CAPS.wall_ms * 2) / 1000) + 1;
/**
 * The standby: sets the fixed rlimits, reads the rest of the command line (one argument per line
 * up to an empty line) after the fixed start it was given as arguments, then becomes it (exec).
 * Whatever follows on stdin is the tool's input. No line at all means the Link went away. (dash
 * reads a line one byte per read(2); the fixed start is most of the line, so it is not sent.)
 */
const STANDBY_SCRIPT = [
  `ulimit -n ${RLIMIT_NOFILE}; ulimit -f ${RLIMIT_FSIZE_BLOCKS}; ulimit -c 0; ulimit -t ${RLIMIT_CPU_SECONDS}`,
  "n=0",
  'while IFS= read -r a && [ -n "$a" ]; do set -- "$@" "$a"; n=$((n + 1)); done',
  '[ "$n" -gt 0 ] || exit 125',
  'exec "$@"',
].join("; ");

/** `fixed` is the start of the command line the standby already holds (it is not sent again). */
export type Standby = { child: SandboxChild; cgroup: JobCgroup | null; joined: Promise<void>; fixed: string[] };

/**
 * A standby holding `fixed`, joining `cgroup` (`joined` resolves once it is in); `control`: with
 * warm.cjs's descriptor. It does not keep the Link's process alive until it is ref'd (`setRef`).
 */
export function startStandby(opts: {
  fixed: string[];
  cgroup: JobCgroup | null;
  control: boolean;
  asRoot: boolean;
  spawner: Spawner | undefined;
}): Standby {
  const { fixed, cgroup, spawner } = opts;
  const fds = opts.control ? CONTROL_FD + 1 : ARGS_FD + 1;
  const args = ["-c", STANDBY_SCRIPT, "sh", ...fixed];
  const ids = opts.asRoot ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : {};
  const child: SandboxChild = spawner
    ? spawner.spawn({ file: "/bin/sh", args, env: EMPTY_ENV, fds, read: READ_FDS.filter((fd) => fd < fds), ...ids })
    : spawn("/bin/sh", args, { env: EMPTY_ENV, stdio: Array.from({ length: fds }, () => "pipe" as const), ...ids });
  child.on("error", () => {});
  setRef(child, false);
  const joined = Spawner.spawned(child).then((pid) => {
    lowerTaskPriority(pid);
    return cgroup?.addAsync(pid);
  });
  joined.catch(() => {});
  return { child, cgroup, joined, fixed };
}

/** Whether the child and its pipes keep the Link's process alive. */
export function setRef(child: SandboxChild, ref: boolean): void {
  for (const handle of [child, ...child.stdio]) {
    const h = handle as unknown as { ref?: () => void; unref?: () => void } | null;
    if (ref) h?.ref?.();
    else h?.unref?.();
  }
}
