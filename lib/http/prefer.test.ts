import { describe, expect, it } from "vitest";
import { preferredWaitSeconds } from "./prefer";

describe("preferredWaitSeconds", () => {
  it("reads wait among other preferences and their parameters", () => {
    expect(preferredWaitSeconds("wait=10", 30)).toBe(10);
    expect(preferredWaitSeconds('respond-async, WAIT = "7"', 30)).toBe(7);
    expect(preferredWaitSeconds("return=minimal; foo=bar, wait=3;x=1", 30)).toBe(3);
  });

  it("caps it, and ignores what is not a whole number of seconds", () => {
    expect(preferredWaitSeconds("wait=999", 30)).toBe(30);
    expect(preferredWaitSeconds("wait=-1", 30)).toBe(0);
    expect(preferredWaitSeconds("wait=1.5", 30)).toBe(0);
    expect(preferredWaitSeconds("waiting=5", 30)).toBe(0);
    expect(preferredWaitSeconds(null, 30)).toBe(0);
    expect(preferredWaitSeconds(`wait=5,${"x".repeat(2000)}`, 30)).toBe(0);
  });
});
