import { describe, expect, it } from "vitest";
import {
  BACKUP_FORMAT,
  formatSums,
  type Manifest,
  manifestProblems,
  mediaPath,
  mediaPathDigest,
  parseSums,
} from "./manifest";

const A = "a".repeat(64);
const B = "b".repeat(64);
const DUMP = "d".repeat(64);
const MANIFEST_SHA = "e".repeat(64);

function manifest(): Manifest {
  return {
    format: BACKUP_FORMAT,
    createdAt: new Date(0).toISOString(),
    database: {
      file: "database.dump",
      format: "pg_dump-custom",
      serverVersion: "15.20",
      pgDumpVersion: "15.20",
      pgDumpMajor: 15,
      migrations: [],
      tables: { User: 1 },
    },
    media: {
      backend: "local",
      objects: [
        { sha256: A, sizeBytes: 3, mediaType: "text/javascript" },
        { sha256: B, sizeBytes: 5, mediaType: "text/plain" },
      ],
    },
    files: [
      { path: "database.dump", sha256: DUMP, size: 100 },
      { path: mediaPath(A), sha256: A, size: 3 },
      { path: mediaPath(B), sha256: B, size: 5 },
    ],
  };
}

const sumsOf = (m: Manifest) => parseSums(formatSums([{ path: "manifest.json", sha256: MANIFEST_SHA }, ...m.files]));

describe("backup manifest", () => {
  it("media paths are the content keys under media/", () => {
    expect(mediaPath(A)).toBe(`media/sha256/aa/aa/${A}`);
    expect(mediaPathDigest(mediaPath(A))).toBe(A);
    expect(mediaPathDigest(`media/sha256/ab/aa/${A}`)).toBeNull();
    expect(mediaPathDigest(`media/sha256/aa/aa/${A}/../x`)).toBeNull();
    expect(mediaPathDigest("database.dump")).toBeNull();
  });

  it("SHA256SUMS round-trips in the format sha256sum -c reads, and refuses anything else", () => {
    const text = formatSums([{ path: "x/y", sha256: A }]);
    expect(text).toBe(`${A}  x/y\n`);
    expect(parseSums(text)).toEqual(new Map([["x/y", A]]));
    expect(parseSums(`${A} *x/y\n`)).toEqual(new Map([["x/y", A]]));
    expect(() => parseSums(`${A}  x/y\n${B}  x/y\n`)).toThrow(/twice/);
    expect(() => parseSums(`${A.toUpperCase()}  x\n`)).toThrow(/line 1/);
    expect(() => parseSums(`${A}  has space\n`)).toThrow(/line 1/);
  });

  it("a whole manifest has no problems", () => {
    const m = manifest();
    expect(manifestProblems(m, sumsOf(m), MANIFEST_SHA)).toEqual([]);
  });

  it.each<[string, (m: Manifest) => void, RegExp]>([
    ["a Media object without its file", (m) => m.files.pop(), /has no file/],
    ["a file that is not a Media object", (m) => m.media.objects.pop(), /is not one of the manifest's Media objects/],
    ["a file named by another hash", (m) => (m.files[1]!.sha256 = B), /another sha256 than its name/],
    ["a file of another size", (m) => (m.files[2]!.size = 6), /another size/],
    ["an unexpected path", (m) => m.files.push({ path: "../etc/passwd", sha256: A, size: 3 }), /unexpected file/],
    ["no database dump", (m) => m.files.shift(), /does not list database\.dump/],
    ["a file listed twice", (m) => m.files.push({ ...m.files[1]! }), /twice/],
  ])("finds %s", (_what, edit, problem) => {
    const m = manifest();
    const sums = sumsOf(m);
    edit(m);
    expect(manifestProblems(m, sums, MANIFEST_SHA).join("; ")).toMatch(problem);
  });

  it("finds SHA256SUMS that disagrees with the manifest, or with manifest.json itself", () => {
    const m = manifest();
    const sums = sumsOf(m);
    expect(manifestProblems(m, sums, B).join("; ")).toMatch(/SHA256SUMS does not match manifest\.json/);
    sums.set("database.dump", A);
    expect(manifestProblems(m, sums, MANIFEST_SHA).join("; ")).toMatch(/disagree about database\.dump/);
    sums.delete("database.dump");
    expect(manifestProblems(m, sums, MANIFEST_SHA).join("; ")).toMatch(/does not list database\.dump/);
  });
});
