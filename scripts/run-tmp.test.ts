// npm test's temp folder: leftovers are the entries with the project's prefixes, and a folder
// whose run was killed is cleared by the next run while a live run's folder is kept.
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { tempDir } from "../test/helpers/temp-dir";
import { makeRunTmp, tempLeftovers } from "./run-tmp.mjs";

describe("run temp folder", () => {
  it("counts what tests left under the project's prefixes, not tool caches", () => {
    const parent = tempDir("run-tmp");
    const run = makeRunTmp("abcd", parent);
    expect(path.basename(run)).toBe(`ovtest-run-${process.pid}-abcd`);
    expect(tempLeftovers(run)).toEqual([]);
    mkdirSync(path.join(run, "ov-linkrun-x1y2z3"));
    writeFileSync(path.join(run, "ov-exec-input.json"), "{}");
    mkdirSync(path.join(run, "openvibe-link-0"));
    mkdirSync(path.join(run, "tsx-0"));
    mkdirSync(path.join(run, "playwright_chromiumdev_profile-q"));
    // A Link work folder with only empty per-Link folders and the fetch cache holds nothing of a
    // test's; one with something left in a Link's folder does.
    mkdirSync(path.join(run, "openvibe-link-0", "exec"));
    mkdirSync(path.join(run, "openvibe-link-0", "fetch-wasm", "8fe461b3"), { recursive: true });
    writeFileSync(path.join(run, "openvibe-link-0", "fetch-wasm", "8fe461b3", "0.wasm"), "");
    expect(tempLeftovers(run)).toEqual(["ov-exec-input.json", "ov-linkrun-x1y2z3"]);
    mkdirSync(path.join(run, "openvibe-link-0", "exec", "i0123456789ab"));
    expect(tempLeftovers(run)).toEqual(["openvibe-link-0", "ov-exec-input.json", "ov-linkrun-x1y2z3"]);
  });

  it("clears a killed run's folder and keeps a live one's", () => {
    const parent = tempDir("run-tmp");
    const deadPid = spawnSync("true").pid!;
    const dead = path.join(parent, `ovtest-run-${deadPid}-dead`);
    const live = path.join(parent, `ovtest-run-${process.pid}-live`);
    mkdirSync(path.join(dead, "ov-left"), { recursive: true });
    mkdirSync(live);
    makeRunTmp("next", parent);
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});
