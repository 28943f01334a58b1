// The Link's spawner (./spawner.ts): a small Node process that starts the sandboxes' standby
// shells for the Link. It takes {op:"spawn"} and {op:"kill"} messages on its IPC channel, starts
// each child with pipes only, sends back its pid and then each pipe (the descriptor itself, over
// the channel; its own copy is closed once sent), and reports the child's exit. It holds nothing
// else: no job, no key, no network. When the Link goes, it kills what it started and exits.
"use strict";

const { spawn } = process.getBuiltinModule("node:child_process");
const fs = process.getBuiltinModule("node:fs");

/** Its IPC channel (the Link forks it with that as descriptor 3). */
const CHANNEL_FD = 3;
const O_CLOEXEC = 0o2000000;

// Descriptors inherited open across exec (from the Link, and the Link's from whoever started it:
// a supervisor's log pipe, say) would pass on to every child and through bwrap into the sandbox,
// where the permission model, which checks paths, does not stop a tool writing to one. Closed here,
// first thing: nothing else in this process opens files (its environment is empty), so none of
// these can be a file another thread is reading. (In the Link itself that is not so: a certificate
// file that Node reads at start in a thread of its own was closed under it, once in a test run.)
function listed() {
  try {
    return fs.readdirSync("/proc/self/fd");
  } catch {
    return [];
  }
}
for (const name of listed()) {
  const fd = Number(name);
  if (!(fd > 2) || fd === CHANNEL_FD) continue;
  try {
    const flags = parseInt(/^flags:\s*([0-7]+)$/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"))[1], 8);
    if (!(flags & O_CLOEXEC)) fs.closeSync(fd);
  } catch {
    // Gone meanwhile (the listing's own).
  }
}

/** @type {Map<number, import("node:child_process").ChildProcess>} */
const children = new Map();

function send(message, handle) {
  if (process.connected) process.send(message, handle, () => {});
}

function start(m) {
  let child;
  try {
    child = spawn(m.file, m.args, {
      env: m.env,
      stdio: Array.from({ length: m.fds }, () => "pipe"),
      ...(m.uid === undefined ? {} : { uid: m.uid, gid: m.gid }),
    });
  } catch (error) {
    return send({ id: m.id, error: String(error && error.message) });
  }
  if (!child.pid) {
    return child.once("error", (error) => send({ id: m.id, error: String(error && error.message) }));
  }
  child.on("error", () => {});
  children.set(m.id, child);
  send({ id: m.id, pid: child.pid });
  child.stdio.forEach((stream, fd) => send({ id: m.id, fd }, stream));
  child.once("exit", (code, signal) => {
    children.delete(m.id);
    send({ id: m.id, code, signal });
  });
}

process.on("message", (m) => {
  if (!m || typeof m !== "object" || !Number.isSafeInteger(m.id)) return;
  if (m.op === "spawn") start(m);
  else if (m.op === "kill") children.get(m.id)?.kill(m.signal);
});

process.on("disconnect", () => {
  for (const child of children.values()) child.kill("SIGKILL");
  process.exit(0);
});
