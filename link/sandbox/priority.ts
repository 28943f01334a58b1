// Tool code runs below the Link's CPU priority (nice SANDBOX_NICE), so a Link never takes the CPU from what else runs on
// its machine: the person's own programs, or on one machine the site and its database. A tool
// gets the whole CPU when nothing else wants it.
//
// Two settings, because Linux weighs CPU time in two ways. Task nice is inherited by everything
// the standby shell starts. But bwrap's --new-session puts the sandbox in a session of its own,
// and where the kernel groups tasks by session (autogroup, on when tasks are not in a cpu cgroup
// of their own) a session's nice, not its tasks', is weighed against other sessions.
import { readFile, writeFile } from "node:fs";
import { setPriority } from "node:os";

export const SANDBOX_NICE = 10;

/** How long a sandbox's init may take to call setsid before its session is left as it is. */
const SESSION_WAIT_TRIES = 100;
const SESSION_WAIT_STEP_MS = 2;

/** `pid` (the standby shell, before it execs anything) and all it starts run at SANDBOX_NICE. */
export function lowerTaskPriority(pid: number): void {
  try {
    setPriority(pid, SANDBOX_NICE);
  } catch {
    // Gone already, or not allowed: the tool then runs at the Link's own priority.
  }
}

/** The fields of a /proc/<pid>/stat line after the command name: state, ppid, pgrp, session, … */
export function statFields(stat: string): string[] {
  // The command name, in parentheses, may hold anything, so the fields are counted from its last ")".
  const close = stat.lastIndexOf(")");
  return close < 0 ? [] : stat.slice(close + 2).split(" ");
}

/** The session id in a /proc/<pid>/stat line, or undefined when it does not parse. */
export function sessionOf(stat: string): number | undefined {
  const session = Number(statFields(stat)[3]);
  return Number.isSafeInteger(session) && session > 0 ? session : undefined;
}

/**
 * Sets the autogroup nice of the sandbox whose init is `pid`, once that init leads a session of its
 * own. Until then it shares the Link's session, whose autogroup must not be touched: the write
 * would lower the Link, and everything started beside it, instead.
 */
export function lowerSessionPriority(pid: number, tries = SESSION_WAIT_TRIES): void {
  readFile(`/proc/${pid}/stat`, "utf8", (err, stat) => {
    if (err) return;
    if (sessionOf(stat) === pid) {
      writeFile(`/proc/${pid}/autogroup`, String(SANDBOX_NICE), () => {});
      return;
    }
    if (tries > 1) setTimeout(() => lowerSessionPriority(pid, tries - 1), SESSION_WAIT_STEP_MS).unref();
  });
}
