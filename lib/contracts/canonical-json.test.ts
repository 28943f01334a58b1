import { describe, expect, it } from "vitest";
import { canonicalJson, CanonicalJsonError } from "./canonical-json";

const fromBits = (hex: string) => {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt("0x" + hex));
  return view.getFloat64(0);
};

describe("canonicalJson (RFC 8785)", () => {
  it("serialises the RFC's 3.2.2 example byte for byte", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        '"string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        '"literals": [null, true, false]}',
    );
    const out = canonicalJson(input);
    expect(out).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
    // 3.2.4: the hash input is the UTF-8 encoding of that text, with € as e2 82 ac.
    expect(Buffer.from(out, "utf8").toString("hex")).toContain("22e282ac245c7530303066");
  });

  it("sorts member names by UTF-16 code units (RFC 3.2.3 example)", () => {
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
    // JSON.parse puts the integer-like "1" first on its own, so read the order from the text instead.
    expect(keys).toHaveLength(7);
    const order = [...canonicalJson(input).matchAll(/"((?:[^"\\]|\\.)*)":"/g)].map((m) => m[1]);
    expect(order).toEqual(["\\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"]);
  });

  it("sorts by code units, not code points: U+FB33 comes after a surrogate pair", () => {
    expect(canonicalJson({ "\ufb33": 1, "\ud83d\ude00": 2 })).toBe('{"\ud83d\ude00":2,"\ufb33":1}');
  });

  it.each([
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ])("serialises the IEEE 754 value %s as %s (RFC Appendix B)", (bits, expected) => {
    expect(canonicalJson(fromBits(bits))).toBe(expected);
  });

  it.each([["7fffffffffffffff"], ["7ff0000000000000"], ["fff0000000000000"]])(
    "refuses NaN and Infinity (%s)",
    (bits) => {
      expect(() => canonicalJson(fromBits(bits))).toThrow(CanonicalJsonError);
    },
  );

  it("escapes only quote, backslash and control characters, in lowercase hex", () => {
    expect(canonicalJson("a\u0001\u001f\u007f\u2028/\b\t\n\f\r")).toBe('"a\\u0001\\u001f\u007f\u2028/\\b\\t\\n\\f\\r"');
  });

  it("refuses lone surrogates, undefined, functions, cycles and class instances, naming the path", () => {
    expect(() => canonicalJson({ a: ["\ud800"] })).toThrow("at /a/0");
    expect(() => canonicalJson({ a: undefined })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson([() => 1])).toThrow(CanonicalJsonError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow("cycle");
    expect(() => canonicalJson({ d: new Date(0) })).toThrow("plain objects");
  });

  it("writes nested values without whitespace and keeps array order", () => {
    expect(canonicalJson({ b: [3, { z: 1, a: [] }], a: {} })).toBe('{"a":{},"b":[3,{"a":[],"z":1}]}');
  });
});
