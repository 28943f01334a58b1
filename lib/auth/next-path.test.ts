import { describe, expect, it } from "vitest";
import { safeNextPath } from "./next-path";

describe("safeNextPath", () => {
  it("keeps a path on this site, query included", () => {
    expect(safeNextPath("/dashboard/tokens")).toBe("/dashboard/tokens");
    expect(safeNextPath("/?q=csv")).toBe("/?q=csv");
  });

  it.each([
    [null],
    [""],
    ["https://evil.example/"],
    ["//evil.example"],
    ["/\\evil.example"],
    ["/\t/evil.example"],
    ["/\n/evil.example"],
    ["javascript:alert(1)"],
    ["dashboard"],
  ])("sends %j to the dashboard instead", (next) => {
    expect(safeNextPath(next)).toBe("/dashboard");
  });
});
