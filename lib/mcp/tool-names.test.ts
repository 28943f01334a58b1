import { describe, expect, it } from "vitest";
import { MCP_TOOL_NAME_MAX, mcpToolNames } from "./tool-names";

describe("MCP tool names", () => {
  it("are <slug>__<tool> when that fits", () => {
    expect(mcpToolNames([{ slug: "text-tools", tool: "slugify" }])).toEqual(["text-tools__slugify"]);
  });

  it("keep the tool whole and shorten the slug with a hash when over 64 characters", () => {
    const slug = `s${"x".repeat(61)}z`;
    const [name] = mcpToolNames([{ slug, tool: "a_tool_with_a_long_name_of_32_ch" }]);
    expect(name!.length).toBeLessThanOrEqual(MCP_TOOL_NAME_MAX);
    expect(name).toMatch(/^sx+-[0-9a-f]{8}__a_tool_with_a_long_name_of_32_ch$/);
  });

  it("tell apart two long slugs with the same start, the same way whatever the order", () => {
    const a = { slug: `${"shared-prefix-".repeat(4)}one`, tool: "run_the_thing_with_a_long_name" };
    const b = { slug: `${"shared-prefix-".repeat(4)}two`, tool: "run_the_thing_with_a_long_name" };
    const ab = mcpToolNames([a, b]);
    const ba = mcpToolNames([b, a]);
    expect(ab[0]).not.toBe(ab[1]);
    expect(ba).toEqual([ab[1], ab[0]]);
    for (const n of ab) expect(n.length).toBeLessThanOrEqual(MCP_TOOL_NAME_MAX);
  });

  it("number any duplicate left in a fixed order", () => {
    const names = mcpToolNames([
      { slug: "dup", tool: "x" },
      { slug: "dup", tool: "x" },
    ]);
    expect(names).toEqual(["dup__x", "dup__x-2"]);
  });
});
