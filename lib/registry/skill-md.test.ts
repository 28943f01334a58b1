// SKILL.md in and out: real Agent Skills folders publish with nothing added but a version, a
// download gives back their bytes, and any downloaded folder republishes to the same integrity.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadBundle, type SkillDocument } from "../contracts";
import { readArchive } from "./archive";
import { documentFromSkillMd, isClutter, isImportedFromSkillMd, isSkillMdFolder, shortSummary, skillMdFolder, skillMdText } from "./skill-md";
import { skillMdZip } from "./skill-md-zip";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(ROOT, "test/fixtures/agent-skills");
const REAL = ["internal-comms", "mcp-builder", "webapp-testing"];

async function readFolder(dir: string, rel = "", out = new Map<string, Buffer>()) {
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) await readFolder(dir, p, out);
    else if (e.isFile() && !isClutter(p)) out.set(p, await readFile(path.join(dir, p)));
  }
  return out;
}

const files = (entries: Record<string, string>) =>
  new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v, "utf8")] as const));

const ok = (r: ReturnType<typeof documentFromSkillMd>): SkillDocument => {
  if (!r.ok) throw new Error(JSON.stringify(r.errors, null, 2));
  return r.document;
};
const errorsOf = (r: ReturnType<typeof documentFromSkillMd>) => (r.ok ? [] : r.errors);

const SIMPLE = '---\nname: tidy-notes\ndescription: Tidies meeting notes into decisions and actions.\nmetadata:\n  version: "1.2.0"\n---\n\n# Tidy notes\n\nDo it.\n';

describe("real Agent Skills folders (anthropics/skills)", () => {
  for (const name of REAL) {
    it(`${name} publishes with only a version, and downloads byte for byte`, async () => {
      const folder = await readFolder(path.join(FIXTURES, name));
      expect(isSkillMdFolder(folder)).toBe(true);
      const doc = ok(documentFromSkillMd(folder, { version: "1.0.0" }));
      expect(doc).toMatchObject({ contract: "actor.skill@1", slug: name, version: "1.0.0", requires: { kinds: [] } });
      expect([...doc.summary].length).toBeLessThanOrEqual(280);
      expect(isImportedFromSkillMd(doc)).toBe(true);
      expect(doc.instructions.length).toBeGreaterThan(100);
      expect(doc.instructions).not.toMatch(/^---/);

      const out = skillMdFolder(doc);
      expect([...out.keys()].sort()).toEqual([...folder.keys()].sort());
      for (const [p, bytes] of folder) expect(Buffer.from(out.get(p)!).equals(bytes), p).toBe(true);

      const again = ok(documentFromSkillMd(out, { version: "1.0.0" }));
      expect(again.integrity).toBe(doc.integrity);
    });
  }

  it("the zip download unpacks to the same folder and republishes to the same integrity", async () => {
    const folder = await readFolder(path.join(FIXTURES, "mcp-builder"));
    const doc = ok(documentFromSkillMd(folder, { version: "2.0.0" }));
    const unzipped = await readArchive(Buffer.from(skillMdZip(doc)));
    for (const [p, bytes] of folder) expect(unzipped.get(p)?.equals(bytes), p).toBe(true);
    expect(ok(documentFromSkillMd(unzipped, { version: "2.0.0" })).integrity).toBe(doc.integrity);
    // The same version downloads as the same bytes every time.
    expect(Buffer.from(skillMdZip(doc)).equals(Buffer.from(skillMdZip(doc)))).toBe(true);
  });

  it("a description over 280 characters becomes a summary cut at a word, the full text stays in SKILL.md", async () => {
    const folder = await readFolder(path.join(FIXTURES, "internal-comms"));
    const doc = ok(documentFromSkillMd(folder, { version: "1.0.0" }));
    expect(doc.summary.endsWith("…")).toBe(true);
    expect(doc.resources.find((r) => r.name === "SKILL.md")?.text).toBe(folder.get("SKILL.md")!.toString("utf8"));
  });
});

