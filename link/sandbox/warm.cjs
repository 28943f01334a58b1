// The main script of a warm sandbox (`node … --require /job/.openvibe/boot.cjs
// /job/.openvibe/warm.cjs <sandbox id>`), written into the job folder by the Link from this file.
// Node, the permission model and the preload are up before any job exists; this says so with one
// byte on the control descriptor, then blocks on it. The Link lays the job's verified files into
// /job from outside (a read-only bind of a folder it owns) and writes `{"entry":…}` here, then
// closes its end. The descriptor is closed and the entry runs as the main module, exactly as
// `node … /job/<entry>` would run it. Each warm sandbox serves one job and is then destroyed.
"use strict";

(function warm() {
  const CONTROL_FD = 5;
  const MAX_MESSAGE = 4096;
  const fs = process.getBuiltinModule("node:fs");
  const Module = process.getBuiltinModule("node:module");

  // The output streams are made now rather than by the tool (their first use loads the stream and
  // socket modules). Not stdin: making it turns descriptor 0 non-blocking, and a tool that reads
  // its input with readFileSync(0), as it may under plain node, would get EAGAIN.
  void process.stdout;
  void process.stderr;
  fs.writeSync(CONTROL_FD, "R");
  const chunk = Buffer.alloc(MAX_MESSAGE);
  const parts = [];
  let total = 0;
  for (;;) {
    let read;
    try {
      read = fs.readSync(CONTROL_FD, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error && error.code === "EAGAIN") continue;
      throw error;
    }
    if (read === 0) break;
    total += read;
    if (total > MAX_MESSAGE) throw new Error("openvibe warm sandbox: control message too long");
    parts.push(Buffer.from(chunk.subarray(0, read)));
  }
  fs.closeSync(CONTROL_FD);
  // No message: the Link is withdrawing this sandbox.
  if (total === 0) process.exit(125);
  const { entry } = JSON.parse(Buffer.concat(parts).toString("utf8"));
  if (
    typeof entry !== "string" ||
    entry.startsWith("/") ||
    entry.split("/").includes("..") ||
    entry.startsWith(".openvibe")
  ) {
    throw new Error("openvibe warm sandbox: bad entry");
  }
  process.argv.splice(1, process.argv.length - 1, `/job/${entry}`);
  // What `ps` shows (and /proc/<pid>/cmdline): the tool this sandbox now runs, as for a cold one.
  process.title = `${process.execPath} /job/${entry}`;
  Module.runMain();
})();
