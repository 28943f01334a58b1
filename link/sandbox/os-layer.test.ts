// The OS layer alone: the same bubblewrap sandbox with Node's permission flags taken away. Node's
// model is a seat belt; these prove the wall holds without it (no host files, no env, no network).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bwrapArgs, EMPTY_ENV, SANDBOX_NODE } from "./bwrap";
import { Sandbox, type JobFolder } from "./run";
import { tempDir } from "../../test/helpers/temp-dir";

let sandbox: Sandbox;
let folder: JobFolder;
let otherJob: JobFolder;
let server: http.Server;
let port = 0;
let hits = 0;
const keyFile = path.join(tempDir("os-layer"), "link.key");

beforeAll(async () => {
  sandbox = await Sandbox.create();
  folder = sandbox.newJobFolder();
  otherJob = sandbox.newJobFolder();
  writeFileSync(path.join(otherJob.files, "secret.json"), "other job");
  writeFileSync(keyFile, "PRIVATE-KEY-OF-THE-LINK", { mode: 0o600 });
  server = http.createServer((_req, res) => {
    hits += 1;
    res.end("reached");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await sandbox.close();
  sandbox.removeJobFolder(folder);
  sandbox.removeJobFolder(otherJob);
  server.close();
});

/** Runs `source` with plain `node -e` (no --permission) inside the job's bwrap sandbox. */
function runBare(source: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = bwrapArgs(sandbox.runtime, { jobDir: folder.files, entry: "unused.js", net: "deny", memBytes: 134_217_728, infoFd: 3 }, [SANDBOX_NODE, "-e", source]);
  const child = spawn(sandbox.runtime.bwrap, args, { env: EMPTY_ENV, stdio: ["pipe", "pipe", "pipe", "pipe"], ...(process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}) });
  child.stdin.end();
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

const probe = (body: string) => `
const fs = require("node:fs"), net = require("node:net");
const out = {};
const attempt = async (name, fn) => { try { out[name] = { got: await fn() }; } catch (e) { out[name] = { denied: String(e && (e.code || e.message)) }; } };
(async () => { ${body}
  console.log(JSON.stringify(out));
})();`;

describe("without Node's permission flags, the OS sandbox alone", () => {
  it("has no host files, no other job, no Link key and no /proc in its root", async () => {
    const { stdout, stderr } = await runBare(
      probe(`
      out.root = fs.readdirSync("/").sort();
      out.uid = process.getuid();
      for (const [name, file] of Object.entries({ passwd: "/etc/passwd", key: ${JSON.stringify(keyFile)}, otherJob: ${JSON.stringify(path.join(otherJob.files, "secret.json"))}, proc: "/proc/1/environ", home: "/root", hostTmp: ${JSON.stringify(os.tmpdir())} })) {
        await attempt(name, () => fs.readFileSync(file, "utf8"));
      }
      await attempt("writeJob", () => fs.writeFileSync("/job/x", "x"));
      await attempt("writeRoot", () => fs.writeFileSync("/x", "x"));
      await attempt("writeTmp", () => fs.writeFileSync("/tmp/x", "x"));`),
    );
    const out = JSON.parse(stdout || "null") ?? { stderr };
    expect(out.root).toEqual(["job", "lib", "lib64", "usr"]);
    if (process.getuid?.() === 0) expect(out.uid).toBe(65534);
    for (const name of ["passwd", "key", "otherJob", "proc", "home", "hostTmp", "writeJob", "writeRoot", "writeTmp"]) {
      expect(out[name], name).toHaveProperty("denied");
    }
    expect(stdout).not.toMatch(/PRIVATE-KEY|other job|root:x:0/);
  });

  it("has an empty environment (bwrap's PWD is all; the preload, not run here, removes it)", async () => {
    const { stdout } = await runBare(`console.log(JSON.stringify(Object.keys(process.env)))`);
    expect(JSON.parse(stdout)).toEqual(["PWD"]);
  });

  it("has no network: not the Link's loopback, not the internet, not DNS", async () => {
    hits = 0;
    const { stdout } = await runBare(
      probe(`
      const connect = (host, port) => new Promise((res, rej) => { const s = net.connect(port, host, () => { s.destroy(); res("connected"); }); s.on("error", rej); });
      await attempt("hostLoopback", () => connect("127.0.0.1", ${port}));
      await attempt("internet", () => connect("1.1.1.1", 443));
      await attempt("dns", () => require("node:dns/promises").lookup("openvibe.services"));
      await attempt("abstractUnix", () => connect(undefined, "\\0/tmp/.X11-unix/X0"));`),
    );
    const out = JSON.parse(stdout);
    for (const name of ["hostLoopback", "internet", "dns", "abstractUnix"]) expect(out[name], name).toHaveProperty("denied");
    expect(hits).toBe(0);
  });

  it("sees no other process to signal: kill(-1) reaches nobody outside", async () => {
    const { stdout } = await runBare(
      probe(`
      await attempt("everyone", () => process.kill(-1, "SIGKILL") ? "sent" : "none");
      await attempt("link", () => process.kill(${process.pid}, 0));
      out.pid = process.pid;`),
    );
    const out = JSON.parse(stdout);
    expect(out.link).toHaveProperty("denied");
    expect(out.pid).toBeLessThan(10);
  });
});
