// `openvibe-link exec` as authors run it: the real launcher, the real sandbox, one JSON line.
import { spawn, spawnSync } from "node:child_process";
import http from "node:http";
import { readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../test/helpers/temp-dir";
import { Sandbox } from "./sandbox/run";

const root = path.resolve(import.meta.dirname, "..");
const bin = path.join(root, "link", "bin", "openvibe-link.mjs");
let dir: string;
let inputFile: string;

beforeAll(() => {
  dir = tempDir("exec");
  inputFile = path.join(tempDir("exec-input"), "input.json");
  writeFileSync(inputFile, JSON.stringify({ name: "world" }));
  writeFileSync(
    path.join(dir, "hello.js"),
    `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({hello:JSON.parse(s).name})))`,
  );
});

function exec(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync("node", [bin, "exec", ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("openvibe-link exec", () => {
  it("with --warm, hands the tool no descriptor that the Link inherited from whoever started it", () => {
    // Pipes as descriptors 100 and 200 of the Link (not close-on-exec): a tool may write to any
    // descriptor it holds, whatever the permission model says about paths.
    writeFileSync(
      path.join(dir, "fds.js"),
      `const fs=require("fs");const open=[100,200].filter(fd=>{try{fs.fstatSync(fd);return true}catch{return false}});console.log(JSON.stringify({open}))`,
    );
    const stdio = Array.from({ length: 201 }, (_, fd) =>
      fd === 1 || fd === 2 || fd === 100 || fd === 200 ? "pipe" : "ignore",
    );
    const run = spawnSync("node", [bin, "exec", "--warm", "--entry", "fds.js", "--input", inputFile, dir], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
      stdio: stdio as ("pipe" | "ignore")[],
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: "ok", output: { open: [] } });
  });

  it("prints the job result as one JSON line", () => {
    const { code, stdout } = exec(["--entry", "hello.js", "--input", inputFile, dir]);
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    const result = JSON.parse(stdout);
    expect(Object.keys(result).sort()).toEqual([
      "egress",
      "exit",
      "max_rss_bytes",
      "output",
      "status",
      "stderr",
      "wall_ms",
    ]);
    // net deny (the default): no proxy, so an empty egress record.
    expect(result).toMatchObject({ status: "ok", output: { hello: "world" }, exit: null, stderr: "", egress: [] });
  });

  it("runs the same tool in a sandbox booted before it with --warm, with the same result", () => {
    const { code, stdout, stderr } = exec(["--warm", "--entry", "hello.js", "--input", inputFile, dir]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      status: "ok",
      output: { hello: "world" },
      exit: null,
      stderr: "",
      egress: [],
    });
  });

  it("holds escape attempts: no file outside the folder, no env, no process, no socket under deny", () => {
    writeFileSync(
      path.join(dir, "escape.js"),
      `const out = {};
      const t = (n, f) => { try { out[n] = { got: f() }; } catch (e) { out[n] = { denied: String(e.code || e.message) }; } };
      t("passwd", () => require("fs").readFileSync("/etc/passwd", "utf8"));
      t("openat", () => require("fs").openSync("/job/../../etc/shadow"));
      t("realpath", () => require("fs").realpathSync("/"));
      t("symlink", () => require("fs").symlinkSync("/etc/passwd", "/job/p"));
      t("env", () => { if (Object.keys(process.env).length) return process.env; throw new Error("empty"); });
      t("spawn", () => require("child_process").execSync("id").toString());
      t("vmEscape", () => require("vm").runInNewContext("this.constructor.constructor('return process')()").env);
      t("binding", () => process.binding("pipe_wrap"));
      t("internalBinding", () => process.binding("tcp_wrap"));
      const net = require("net");
      const s = net.connect(80, "1.1.1.1");
      s.on("connect", () => { out.socket = { got: "connected" }; done(); });
      s.on("error", (e) => { out.socket = { denied: e.code }; done(); });
      function done() { console.log(JSON.stringify(out)); }`,
    );
    const { stdout } = exec(["--entry", "escape.js", "--input", inputFile, dir]);
    const result = JSON.parse(stdout);
    expect(result.status).toBe("ok");
    for (const [name, outcome] of Object.entries(result.output)) expect(outcome, name).toHaveProperty("denied");
    rmSync(path.join(dir, "escape.js"));
  });

  it("refuses a tool folder with a symlink, limits above the caps, an unknown net", () => {
    const link = path.join(dir, "passwd.js");
    symlinkSync("/etc/passwd", link);
    try {
      const symlinked = exec(["--entry", "hello.js", "--input", inputFile, dir]);
      expect(symlinked.code).toBe(2);
      expect(JSON.parse(symlinked.stderr).error.code).toBe("link.exec.symlink");
    } finally {
      rmSync(link);
    }
    expect(
      JSON.parse(exec(["--entry", "hello.js", "--input", inputFile, "--wall-ms", "30001", dir]).stderr).error.code,
    ).toBe("run.limits.exceeded");
    expect(
      JSON.parse(exec(["--entry", "hello.js", "--input", inputFile, "--mem-bytes", "268435457", dir]).stderr).error
        .code,
    ).toBe("run.limits.exceeded");
    expect(
      JSON.parse(exec(["--entry", "hello.js", "--input", inputFile, "--net", "everything", dir]).stderr).error.code,
    ).toBe("run.net.invalid");
    expect(JSON.parse(exec(["--entry", "../x.js", "--input", inputFile, dir]).stderr).error.code).toBe(
      "link.exec.entry_invalid",
    );
  });

  it("honours --wall-ms and --mem-bytes", () => {
    writeFileSync(path.join(dir, "spin.js"), "while (true) {}");
    writeFileSync(path.join(dir, "hog.js"), "const a = []; for (;;) a.push(Buffer.alloc(4 << 20, 1));");
    const spin = JSON.parse(exec(["--entry", "spin.js", "--input", inputFile, "--wall-ms", "1000", dir]).stdout);
    expect(spin.status).toBe("timeout");
    const hog = JSON.parse(exec(["--entry", "hog.js", "--input", inputFile, "--mem-bytes", "50000000", dir]).stdout);
    expect(hog.status).toBe("oom");
    rmSync(path.join(dir, "spin.js"));
    rmSync(path.join(dir, "hog.js"));
  });

  it("reaches a host mapped with --map-host and allowed with --allow-host under openvibe-only, nothing else", async () => {
    const hits: string[] = [];
    const server = http.createServer((req, res) => {
      hits.push(`${req.headers.host}${req.url}`);
      res.end(JSON.stringify({ pong: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    const port = (server.address() as { port: number }).port;
    writeFileSync(
      path.join(dir, "net.js"),
      `(async () => {
        const ok = await fetch("http://api.openvibe.test/ping").then((r) => r.json());
        const other = await fetch("http://other.openvibe.test/ping").then((r) => r.status, (e) => "failed");
        console.log(JSON.stringify({ ok, other }));
      })();`,
    );
    try {
      const args = [
        "--entry",
        "net.js",
        "--input",
        inputFile,
        "--net",
        "openvibe-only",
        "--allow-host",
        "api.openvibe.test",
        "--map-host",
        `api.openvibe.test=127.0.0.1:${port}`,
        dir,
      ];
      // spawnSync would block this process's event loop, and with it the test server.
      const child = spawn("node", [bin, "exec", ...args], { cwd: root });
      let stdout = "";
      child.stdout.on("data", (d) => (stdout += d));
      await new Promise((resolve) => child.on("close", resolve));
      const result = JSON.parse(stdout);
      expect(result).toMatchObject({ status: "ok", output: { ok: { pong: true } } });
      expect(result.output.other).not.toBe(200);
      expect(hits).toEqual(["api.openvibe.test/ping"]);
    } finally {
      server.close();
      rmSync(path.join(dir, "net.js"));
    }
  });

  it("answers an unknown command with its usage and exit code 2", () => {
    const result = spawnSync("node", [bin, "frobnicate"], { cwd: root, encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("openvibe-link exec");
    expect(result.stderr).toContain("openvibe-link pair CODE");
  });

  it("says how to pair when run before pairing", () => {
    const home = tempDir("link-home");
    const result = spawnSync("node", [bin, "status"], {
      cwd: root,
      encoding: "utf8",
      env: {
        PATH: process.env.PATH,
        TMPDIR: process.env.TMPDIR,
        OPENVIBE_LINK_HOME: home,
      } as unknown as NodeJS.ProcessEnv,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("link.not_paired");
  });

  it("takes the sandbox down with it when the Link process dies", async () => {
    const entry = `forever-${process.pid}-${Date.now()}.js`;
    writeFileSync(path.join(dir, entry), "setInterval(() => {}, 1000);");
    const runner = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(root, "link", "cli.ts"),
        "exec",
        "--entry",
        entry,
        "--input",
        inputFile,
        "--wall-ms",
        "30000",
        dir,
      ],
      { cwd: root, stdio: "ignore" },
    );
    const sandboxed = () =>
      readdirSync("/proc")
        .filter((p) => /^\d+$/.test(p))
        .filter((p) => {
          try {
            // The tool's own Node, not bwrap still setting up (its arguments name the entry too).
            const cmdline = readFileSync(`/proc/${p}/cmdline`, "utf8");
            return cmdline.startsWith("/usr/bin/node\0") && cmdline.includes(`/job/${entry}`);
          } catch {
            return false;
          }
        });
    try {
      const deadline = Date.now() + 20_000;
      while (sandboxed().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(sandboxed().length).toBeGreaterThan(0);
      runner.kill("SIGKILL");
      const gone = Date.now() + 3000;
      while (sandboxed().length > 0 && Date.now() < gone) await new Promise((r) => setTimeout(r, 50));
      expect(sandboxed()).toEqual([]);
    } finally {
      // Never leave a stray tool behind when this test fails.
      for (const pid of sandboxed()) process.kill(Number(pid), "SIGKILL");
      rmSync(path.join(dir, entry));
      if (runner.exitCode === null && runner.signalCode === null) {
        const exited = new Promise((resolve) => runner.once("exit", resolve));
        runner.kill("SIGKILL");
        await exited;
      }
      // The killed Link's job folder goes the way the next Link start removes it: by its sweep.
      await (await Sandbox.create()).close();
    }
  });
});
