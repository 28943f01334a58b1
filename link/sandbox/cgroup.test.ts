// Job cgroups: detection on this machine (what a dead Link left behind: folders.test.ts).
import { describe, expect, it } from "vitest";
import { detectCgroups } from "./cgroup";

describe("job cgroups", () => {
  const support = detectCgroups();

  it("are available on this machine (else the Link reports heap-rlimit)", () => {
    expect(["cgroup-v2", "cgroup-v1", "heap-rlimit"]).toContain(support.enforcement);
    if (support.enforcement === "heap-rlimit") expect(support.reason).toBeTruthy();
  });
});
