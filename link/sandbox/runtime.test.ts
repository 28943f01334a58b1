// The tool Node's libraries, asked of its loader directly, are exactly those ldd names: each is
// bound into every sandbox, so one missing would fail every job and one extra would show a host file.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadedObjects, resolveRuntime } from "./bwrap";

describe("the tool Node's shared libraries", () => {
  it("are those ldd lists, with their real paths", () => {
    const runtime = resolveRuntime();
    const fromLdd = loadedObjects(execFileSync("ldd", [runtime.node], { encoding: "utf8" }));
    expect(fromLdd.length).toBeGreaterThan(0);
    expect(runtime.libraries).toEqual(fromLdd);
  });
});
