import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { corpusFindings } from "./corpus-findings";

// The findings of every single-file corpus case, compared to the snapshot committed before
// analyze.ts was split into modules: the split must not change what the scanner reports.
describe("corpus findings snapshot", () => {
  it("is unchanged", () => {
    const snapshot = JSON.parse(
      readFileSync(path.join(import.meta.dirname, "corpus", "findings.snapshot.json"), "utf8"),
    );
    expect(corpusFindings()).toEqual(snapshot);
  });
});
