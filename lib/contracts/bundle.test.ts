import { cpSync, rmSync, symlinkSync, writeFileSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundleFromFiles, computeIntegrity, loadBundle, RESOURCE_TEXT_MAX_BYTES } from "./index";
import { removeTempDir, tempDir } from "../../test/helpers/temp-dir";

const FIXTURE = path.join(import.meta.dirname, "../../test/fixtures/contracts/bundles/csv-stats");
const DOC = JSON.parse(
  readFileSync(path.join(import.meta.dirname, "../../test/fixtures/contracts/skills/valid/csv-stats.json"), "utf8"),
);

let work: string;
let bundle: string;
beforeEach(() => {
  work = tempDir("bundle");
  bundle = path.join(work, "csv-stats");
  cpSync(FIXTURE, bundle, { recursive: true });
});
afterEach(() => removeTempDir(work));

const manifest = () => JSON.parse(readFileSync(path.join(bundle, "skill.json"), "utf8"));
const writeManifest = (m: unknown) => writeFileSync(path.join(bundle, "skill.json"), JSON.stringify(m));
const codes = async (dir = bundle) => {
  const r = await loadBundle(dir);
  return r.ok ? [] : r.errors.map((e) => [e.path, e.code]);
};

describe("loadBundle", () => {
  it("inlines each resource's file text and yields the same document and integrity as the fixture", async () => {
    const r = await loadBundle(bundle);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.document.resources).toEqual(DOC.resources);
    expect(r.document.integrity).toBe(DOC.integrity);
    expect(computeIntegrity(r.document)).toBe(DOC.integrity);
  });

  it("accepts a skill.json without integrity and computes it", async () => {
    const { integrity: _, ...rest } = manifest(); // eslint-disable-line @typescript-eslint/no-unused-vars
    writeManifest(rest);
    const r = await loadBundle(bundle);
    expect(r.ok && r.document.integrity).toBe(DOC.integrity);
  });

  it("refuses a stated integrity that the files no longer match", async () => {
    writeFileSync(
      path.join(bundle, "tools/stats.js"),
      readFileSync(path.join(bundle, "tools/stats.js"), "utf8") + "\n// edited\n",
    );
    expect(await codes()).toEqual([["/integrity", "contract.integrity_mismatch"]]);
  });

  it("refuses names that leave the folder", async () => {
    writeFileSync(path.join(work, "outside.md"), "secret notes");
    const m = manifest();
    m.resources[1].name = "../outside.md";
    writeManifest(m);
    expect(await codes()).toEqual([
      ["/resources/1/name", "contract.bundle_path_escape"],
      ["/resources/1/name", "contract.schema"],
    ]);
  });

  it("refuses a symlinked resource, a symlinked folder on the way and a symlinked skill.json", async () => {
    writeFileSync(path.join(work, "outside.md"), "outside");
    rmSync(path.join(bundle, "docs/examples.md"));
    symlinkSync(path.join(work, "outside.md"), path.join(bundle, "docs/examples.md"));
    expect(await codes()).toEqual([["/resources/1/name", "contract.bundle_symlink"]]);

    rmSync(path.join(bundle, "docs"), { recursive: true });
    mkdirSync(path.join(work, "elsewhere"));
    writeFileSync(path.join(work, "elsewhere/examples.md"), "outside");
    symlinkSync(path.join(work, "elsewhere"), path.join(bundle, "docs"));
    expect(await codes()).toEqual([["/resources/1/name", "contract.bundle_symlink"]]);

    cpSync(path.join(bundle, "skill.json"), path.join(work, "skill.json"));
    rmSync(path.join(bundle, "skill.json"));
    symlinkSync(path.join(work, "skill.json"), path.join(bundle, "skill.json"));
    expect(await codes()).toEqual([["", "contract.bundle_symlink"]]);
  });

  it("refuses non-UTF-8 and NUL bytes", async () => {
    writeFileSync(path.join(bundle, "docs/examples.md"), Buffer.from([0x23, 0x20, 0xc3, 0x28]));
    expect(await codes()).toEqual([["/resources/1/name", "contract.bundle_not_utf8"]]);
    writeFileSync(path.join(bundle, "docs/examples.md"), Buffer.from("# a\u0000b"));
    expect(await codes()).toEqual([["/resources/1/name", "contract.bundle_binary"]]);
  });

  it("refuses missing files, folders in place of files, oversized files and inline text", async () => {
    rmSync(path.join(bundle, "docs/examples.md"));
    expect(await codes()).toEqual([["/resources/1/name", "contract.bundle_missing_file"]]);
    mkdirSync(path.join(bundle, "docs/examples.md"));
    expect(await codes()).toEqual([["/resources/1/name", "contract.bundle_not_file"]]);
    rmSync(path.join(bundle, "docs/examples.md"), { recursive: true });
    writeFileSync(path.join(bundle, "docs/examples.md"), "x".repeat(RESOURCE_TEXT_MAX_BYTES + 1));
    expect(await codes()).toEqual([["/resources/1/name", "contract.bundle_too_large"]]);
    writeFileSync(path.join(bundle, "docs/examples.md"), "fine");
    const m = manifest();
    m.resources[1].text = "inline";
    writeManifest(m);
    expect(await codes()).toEqual([["/resources/1/text", "contract.schema"]]);
  });

  it("reports file problems and document problems together", async () => {
    const m = manifest();
    delete m.integrity;
    m.tools[0].net = "lan";
    writeManifest(m);
    rmSync(path.join(bundle, "docs/examples.md"));
    expect(await codes()).toEqual([
      ["/resources/1/name", "contract.bundle_missing_file"],
      ["/tools/0/net", "contract.schema"],
    ]);
  });

  it("refuses a folder that does not exist, a missing skill.json and one that is not JSON", async () => {
    expect(await codes(path.join(work, "nope"))).toEqual([["", "contract.bundle_unreadable"]]);
    rmSync(path.join(bundle, "skill.json"));
    expect(await codes()).toEqual([["", "contract.bundle_missing_file"]]);
    writeFileSync(path.join(bundle, "skill.json"), "{ nope");
    expect(await codes()).toEqual([["", "contract.bundle_invalid_json"]]);
  });
});

