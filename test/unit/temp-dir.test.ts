// test/helpers/temp-dir.ts: folders are named for the project, made private, and removed together;
// a process that ends without running its test hooks still takes its folders along.
import { spawnSync } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeTempDir, removeTempDirs, tempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("tempDir", () => {
  it("makes a private ov-<name>- folder in the temp folder and removes it on request", () => {
    const dir = tempDir("helper");
    expect(path.dirname(dir)).toBe(tmpdir());
    expect(path.basename(dir)).toMatch(/^ov-helper-[A-Za-z0-9]{6}$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    writeFileSync(path.join(dir, "link.key"), "secret", { mode: 0o600 });
    removeTempDir(dir);
    expect(existsSync(dir)).toBe(false);
  });

  it("removeTempDirs takes every folder made so far", () => {
    const dirs = [tempDir("helper"), tempDir("helper")];
    removeTempDirs();
    expect(dirs.filter(existsSync)).toEqual([]);
  });

  it("refuses a name that would not be a plain folder name", () => {
    expect(() => tempDir("../x")).toThrow(/kebab-case/);
  });

  it("removes what a process made when it exits without its hooks (process.exit in the middle)", () => {
    const script = `
      import { writeFileSync } from "node:fs";
      import { tempDir } from ${JSON.stringify(path.join(ROOT, "test/helpers/temp-dir.ts"))};
      const dir = tempDir("exit");
      writeFileSync(dir + "/link.key", "secret");
      console.log(dir);
      process.exit(3);
    `;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(run.status).toBe(3);
    const dir = run.stdout.trim();
    expect(dir).toMatch(/ov-exit-/);
    expect(existsSync(dir)).toBe(false);
  });
});
