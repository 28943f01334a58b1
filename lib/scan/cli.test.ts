import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "./cli";
import { tempDir } from "../../test/helpers/temp-dir";

const dir = tempDir("scan");
const good = path.join(dir, "good.js");
const bad = path.join(dir, "bad.js");
const online = path.join(dir, "online.js");
writeFileSync(good, "console.log(JSON.stringify({ ok: true }));\n");
writeFileSync(bad, "console.log(process.env.HOME);\n");
writeFileSync(online, 'await fetch("https://api.openvibe.services/v1");\n');

function run(args: string[]) {
  let out = "";
  let err = "";
  const code = main(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

describe("openvibe-scan CLI", () => {
  it("prints one verdict per file and exits 1 when any failed", () => {
    const r = run([good, bad]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${good}: passed`);
    expect(r.out).toContain(`${bad}: failed`);
    expect(r.out).toMatch(/1:13 {2}fail {2}env\.read {2}reads your environment variables/);
  });

  it("--json prints one object per file; --net changes the verdict", () => {
    const r = run(["--json", "--net", "openvibe-only", online, good]);
    expect(r.code).toBe(0);
    const lines = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      file: online,
      verdict: "flagged",
      findings: [{ rule: "net.use", severity: "flag", tool: "online" }],
    });
    expect(lines[1]).toEqual({ file: good, verdict: "passed", findings: [] });
    expect(run(["--json", online]).code).toBe(1);
  });

  it("exits 2 on usage errors", () => {
    expect(run([]).code).toBe(2);
    expect(run(["--net", "everything", good]).code).toBe(2);
    expect(run(["--frobnicate", good]).code).toBe(2);
    expect(run([path.join(dir, "missing.js")]).code).toBe(2);
  });

  it("runs as the package bin through its launcher", () => {
    const bin = path.join(import.meta.dirname, "..", "..", "bin", "openvibe-scan.mjs");
    const r = spawnSync(process.execPath, [bin, "--json", bad], { encoding: "utf8", cwd: tmpdir() });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: bad, verdict: "failed", findings: [{ rule: "env.read" }] });
    expect(spawnSync(process.execPath, [bin], { encoding: "utf8" }).status).toBe(2);
  }, 30_000);
});
