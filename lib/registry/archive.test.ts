import { describe, expect, it } from "vitest";
import { makeTarGz, makeZip } from "../../test/helpers/archives";
import { AppError } from "../errors";
import { MAX_ARCHIVE_ENTRIES, MAX_BUNDLE_BYTES, readArchive, safeBundlePath } from "./archive";

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  throw new Error("expected an AppError");
}

const skillJson = JSON.stringify({ slug: "x" });

describe("readArchive", () => {
  it("reads a zip of a bundle folder and drops the common top folder", () => {
    const files = readArchive(
      makeZip([
        { name: "csv-stats/" },
        { name: "csv-stats/skill.json", data: skillJson },
        { name: "csv-stats/tools/stats.js", data: "console.log(1)\n".repeat(50) },
      ]),
    );
    expect([...files.keys()].sort()).toEqual(["skill.json", "tools/stats.js"]);
    expect(files.get("skill.json")!.toString()).toBe(skillJson);
  });

  it("reads a tar.gz, including a long name", () => {
    const long = "docs/" + "a".repeat(120) + ".md";
    const files = readArchive(
      makeTarGz([
        { name: "skill.json", data: skillJson },
        { name: "docs/", type: "5" },
        { name: long, data: "# hi" },
      ]),
    );
    expect(files.get(long)!.toString()).toBe("# hi");
    expect(files.get("skill.json")!.toString()).toBe(skillJson);
  });

  it("refuses path traversal, absolute paths and backslashes", () => {
    expect(codeOf(() => readArchive(makeZip([{ name: "../evil.js", data: "x" }])))).toBe("bundle.path_invalid");
    expect(codeOf(() => readArchive(makeZip([{ name: "a/../../evil.js", data: "x" }])))).toBe("bundle.path_invalid");
    expect(codeOf(() => readArchive(makeTarGz([{ name: "/etc/passwd", data: "x" }])))).toBe("bundle.path_invalid");
    expect(codeOf(() => readArchive(makeZip([{ name: "a\\..\\b.js", data: "x" }])))).toBe("bundle.path_invalid");
  });

  it("refuses symlinks and hard links in both formats", () => {
    expect(codeOf(() => readArchive(makeZip([{ name: "link.js", data: "/etc/passwd", mode: 0o120777 }])))).toBe(
      "bundle.link_refused",
    );
    expect(codeOf(() => readArchive(makeTarGz([{ name: "link.js", type: "2", linkName: "/etc/passwd" }])))).toBe(
      "bundle.link_refused",
    );
    expect(codeOf(() => readArchive(makeTarGz([{ name: "hard.js", type: "1", linkName: "skill.json" }])))).toBe(
      "bundle.link_refused",
    );
    expect(codeOf(() => readArchive(makeTarGz([{ name: "dev", type: "3" }])))).toBe("bundle.special_file_refused");
  });

  it("refuses duplicate names", () => {
    expect(
      codeOf(() =>
        readArchive(
          makeZip([
            { name: "skill.json", data: "a" },
            { name: "skill.json", data: "b" },
          ]),
        ),
      ),
    ).toBe("bundle.duplicate_path");
  });

  it("refuses archives with too many entries (10 000)", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}.md`, data: "x", store: true }));
    expect(codeOf(() => readArchive(makeZip(many)))).toBe("bundle.too_many_entries");
    const justEnough = Array.from({ length: MAX_ARCHIVE_ENTRIES }, (_, i) => ({ name: `f${i}.md`, data: "x" }));
    expect(readArchive(makeZip(justEnough)).size).toBe(MAX_ARCHIVE_ENTRIES);
  });

  it("refuses zip bombs by ratio and by size, even when headers lie", () => {
    const zeros = Buffer.alloc(MAX_BUNDLE_BYTES + 1);
    expect(codeOf(() => readArchive(makeZip([{ name: "bomb.js", data: zeros }])))).toMatch(
      /^bundle\.(too_large|compression_ratio)$/,
    );
    const lying = makeZip([{ name: "bomb.js", data: Buffer.alloc(1024 * 1024), declaredSize: 10 }]);
    expect(codeOf(() => readArchive(lying))).toMatch(/^bundle\.(too_large|compression_ratio|archive_corrupt)$/);
    const gzBomb = makeTarGz([{ name: "bomb.js", data: Buffer.alloc(4 * 1024 * 1024) }]);
    expect(codeOf(() => readArchive(gzBomb))).toMatch(/^bundle\.(too_large|compression_ratio)$/);
  });

  it("refuses what is not an archive, and damaged archives", () => {
    expect(codeOf(() => readArchive(Buffer.from("just text")))).toBe("bundle.archive_unsupported");
    const zip = makeZip([{ name: "skill.json", data: skillJson }]);
    expect(codeOf(() => readArchive(zip.subarray(0, zip.length - 30)))).toBe("bundle.archive_corrupt");
    expect(codeOf(() => readArchive(Buffer.from([0x1f, 0x8b, 1, 2, 3])))).toBe("bundle.archive_corrupt");
  });
});

describe("safeBundlePath", () => {
  it("accepts ordinary relative paths", () => {
    expect(safeBundlePath("tools/stats.js")).toBe("tools/stats.js");
    expect(safeBundlePath("./skill.json")).toBe("skill.json");
  });
  it.each(["", "..", "a//b", "a/./b", "C:/x", "a\u0000b", "x".repeat(201)])("refuses %j", (p) => {
    expect(codeOf(() => safeBundlePath(p))).toBe("bundle.path_invalid");
  });
});
