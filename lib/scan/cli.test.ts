import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
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

async function run(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

describe("openvibe-scan CLI", () => {
  it("prints one verdict per file and exits 1 when any failed", async () => {
    const r = await run([good, bad]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${good}: passed`);
    expect(r.out).toContain(`${bad}: failed`);
    expect(r.out).toMatch(/1:13 {2}fail {2}env\.read {2}reads your environment variables/);
  });

  it("--json prints one object per file; --net changes the verdict", async () => {
    const r = await run(["--json", "--net", "openvibe-only", online, good]);
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
    expect(lines[1]).toMatchObject({
      file: good,
      verdict: "passed",
      tools: [{ name: "good", net: "openvibe-only", verdict: "passed", findings: [] }],
      findings: [],
    });
    expect((await run(["--json", online])).code).toBe(1);
  });

  it("scans a skill folder: one verdict, a verdict per tool with its net and per resource", async () => {
    const folder = path.join(import.meta.dirname, "corpus", "folders", "hostile", "second-tool-helper");
    const r = await run(["--json", folder]);
    expect(r.code).toBe(1);
    const [line] = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(line).toMatchObject({
      file: folder,
      verdict: "failed",
      tools: [
        { name: "a", net: "deny", verdict: "passed", findings: [] },
        {
          name: "b",
          net: "deny",
          verdict: "failed",
          findings: [{ rule: "module.forbidden", resource: "tools/lib/h.js", tool: "b" }],
        },
      ],
      findings: [{ rule: "module.forbidden", tool: "b", resource: "tools/lib/h.js" }],
    });
    expect(line.resources.find((x: { name: string }) => x.name === "tools/lib/h.js")).toMatchObject({
      verdict: "failed",
      tools: ["b"],
    });
    const text = await run([folder]);
    expect(text.out).toContain(`${folder}: failed`);
    expect(text.out).toMatch(/tool b \(net: deny, entry tools\/b\.js\): failed/);
    expect(text.out).toMatch(/tools\/lib\/h\.js:1:\d+ {2}fail {2}module\.forbidden/);
    expect(text.out).toMatch(/resource tools\/lib\/h\.js \(reached by b\): failed/);
  });

  it("a folder that breaks the contract is invalid, with its errors, and exits 1", async () => {
    const broken = tempDir("scan-folder");
    mkdirSync(path.join(broken, "tools"));
    writeFileSync(path.join(broken, "tools", "main.js"), "console.log(1);\n");
    writeFileSync(path.join(broken, "skill.json"), JSON.stringify({ contract: "actor.skill@2", slug: "x" }));
    const r = await run(["--json", broken, good]);
    expect(r.code).toBe(1);
    const [bad, ok] = r.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(bad).toMatchObject({ file: broken, verdict: "invalid", tools: [], findings: [] });
    expect(bad.errors.length).toBeGreaterThan(0);
    expect(bad.errors[0]).toMatchObject({ code: expect.any(String), path: expect.any(String) });
    expect(ok).toMatchObject({ file: good, verdict: "passed" });
    expect((await run([path.join(import.meta.dirname, "corpus", "folders", "benign", "esm-chain")])).code).toBe(0);
  });

  it("exits 2 on usage errors", async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(["--net", "everything", good])).code).toBe(2);
    expect((await run(["--frobnicate", good])).code).toBe(2);
    expect((await run([path.join(dir, "missing.js")])).code).toBe(2);
  });

  it("runs as the package bin through its launcher", () => {
    const bin = path.join(import.meta.dirname, "..", "..", "bin", "openvibe-scan.mjs");
    const r = spawnSync(process.execPath, [bin, "--json", bad], { encoding: "utf8", cwd: tmpdir() });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ file: bad, verdict: "failed", findings: [{ rule: "env.read" }] });
    expect(spawnSync(process.execPath, [bin], { encoding: "utf8" }).status).toBe(2);
  }, 30_000);
});
