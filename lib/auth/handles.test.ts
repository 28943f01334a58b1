import { describe, expect, it } from "vitest";
import { HANDLE_PATTERN, handleBase, normalizeEmail } from "./handles";

describe("handles", () => {
  it.each([
    ["Ada Lovelace", "ada-lovelace"],
    ["  José Núñez ", "jose-nunez"],
    ["___", "user"],
    ["李", "user"],
    ["admin", "admin-1"],
    ["a".repeat(60), "a".repeat(25)],
    ["trailing-dash-after-cut-xxxxxx-yyy", "trailing-dash-after-cut-x"],
  ])("derives %j → %j, always a valid handle", (name, handle) => {
    expect(handleBase(name)).toBe(handle);
    expect(handleBase(name)).toMatch(HANDLE_PATTERN);
  });

  it("stores emails trimmed and lower-cased", () => {
    expect(normalizeEmail("  Ada@Example.COM ")).toBe("ada@example.com");
  });
});
