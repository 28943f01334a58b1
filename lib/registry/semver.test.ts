import { describe, expect, it } from "vitest";
import { compareSemver, semverParts } from "./semver";

describe("semver", () => {
  it("orders versions by semver 2.0.0 precedence, not as strings", () => {
    const sorted = [
      "1.10.0",
      "1.2.0",
      "1.0.0",
      "1.0.0-rc.1",
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-beta.11",
      "1.0.0-beta.2",
      "0.9.9",
    ].sort(compareSemver);
    expect(sorted).toEqual([
      "0.9.9",
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
      "1.2.0",
      "1.10.0",
    ]);
  });

  it("ignores build metadata and refuses what is not semver", () => {
    expect(compareSemver("1.0.0+build.5", "1.0.0")).toBe(0);
    expect(() => semverParts("1.0")).toThrow();
    expect(() => semverParts("01.0.0")).toThrow();
  });
});
