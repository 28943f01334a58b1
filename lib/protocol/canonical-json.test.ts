import { describe, expect, it } from "vitest";
import { canonicalJson, CanonicalJsonError } from "./canonical-json";

describe("RFC 8785 canonical JSON", () => {
  it("matches the RFC's §3.2.2 example (whitespace, literals, numbers, strings)", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it("sorts members by UTF-16 code units (the RFC's §3.2.3 example)", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // JSON.parse re-orders the integer-like key "1" first; compare the canonical text instead.
    expect(keys.length).toBe(7);
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it("writes numbers as ECMAScript does (the RFC's Appendix B samples)", () => {
    const samples: [number, string][] = [
      [0, "0"],
      [-0, "0"],
      [5e-324, "5e-324"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [9007199254740992, "9007199254740992"],
      [295147905179352830000, "295147905179352830000"],
      [1e21, "1e+21"],
      [1e-7, "1e-7"],
      [0.000001, "0.000001"],
      [333333333.3333333, "333333333.3333333"],
    ];
    for (const [value, text] of samples) expect(canonicalJson(value)).toBe(text);
  });

  it("refuses what has no canonical form", () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ a: Infinity })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson("\ud800")).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ x: 1n })).toThrow(CanonicalJsonError);
    let deep: unknown = 1;
    for (let i = 0; i < 300; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(/deeper/);
  });

  it("is the same for the same value however its members were ordered", () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 3 }], a: null })).toBe(canonicalJson({ a: null, b: [1, { c: 3, d: 2 }] }));
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});
