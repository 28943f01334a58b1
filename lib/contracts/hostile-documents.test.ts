// Documents built to crash a validator or the database behind it: nesting past any contract's
// depth (a recursive walk would overflow the stack) and NULs or lone surrogates in any text field
// (PostgreSQL refuses them). Each gets a contract error, never an exception.
import { describe, expect, it } from "vitest";
import { validateSkillDocument } from "./index";

const base = {
  contract: "actor.skill@1",
  slug: "hostile",
  version: "1.0.0",
  name: "Hostile",
  summary: "s",
  instructions: "i",
  resources: [],
  requires: { kinds: [] },
};
const codes = (doc: unknown) => {
  const r = validateSkillDocument(doc);
  return r.ok ? [] : r.errors.map((e) => [e.path.slice(0, 20), e.code]);
};

describe("hostile documents", () => {
  it("refuses nesting 100 000 levels deep with an error, not a stack overflow", () => {
    const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
    expect(codes({ ...base, extra: deep })).toEqual([["/extra/0/0/0/0/0/0/0", "contract.not_json"]]);
    expect(codes({ ...base, contract: "actor.skill@2", runs: "sandbox", tools: deep })[0]![1]).toBe("contract.not_json");
  });

  it("refuses NULs and lone surrogates in any text field or name, with its path", () => {
    expect(codes({ ...base, name: "a\u0000b" })).toEqual([["/name", "contract.field_not_text"]]);
    expect(codes({ ...base, summary: "\ud800" })).toContainEqual(["/summary", "contract.field_not_text"]);
    expect(codes({ ...base, requires: { kinds: ["a.b\u0000"] } })).toContainEqual(["/requires/kinds/0", "contract.field_not_text"]);
    expect(codes({ ...base, instructions: "x\u0000" })).toEqual([["/instructions", "contract.instructions_not_text"]]);
  });
});
