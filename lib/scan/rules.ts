// The scanner's vocabulary: finding shape, stable rule ids, their severities and the plain-words
// sentence a person reads, and the thresholds the rules apply (named so the tests and docs agree).

export type Net = "deny" | "openvibe-only" | "public";
export type Severity = "fail" | "flag";
export type Verdict = "passed" | "flagged" | "failed";

export interface Finding {
  rule: RuleId;
  severity: Severity;
  tool?: string;
  resource: string;
  line: number;
  column: number;
  excerpt: string;
  message: string;
}

/** Long base64 or hex: this many characters or more of one alphabet in one value (after joining). */
export const LONG_ENCODED_CHARS = 200;
/** Minified: any line longer than this many bytes, even inside an otherwise readable file. */
export const MAX_LINE_BYTES = 2048;
/** A timer whose delay folds to more than this many milliseconds is flagged (exactly 5000 passes). */
export const MAX_TIMER_MS = 5000;
/** A line-wrapped encoded value keeps counting across a line break only after a piece this long. */
export const WRAPPED_PIECE_MIN = 16;
/** Strings at least this long that are pure base64/hex are decoded to see whether they hide code. */
export const DECODE_PROBE_MIN = 16;

export const RULES = {
  "env.read": { severity: "fail", message: "reads your environment variables, where secrets live" },
  "process.spawn": { severity: "fail", message: "starts another program outside the sandbox's control" },
  "process.native": {
    severity: "fail",
    message: "reaches Node's internal bindings or native add-ons, around every safeguard",
  },
  "module.forbidden": {
    severity: "fail",
    message: "loads a module that can run other code or programs (vm, worker_threads, child_process and the like)",
  },
  "module.unresolved": {
    severity: "fail",
    message: "loads a module whose name is computed at run time, so nobody can check what it is",
  },
  "module.not_found": {
    severity: "fail",
    message: "loads a file that the skill does not contain, so nobody can check what would run",
  },
  "module.outside_bundle": {
    severity: "fail",
    message: "loads a file from outside the skill's own folder, from the machine it runs on",
  },
  "module.bare_missing": {
    severity: "fail",
    message: "loads a package that the skill does not contain, so it could only come from the machine it runs on",
  },
  "module.loader": {
    severity: "fail",
    message:
      "reaches Node's module loader (createRequire, require.resolve, require.cache and the like) to load code nobody checked",
  },
  "fs.write": { severity: "fail", message: "writes, changes or deletes files on the machine" },
  "code.eval": {
    severity: "fail",
    message: "turns text into running code (eval, Function or the like), which hides what it really does",
  },
  "net.denied": { severity: "fail", message: "uses the internet although this tool says it needs no internet" },
  "net.foreign_host": {
    severity: "fail",
    message: "names a site that is not OpenVibe's although this tool may reach OpenVibe sites only",
  },
  "net.unresolved_host": {
    severity: "fail",
    message: "reaches an address built at run time, so nobody can check it is an OpenVibe site",
  },
  "payload.encoded": {
    severity: "fail",
    message: "carries a long block of encoded data (base64 or hex) that a person cannot read",
  },
  "payload.code": {
    severity: "fail",
    message: "carries hidden code that is decoded from an encoded or scrambled string",
  },
  "code.minified": { severity: "fail", message: "is packed into very long lines that a person cannot review" },
  "scan.unresolved": {
    severity: "fail",
    message: "reaches a sensitive object in a way the scanner cannot follow, so it is treated as unsafe",
  },
  "scan.parse": { severity: "fail", message: "is not valid JavaScript, so it cannot be checked" },
  "scan.too_deep": { severity: "fail", message: "nests code so deeply that it cannot be checked safely" },
  "scan.too_complex": {
    severity: "fail",
    message: "is too complex to analyse within the scanner's budget; simplify or split the code",
  },
  "scan.entry_missing": { severity: "fail", message: "names a code file that the skill does not contain" },
  "net.use": { severity: "flag", message: "uses the internet" },
  "timer.long": { severity: "flag", message: "waits for more than 5 seconds" },
  "loop.input": { severity: "flag", message: "loops over its input in a way that can take very long on big input" },
} as const satisfies Record<string, { severity: Severity; message: string }>;

export type RuleId = keyof typeof RULES;

export function verdictOf(findings: readonly Pick<Finding, "severity">[]): Verdict {
  let flagged = false;
  for (const f of findings) {
    if (f.severity === "fail") return "failed";
    flagged = true;
  }
  return flagged ? "flagged" : "passed";
}
