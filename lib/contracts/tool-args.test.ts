// Authors' argument patterns run on agents' input: they must match in linear time, mean what
// JSON Schema's `pattern` means (a search, not a full match), and a pattern the engine cannot
// compile is refused at publish with its JSON path.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ARGS_PATTERN_MAX_LENGTH, validateSkillDocument } from "./index";
import { compileToolArgs, linearPatternProblem } from "./tool-args";

const FIXTURE = path.join(import.meta.dirname, "../../test/fixtures/contracts/skills/valid/text-kit.json");

function withPatterns(patterns: { text?: string; tags?: string }) {
  const doc = JSON.parse(readFileSync(FIXTURE, "utf8"));
  delete doc.integrity;
  doc.tools[0].args = {
    type: "object",
    properties: {
      text: { type: "string", ...(patterns.text === undefined ? {} : { pattern: patterns.text }) },
      tags: {
        type: "array",
        items: { type: "string", ...(patterns.tags === undefined ? {} : { pattern: patterns.tags }) },
      },
    },
  };
  return doc;
}

describe("argument patterns on the linear engine", () => {
  it("answers a catastrophic-backtracking pattern on 64 KiB of input (and still means the same)", () => {
    const validate = compileToolArgs({ type: "object", properties: { a: { type: "string", pattern: "^(a+)+$" } } });
    // Stock RegExp needs about 1 s at 28 characters and doubles per character: this would never end.
    expect(validate({ a: "a".repeat(64 * 1024) + "!" })).toBe(false);
    expect(validate({ a: "a".repeat(64 * 1024) })).toBe(true);
    const nested = compileToolArgs({ type: "object", properties: { a: { type: "string", pattern: "^(\\w+\\s?)*$" } } });
    expect(nested({ a: "word ".repeat(10_000) + "!" })).toBe(false);
  });

  it("keeps JSON Schema semantics: unanchored search, character classes, unicode", () => {
    const validate = compileToolArgs({
      type: "object",
      properties: {
        id: { type: "string", pattern: "[0-9]{3}-[a-z]+" },
        word: { type: "string", pattern: "^\\p{L}+$" },
      },
    });
    expect(validate({ id: "x 123-abc y" })).toBe(true);
    expect(validate({ id: "12-abc" })).toBe(false);
    expect(validate({ word: "Grüße" })).toBe(true);
    expect(validate({ word: "a1" })).toBe(false);
  });

  it("does not mix up two patterns in one schema", () => {
    const validate = compileToolArgs({
      type: "object",
      properties: { a: { type: "string", pattern: "^a$" }, b: { type: "string", pattern: "^b$" } },
    });
    expect(validate({ a: "a", b: "b" })).toBe(true);
    expect(validate({ a: "b", b: "a" })).toBe(false);
  });

  it("names backreferences and lookaround as what the engine cannot do", () => {
    for (const p of ["(a)\\1", "(?=a)b", "(?!x)y", "(?<=a)b"])
      expect(linearPatternProblem(p), p).toMatch(/linear time/);
    for (const p of ["^\\d{3}$", "(?<year>\\d{4})", "^[a-z][a-z0-9_]{0,31}$"])
      expect(linearPatternProblem(p), p).toBeNull();
  });
});

describe("publishing a pattern", () => {
  it("refuses a pattern the linear engine cannot compile, with its JSON path", () => {
    const result = validateSkillDocument(withPatterns({ text: "^(\\w)\\1$", tags: "(?=x)" }));
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors.filter((e) => e.code === "contract.args_pattern_unsupported");
    expect(errors.map((e) => e.path).sort()).toEqual([
      "/tools/0/args/properties/tags/items/pattern",
      "/tools/0/args/properties/text/pattern",
    ]);
    expect(errors[0]!.message).toMatch(/RE2/);
  });

  it("accepts an ordinary pattern", () => {
    const result = validateSkillDocument(withPatterns({ text: "^[a-z ]{1,80}$", tags: "^#?\\w+$" }));
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it("does not compile a pattern past the length cap (the schema already refuses it)", () => {
    const result = validateSkillDocument(withPatterns({ text: "(a)\\1".repeat(ARGS_PATTERN_MAX_LENGTH) }));
    const codes = result.ok ? [] : result.errors.map((e) => e.code);
    expect(codes).toContain("contract.schema");
    expect(codes).not.toContain("contract.args_pattern_unsupported");
  });
});
