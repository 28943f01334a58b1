// Tool `args` schemas are written by authors and run against agents' input on the server, so their
// `pattern`s go through RE2 (re2js): matching time is linear in the input, whatever the pattern.
// The same engine decides at publish whether a pattern is acceptable (lib/contracts/rules.ts), so
// a pattern that was published always compiles here.
import { Ajv2020 as StockAjv2020, type Options, type ValidateFunction } from "ajv/dist/2020.js";
import type { RegExpEngine, RegExpLike } from "ajv/dist/types/index.js";
import { RE2JS } from "re2js";

export type { ValidateFunction } from "ajv/dist/2020.js";

class LinearRegExp implements RegExpLike {
  private readonly re: RE2JS;
  constructor(
    private readonly source: string,
    private readonly maxInput = Infinity,
  ) {
    this.re = RE2JS.compile(RE2JS.translateRegExp(source));
  }
  test(input: string): boolean {
    // Past the cap the value is refused without reading it (its schema's maxLength refuses it too).
    return input.length <= this.maxInput && this.re.test(input);
  }
  /** ajv keys its compiled patterns by this string. */
  toString(): string {
    return `/${this.source}/re2`;
  }
}

/**
 * ajv's `code.regExp` engine: RE2 semantics, linear time, no backreferences or lookaround. With
 * `maxInput`, longer strings fail the pattern unread (for schemas whose patterned fields are short).
 */
export function linearRegExpEngine(maxInput = Infinity): RegExpEngine {
  return Object.assign((pattern: string) => new LinearRegExp(pattern, maxInput), { code: "linearRegExp" });
}

export const linearRegExp = linearRegExpEngine();

/** Null when the linear engine accepts `pattern`; else why not, in words for the author. */
export function linearPatternProblem(pattern: string): string | null {
  try {
    new LinearRegExp(pattern);
    return null;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return `This pattern cannot be matched in linear time (RE2 syntax: no backreferences or lookaround): ${why}`.slice(
      0,
      300,
    );
  }
}

/** ajv 2020 whose every `pattern` runs on the linear engine, whatever the caller's options. */
export class Ajv2020 extends StockAjv2020 {
  constructor(options: Options = {}) {
    super({ ...options, code: { ...options.code, regExp: linearRegExp } });
  }
}

let shared: Ajv2020 | undefined;

/** The validator of one tool's `args` (the caller caches it per version and tool). */
export function compileToolArgs(args: object): ValidateFunction {
  shared ??= new Ajv2020({ strict: false, allErrors: true });
  return shared.compile(args);
}