describe("bundleFromFiles", () => {
  const filesOf = (dir: string) => {
    const out = new Map<string, Buffer>();
    const walk = (rel: string) => {
      for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) walk(p);
        else out.set(p, readFileSync(path.join(dir, p)));
      }
    };
    walk("");
    return out;
  };

  it("yields exactly the document loadBundle reads from the same folder", async () => {
    const fromDisk = await loadBundle(bundle);
    const fromMemory = await bundleFromFiles(filesOf(bundle));
    expect(fromMemory).toEqual(fromDisk);
    expect(fromMemory.ok && fromMemory.document.integrity).toBe(computeIntegrity(DOC));
  });

  it("reports a missing file, binary bytes and bad UTF-8 with their paths", async () => {
    const files = filesOf(bundle);
    const code = manifest().resources.findIndex((r: { name: string }) => r.name.endsWith(".js"));
    const name = manifest().resources[code].name as string;
    const broken = new Map(files);
    broken.delete(name);
    const r1 = await bundleFromFiles(broken);
    expect(r1.ok ? [] : r1.errors.map((e) => [e.path, e.code])).toContainEqual([
      `/resources/${code}/name`,
      "contract.bundle_missing_file",
    ]);
    broken.set(name, Buffer.from([0x61, 0x00, 0x62]));
    const r2 = await bundleFromFiles(broken);
    expect(r2.ok ? [] : r2.errors.map((e) => e.code)).toContain("contract.bundle_binary");
    broken.set(name, Buffer.from([0xc3, 0x28]));
    const r3 = await bundleFromFiles(broken);
    expect(r3.ok ? [] : r3.errors.map((e) => e.code)).toContain("contract.bundle_not_utf8");
  });

  it("refuses a resource name that leaves the bundle", async () => {
    const files = filesOf(bundle);
    const m = manifest();
    m.resources[0].name = "../outside.md";
    files.set("skill.json", Buffer.from(JSON.stringify(m)));
    const r = await bundleFromFiles(files);
    expect(r.ok).toBe(false);
  });
});
