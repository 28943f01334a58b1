// A job end to end on the Link: pinned inputs fetched by media id and verified before anything runs.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runSkillJob } from "./job";
import { parsePinnedInputs, type PinnedInput } from "./inputs";
import { copyLocalFolder, parseEntry } from "./local-folder";
import { Sandbox } from "./sandbox/run";
import { removeTempDir, tempDir } from "../test/helpers/temp-dir";

const sandbox = await Sandbox.create();
const media = new Map<string, Uint8Array>();
let fetched: string[] = [];
const fetchMedia = async (id: string) => {
  fetched.push(id);
  const bytes = media.get(id);
  if (!bytes) throw new Error(`media ${id} not found`);
  return bytes;
};

function pin(name: string, mediaId: string, text: string): PinnedInput {
  const bytes = Buffer.from(text);
  media.set(mediaId, bytes);
  return { name, media_id: mediaId, sha256: createHash("sha256").update(bytes).digest("hex"), size_bytes: bytes.length };
}

const TOOL = `const helper = require("./helper.js");
let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.stringify(helper(JSON.parse(s)))));`;
const limits = { wall_ms: 10_000, mem_bytes: 134_217_728 };

afterAll(() => sandbox.close());

describe("runSkillJob", () => {
  it("lays the verified inputs and runs the entry with the input", async () => {
    fetched = [];
    const inputs = [pin("tool.js", "med_01JC00000000000000000000A1", TOOL), pin("helper.js", "med_01JC00000000000000000000A2", "module.exports = (i) => ({ upper: i.word.toUpperCase() });")];
    const result = await runSkillJob(sandbox, { entry: "tool.js", input: { word: "sandbox" }, inputs, net: "deny", limits }, fetchMedia);
    expect(result).toMatchObject({ status: "ok", output: { upper: "SANDBOX" } });
    expect(fetched.sort()).toEqual(["med_01JC00000000000000000000A1", "med_01JC00000000000000000000A2"]);
  });

  it("lays code that lives in folders, as a skill's resources do (tools/stats.js)", async () => {
    const tool = pin("tools/stats.js", "med_01JC00000000000000000000E1", `const h = require("../lib/h.js"); console.log(JSON.stringify(h()));`);
    const helper = pin("lib/h.js", "med_01JC00000000000000000000E2", "module.exports = () => ({ nested: true });");
    const result = await runSkillJob(sandbox, { entry: "tools/stats.js", input: {}, inputs: [tool, helper], net: "deny", limits }, fetchMedia);
    expect(result).toMatchObject({ status: "ok", output: { nested: true } });
  });

  it("ends the job as integrity when one input's bytes do not match its sha256, before anything runs", async () => {
    const tool = pin("tool.js", "med_01JC00000000000000000000B1", `console.log(JSON.stringify("ran"))`);
    const helper = pin("helper.js", "med_01JC00000000000000000000B2", "module.exports = 1;");
    media.set(helper.media_id, Buffer.from("module.exports = 2;"));
    const before = sandbox.sandboxesStarted;
    const result = await runSkillJob(sandbox, { entry: "tool.js", input: {}, inputs: [tool, helper], net: "deny", limits }, fetchMedia);
    expect(result).toMatchObject({ status: "integrity", code: "run.job.input_digest_mismatch", output: null, exit: null });
    expect(result.stderr).toContain("helper.js");
    expect(sandbox.sandboxesStarted).toBe(before);
  });

  it("treats a size that differs from the pin as a mismatch too", async () => {
    const tool = pin("tool.js", "med_01JC00000000000000000000C1", `console.log("1")`);
    const result = await runSkillJob(sandbox, { entry: "tool.js", input: {}, inputs: [{ ...tool, size_bytes: tool.size_bytes + 1 }], net: "deny", limits }, fetchMedia);
    expect(result.status).toBe("integrity");
  });

  it("refuses an entry outside the job folder", async () => {
    const tool = pin("tool.js", "med_01JC00000000000000000000D1", `console.log("1")`);
    const result = await runSkillJob(sandbox, { entry: "../tool.js", input: {}, inputs: [tool], net: "deny", limits }, fetchMedia);
    expect(result).toMatchObject({ status: "refused", code: "link.exec.entry_invalid" });
  });
});

describe("inputs", () => {
  it("accepts only well-formed pins: relative names that cannot climb out, med_ ids, lowercase sha256, at most 32", () => {
    const good = { name: "tool.js", media_id: "med_01JC00000000000000000000A1", sha256: "a".repeat(64), size_bytes: 3 };
    expect(parsePinnedInputs([good])).toEqual([good]);
    expect(parsePinnedInputs([{ ...good, name: "tools/stats.js" }])[0]!.name).toBe("tools/stats.js");
    for (const bad of [
      { ...good, name: "../x.js" },
      { ...good, name: "a/../../x.js" },
      { ...good, name: "/etc/passwd" },
      { ...good, name: ".openvibe" },
      { ...good, name: "a/.hidden.js" },
      { ...good, name: "a//b.js" },
      { ...good, media_id: "http://evil/x" },
      { ...good, sha256: "A".repeat(64) },
      { ...good, size_bytes: -1 },
    ]) {
      expect(() => parsePinnedInputs([bad]), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: "run.job.inputs_invalid" }));
    }
    expect(() => parsePinnedInputs([good, good])).toThrow(/repeats/);
    expect(() => parsePinnedInputs(Array.from({ length: 33 }, (_, i) => ({ ...good, name: `t${i}.js` })))).toThrow(/at most 32/);
  });

  it("copies a local tool folder but refuses symlinks in it", () => {
    const source = tempDir("src");
    const target = tempDir("dst");
    try {
      mkdirSync(path.join(source, "lib"));
      writeFileSync(path.join(source, "tool.js"), "1");
      writeFileSync(path.join(source, "lib", "h.js"), "2");
      copyLocalFolder(source, target);
      expect(readdirSync(target).sort()).toEqual(["lib", "tool.js"]);
      symlinkSync("/etc/passwd", path.join(source, "lib", "passwd.js"));
      expect(() => copyLocalFolder(source, mkdtempSync(path.join(target, "again-")))).toThrow(expect.objectContaining({ code: "link.exec.symlink" }));
    } finally {
      removeTempDir(source);
      removeTempDir(target);
    }
  });

  it("keeps entries inside the job folder", () => {
    expect(parseEntry("tools/a.js")).toBe("tools/a.js");
    for (const bad of ["/etc/passwd.js", "../a.js", "a/../../b.js", ".openvibe/boot.cjs", "a.json"]) {
      expect(() => parseEntry(bad), bad).toThrow(expect.objectContaining({ code: "link.exec.entry_invalid" }));
    }
  });
});
