// The WebAssembly Node's fetch compiles, found by running the tool Node itself, and kept per binary.
import { readFileSync, rmSync, statSync } from "node:fs";
import { tempDir } from "../../test/helpers/temp-dir";
import { afterAll, describe, expect, it } from "vitest";
import { resolveToolNode } from "./bwrap";
import { fetchWasmFiles, fetchWasmModules } from "./fetch-wasm";

const { node } = resolveToolNode();
const base = tempDir("fetch-wasm");

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the modules fetch compiles", () => {
  it("are recorded from a real fetch of the tool Node: WebAssembly binaries", async () => {
    const modules = await fetchWasmModules(node);
    expect(modules.length).toBeGreaterThan(0);
    for (const bytes of modules) {
      expect(bytes.subarray(0, 4)).toEqual(Buffer.from("\0asm", "binary"));
      expect(bytes.length).toBeGreaterThan(10_000);
    }
  });

  it("are kept once per Node binary, read-only, and found again without a new probe", async () => {
    let probes = 0;
    const counted = (binary: string) => {
      probes += 1;
      return fetchWasmModules(binary);
    };
    const first = await fetchWasmFiles(node, base, counted);
    expect(first.length).toBeGreaterThan(0);
    for (const { file, bytes } of first) {
      expect(statSync(file).mode & 0o777).toBe(0o444);
      expect(readFileSync(file).length).toBe(bytes);
    }
    const again = await fetchWasmFiles(node, base, counted);
    expect(again).toEqual(first);
    expect(probes).toBe(1);
  });
});
