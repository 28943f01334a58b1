import { describe, expect, it } from "vitest";
import { compareStreamIds, isStreamId, personEventOf } from "./person-log";

describe("person events", () => {
  it("come only from a person's own channels", () => {
    expect(personEventOf("user-steps:u1")).toEqual({ userId: "u1", type: "steps" });
    expect(personEventOf("installs:user:u2")).toEqual({ userId: "u2", type: "installs" });
    expect(personEventOf("scans:user:u3")).toEqual({ userId: "u3", type: "scans" });
    expect(personEventOf("step:abc")).toBeNull();
    expect(personEventOf("jobs:user:u1")).toBeNull();
    expect(personEventOf("link:l1")).toBeNull();
    expect(personEventOf("user-steps:")).toBeNull();
  });

  it("compare stream ids by time, then sequence", () => {
    expect(compareStreamIds("10-0", "9-5")).toBe(1);
    expect(compareStreamIds("10-2", "10-10")).toBe(-1);
    expect(compareStreamIds("10-2", "10-2")).toBe(0);
    expect(isStreamId("1796174370349-0")).toBe(true);
    for (const bad of ["", "1", "1-", "-1", "1-2-3", "a-1", "9".repeat(21) + "-0"]) expect(isStreamId(bad)).toBe(false);
  });
});