describe("prompt skills published from skill.json", () => {
  for (const name of ["code-review-checklist", "commit-message-style", "release-notes-writer"]) {
    it(`${name}: its downloaded folder republishes to the same integrity`, async () => {
      const native = await loadBundle(path.join(ROOT, "scripts/demo/skills", name));
      if (!native.ok) throw new Error("demo bundle");
      const out = skillMdFolder(native.document);
      expect(new TextDecoder().decode(out.get("SKILL.md"))).toMatch(/^---\nname: "/);
      const again = ok(documentFromSkillMd(out));
      expect(again.integrity).toBe(native.document.integrity);
      expect(isImportedFromSkillMd(again)).toBe(false);
    });
  }
});

describe("which folders publish through SKILL.md", () => {
  it("SKILL.md at the root and no skill.json; with a skill.json the normal bundle path applies", () => {
    expect(isSkillMdFolder(new Set(["SKILL.md", "notes.md"]))).toBe(true);
    expect(isSkillMdFolder(new Set(["SKILL.md", "skill.json", "tools/x.js"]))).toBe(false);
    expect(isSkillMdFolder(new Set(["docs/SKILL.md"]))).toBe(false);
  });
});

describe("refusals say what to do", () => {
  it("without a version anywhere, it refuses and names both ways to give one", () => {
    const errors = errorsOf(documentFromSkillMd(files({ "SKILL.md": SIMPLE.replace(/metadata:\n.*\n/, "") })));
    expect(errors).toEqual([
      expect.objectContaining({ code: "skill_md.version_required", message: expect.stringMatching(/--version/) }),
    ]);
  });

  it("metadata.version is used, and a different --version is a conflict, not a silent choice", () => {
    expect(ok(documentFromSkillMd(files({ "SKILL.md": SIMPLE }))).version).toBe("1.2.0");
    expect(ok(documentFromSkillMd(files({ "SKILL.md": SIMPLE }), { version: "1.2.0" })).version).toBe("1.2.0");
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": SIMPLE }), { version: "2.0.0" }))[0]?.code).toBe(
      "skill_md.version_conflict",
    );
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": SIMPLE }), { version: "2" }))[0]?.code).toBe(
      "skill_md.version_invalid",
    );
    const unquoted = SIMPLE.replace('"1.2.0"', "1.2");
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": unquoted })))[0]).toMatchObject({
      code: "skill_md.version_invalid",
      path: "SKILL.md: metadata.version",
    });
  });

  it("front matter must open and close, parse as YAML, and carry name and description", () => {
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": "# Just markdown\n" })))[0]?.code).toBe(
      "skill_md.front_matter_missing",
    );
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": "---\nname: a\n# no end\n" })))[0]?.code).toBe(
      "skill_md.front_matter_unclosed",
    );
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": "---\nname: x: y\n---\nbody\n" })))[0]?.code).toBe(
      "skill_md.front_matter_invalid",
    );
    const missing = errorsOf(documentFromSkillMd(files({ "SKILL.md": "---\nname: tidy-notes\n---\nbody\n" }), { version: "1.0.0" }));
    expect(missing[0]).toMatchObject({ code: "skill_md.front_matter_invalid", path: "SKILL.md: description" });
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": SIMPLE.replace("\n# Tidy notes\n\nDo it.\n", "") })))[0]?.code).toBe(
      "skill_md.instructions_missing",
    );
  });

  it("refuses YAML aliases and duplicate keys (no entity expansion, no ambiguity)", () => {
    const bomb = '---\nname: tidy-notes\ndescription: &d "x"\nlicense: *d\nmetadata:\n  version: "1.0.0"\n---\nbody\n';
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": bomb })))[0]?.code).toBe("skill_md.front_matter_invalid");
    const dup = '---\nname: tidy-notes\nname: other\ndescription: "x"\n---\nbody\n';
    expect(errorsOf(documentFromSkillMd(files({ "SKILL.md": dup }), { version: "1.0.0" }))[0]?.code).toBe(
      "skill_md.front_matter_invalid",
    );
  });

  it("a name that is not a slug is reported against SKILL.md's name", () => {
    const errors = errorsOf(documentFromSkillMd(files({ "SKILL.md": SIMPLE.replace("tidy-notes", "Tidy Notes") })));
    expect(errors[0]).toMatchObject({ path: "SKILL.md: name", code: "contract.schema" });
  });

  it("binary files, code and oversized files are refused by file name", () => {
    const bin = new Map([
      ["SKILL.md", Buffer.from(SIMPLE)],
      ["font.ttf", Buffer.from([0, 1, 0, 0, 0, 12])],
      ["tool.js", Buffer.from("export default 1;\n")],
      ["big.md", Buffer.alloc(70 * 1024, 97)],
    ]);
    const errors = errorsOf(documentFromSkillMd(bin));
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "font.ttf", code: "skill_md.file_not_text" }),
        expect.objectContaining({ path: "big.md", code: "skill_md.file_too_large" }),
      ]),
    );
    const code = errorsOf(documentFromSkillMd(files({ "SKILL.md": SIMPLE, "tool.js": "export default 1;\n" })));
    expect(code).toEqual(expect.arrayContaining([expect.objectContaining({ path: "tool.js", code: "contract.code_not_allowed" })]));
  });

  it("ignores clutter and reads CRLF files and a BOM", () => {
    const crlf = "\uFEFF" + SIMPLE.replace(/\n/g, "\r\n");
    const doc = ok(documentFromSkillMd(files({ "SKILL.md": crlf, ".DS_Store": "x", "__MACOSX/SKILL.md": "x" })));
    expect(doc.instructions).toBe("# Tidy notes\r\n\r\nDo it.\r\n");
    expect(doc.resources.map((r) => r.name)).toEqual(["SKILL.md"]);
  });
});

describe("the SKILL.md OpenVibe writes", () => {
  it("is exactly what it reads back, so no copy is stored", () => {
    const text = skillMdText({ slug: "tidy-notes", version: "1.2.0", name: "Tidy: notes \"now\"", summary: "S", instructions: "Body\n", resources: [] });
    const doc = ok(documentFromSkillMd(files({ "SKILL.md": text })));
    expect(doc).toMatchObject({ name: 'Tidy: notes "now"', summary: "S", instructions: "Body\n", resources: [] });
  });

  it("cuts long summaries at a word boundary", () => {
    const long = "word ".repeat(100).trim();
    const s = shortSummary(long);
    expect([...s].length).toBeLessThanOrEqual(280);
    expect(s).toMatch(/word…$/);
    expect(shortSummary("short")).toBe("short");
  });
});
