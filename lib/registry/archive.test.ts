import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { makeTarGz, makeZip } from "../../test/helpers/archives";
import { AppError } from "../errors";
import { MAX_ARCHIVE_ENTRIES, MAX_BUNDLE_BYTES, readArchive, safeBundlePath } from "./archive";

async function codeOf(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  throw new Error("expected an AppError");
}

const skillJson = JSON.stringify({ slug: "x" });

describe("readArchive", () => {
  it("reads a zip of a bundle folder and drops the common top folder", async () => {
    const files = await readArchive(
      makeZip([
        { name: "csv-stats/" },
        { name: "csv-stats/skill.json", data: skillJson },
        { name: "csv-stats/tools/stats.js", data: "console.log(1)\n".repeat(50) },
      ]),
    );
    expect([...files.keys()].sort()).toEqual(["skill.json", "tools/stats.js"]);
    expect(files.get("skill.json")!.toString()).toBe(skillJson);
  });

  it("reads a tar.gz, including a long name", async () => {
    const long = "docs/" + "a".repeat(120) + ".md";
    const files = await readArchive(
      makeTarGz([
        { name: "skill.json", data: skillJson },
        { name: "docs/", type: "5" },
        { name: long, data: "# hi" },
      ]),
    );
    expect(files.get(long)!.toString()).toBe("# hi");
    expect(files.get("skill.json")!.toString()).toBe(skillJson);
  });

  it("refuses path traversal, absolute paths and backslashes", async () => {
    expect(await codeOf(() => readArchive(makeZip([{ name: "../evil.js", data: "x" }])))).toBe("bundle.path_invalid");
    expect(await codeOf(() => readArchive(makeZip([{ name: "a/../../evil.js", data: "x" }])))).toBe(
      "bundle.path_invalid",
    );
    expect(await codeOf(() => readArchive(makeTarGz([{ name: "/etc/passwd", data: "x" }])))).toBe(
      "bundle.path_invalid",
    );
    expect(await codeOf(() => readArchive(makeZip([{ name: "a\\..\\b.js", data: "x" }])))).toBe("bundle.path_invalid");
  });

  it("refuses symlinks and hard links in both formats", async () => {
    expect(await codeOf(() => readArchive(makeZip([{ name: "link.js", data: "/etc/passwd", mode: 0o120777 }])))).toBe(
      "bundle.link_refused",
    );
    expect(await codeOf(() => readArchive(makeTarGz([{ name: "link.js", type: "2", linkName: "/etc/passwd" }])))).toBe(
      "bundle.link_refused",
    );
    expect(await codeOf(() => readArchive(makeTarGz([{ name: "hard.js", type: "1", linkName: "skill.json" }])))).toBe(
      "bundle.link_refused",
    );
    expect(await codeOf(() => readArchive(makeTarGz([{ name: "dev", type: "3" }])))).toBe(
      "bundle.special_file_refused",
    );
  });

  it("refuses duplicate names", async () => {
    expect(
      await codeOf(() =>
        readArchive(
          makeZip([
            { name: "skill.json", data: "a" },
            { name: "skill.json", data: "b" },
          ]),
        ),
      ),
    ).toBe("bundle.duplicate_path");
  });

  it("refuses archives with too many entries (10 000)", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}.md`, data: "x", store: true }));
    expect(await codeOf(() => readArchive(makeZip(many)))).toBe("bundle.too_many_entries");
    const justEnough = Array.from({ length: MAX_ARCHIVE_ENTRIES }, (_, i) => ({ name: `f${i}.md`, data: "x" }));
    expect((await readArchive(makeZip(justEnough))).size).toBe(MAX_ARCHIVE_ENTRIES);
  });

  it("refuses zip bombs by ratio and by size, even when headers lie", async () => {
    const zeros = Buffer.alloc(MAX_BUNDLE_BYTES + 1);
    expect(await codeOf(() => readArchive(makeZip([{ name: "bomb.js", data: zeros }])))).toMatch(
      /^bundle\.(too_large|compression_ratio)$/,
    );
    const lying = makeZip([{ name: "bomb.js", data: Buffer.alloc(1024 * 1024), declaredSize: 10 }]);
    expect(await codeOf(() => readArchive(lying))).toMatch(/^bundle\.(too_large|compression_ratio|archive_corrupt)$/);
    const gzBomb = makeTarGz([{ name: "bomb.js", data: Buffer.alloc(4 * 1024 * 1024) }]);
    expect(await codeOf(() => readArchive(gzBomb))).toMatch(/^bundle\.(too_large|compression_ratio)$/);
  });

  it("refuses what is not an archive, and damaged archives", async () => {
    expect(await codeOf(() => readArchive(Buffer.from("just text")))).toBe("bundle.archive_unsupported");
    const zip = makeZip([{ name: "skill.json", data: skillJson }]);
    expect(await codeOf(() => readArchive(zip.subarray(0, zip.length - 30)))).toBe("bundle.archive_corrupt");
    expect(await codeOf(() => readArchive(Buffer.from([0x1f, 0x8b, 1, 2, 3])))).toBe("bundle.archive_corrupt");
  });
});

describe("what the maintained parsers add", () => {
  it("honours a pax header's path over the ustar name", async () => {
    const long = "docs/" + "p".repeat(150) + ".md";
    const files = await readArchive(
      makeTarGz([
        { name: "skill.json", data: skillJson },
        { name: "docs/short.md", data: "# pax", pax: { path: long } },
      ]),
    );
    expect([...files.keys()].sort()).toEqual([long, "skill.json"]);
    // ...and checks that path like any other.
    const escaping = makeTarGz([{ name: "ok.md", data: "x", pax: { path: "../../etc/passwd" } }]);
    expect(await codeOf(() => readArchive(escaping))).toBe("bundle.path_invalid");
    const linked = makeTarGz([{ name: "ok.md", type: "2", linkName: "x", pax: { linkpath: "/etc/passwd" } }]);
    expect(await codeOf(() => readArchive(linked))).toBe("bundle.link_refused");
  });

  it("skips __MACOSX/ and .DS_Store in both formats", async () => {
    const clutter = [
      { name: "skill.json", data: skillJson },
      { name: "__MACOSX/._skill.json", data: "resource fork" },
      { name: ".DS_Store", data: "finder" },
      { name: "docs/.DS_Store", data: "finder" },
      { name: "docs/a.md", data: "# a" },
    ];
    for (const bytes of [makeZip(clutter), makeTarGz(clutter)]) {
      expect([...(await readArchive(bytes)).keys()].sort()).toEqual(["docs/a.md", "skill.json"]);
    }
  });

  it("checks every zip entry's CRC-32", async () => {
    const bad = makeZip([{ name: "skill.json", data: skillJson, crc: 0x12345678 }]);
    expect(await codeOf(() => readArchive(bad))).toBe("bundle.archive_corrupt");
  });

  it("refuses a tar whose header checksum is wrong", async () => {
    const tar = gunzipSync(makeTarGz([{ name: "skill.json", data: skillJson }]));
    tar[0] = "x".charCodeAt(0); // the name changes, the stored checksum does not
    expect(await codeOf(() => readArchive(gzipSync(tar)))).toBe("bundle.archive_corrupt");
  });

  it("refuses encrypted zip entries", async () => {
    expect(await codeOf(() => readArchive(makeZip([{ name: "skill.json", data: skillJson, flags: 1 }])))).toBe(
      "bundle.archive_encrypted",
    );
  });
});

describe("safeBundlePath", () => {
  it("accepts ordinary relative paths", async () => {
    expect(safeBundlePath("tools/stats.js")).toBe("tools/stats.js");
    expect(safeBundlePath("./skill.json")).toBe("skill.json");
  });
  it.each(["", "..", "a//b", "a/./b", "C:/x", "a\u0000b", "x".repeat(201)])("refuses %j", async (p) => {
    expect(await codeOf(() => safeBundlePath(p))).toBe("bundle.path_invalid");
  });
});
