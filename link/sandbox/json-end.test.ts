// When stdout holds one complete JSON value, fed in arbitrary chunks.
import { describe, expect, it } from "vitest";
import { JsonEndDetector } from "./json-end";

function completesAt(chunks: string[]): number {
  const detector = new JsonEndDetector();
  return chunks.findIndex((chunk) => detector.push(Buffer.from(chunk)));
}

describe("JsonEndDetector", () => {
  it("completes objects and arrays when their depth returns to zero, across chunks", () => {
    expect(completesAt(['{"a":', '[1,{"b":2}', "]", "}"])).toBe(3);
    expect(completesAt(["  [", "[]", "]\n"])).toBe(2);
  });

  it("ignores braces and quotes inside strings, including escaped quotes", () => {
    expect(completesAt(['{"x":"}]\\"', '{"', "}"])).toBe(2);
    expect(completesAt(['"a\\"b', '"'])).toBe(1);
  });

  it("completes a bare scalar only at whitespace (else stdout closing ends it)", () => {
    expect(completesAt(["42"])).toBe(-1);
    expect(completesAt(["42", "\n"])).toBe(1);
    expect(completesAt(["true "])).toBe(0);
  });

  it("is not fooled by multi-byte characters", () => {
    expect(completesAt(['{"é":"✓', '"', "}"])).toBe(2);
  });
});
