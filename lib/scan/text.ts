// Text-level checks the AST rules share: where a byte offset sits (line, column, excerpt), very long
// lines, runs of base64/hex, host names under openvibe-only, and whether decoded text is code.
import { parseSync } from "@swc/core";
import { DECODE_PROBE_MIN, LONG_ENCODED_CHARS, MAX_LINE_BYTES, WRAPPED_PIECE_MIN } from "./rules";

/** How every tool is parsed: module or script, whichever the code is, with the newest syntax. */
export const PARSE_OPTIONS = { syntax: "ecmascript", isModule: "unknown", target: "esnext", comments: false } as const;

/** Maps swc's 1-based UTF-8 byte offsets to 1-based line and column (in characters). */
export class SourceMapper {
  private readonly bytes: Buffer | null;
  private lineStarts: number[] | null = null;
  constructor(
    private readonly code: string,
    ascii: boolean,
  ) {
    this.bytes = ascii ? null : Buffer.from(code);
  }
  private charIndex(bytePos: number): number {
    const off = Math.max(0, bytePos - 1);
    if (!this.bytes) return Math.min(off, this.code.length);
    return this.bytes.subarray(0, Math.min(off, this.bytes.length)).toString("utf8").length;
  }
  locate(bytePos: number): { line: number; column: number; excerpt: string } {
    return this.locateIndex(this.charIndex(bytePos));
  }
  locateIndex(idx: number): { line: number; column: number; excerpt: string } {
    if (!this.lineStarts) {
      const starts = [0];
      for (let i = this.code.indexOf("\n"); i !== -1; i = this.code.indexOf("\n", i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= idx) lo = mid;
      else hi = mid - 1;
    }
    const start = starts[lo]!;
    const nl = this.code.indexOf("\n", start);
    const lineText = this.code.slice(start, nl === -1 ? this.code.length : nl).replace(/\r$/, "");
    const col = idx - start;
    return { line: lo + 1, column: col + 1, excerpt: excerptAround(lineText, col) };
  }
}

const EXCERPT_CHARS = 120;
function excerptAround(line: string, col: number): string {
  if (line.length <= EXCERPT_CHARS) return line.trim();
  const from = Math.max(0, Math.min(col - 40, line.length - EXCERPT_CHARS));
  return (from > 0 ? "…" : "") + line.slice(from, from + EXCERPT_CHARS).trim() + "…";
}

/** Index of the first run of LONG_ENCODED_CHARS encoded characters anywhere in the file (comments too), or -1. */
export function firstEncodedRunInFile(code: string): number {
  const r = longEncodedRun(code);
  return r ? r.at : -1;
}

/**
 * swc's parser recurses natively and crashes the whole process (no exception) on very deep nesting,
 * so code shaped to nest that deep is refused before parsing. The limits are far above real tools.
 */
export const NESTING_LIMITS = {
  brackets: 1000,
  arrows: 1500,
  ifs: 4000,
  unaryRun: 5000,
  assignments: 15000,
  conditionals: 15000,
} as const;

// Character classes for nestingRisk: 0 = any other character (ends a unary run), 1 = ( [ {,
// 2 = ) ] }, 3 = "=", 4 = "?", 5 = "i", 6 = ! ~ + -, 7 = whitespace.
const NEST_CLS = new Uint8Array(128);
NEST_CLS[40] = NEST_CLS[91] = NEST_CLS[123] = 1;
NEST_CLS[41] = NEST_CLS[93] = NEST_CLS[125] = 2;
NEST_CLS[61] = 3;
NEST_CLS[63] = 4;
NEST_CLS[105] = 5;
NEST_CLS[33] = NEST_CLS[126] = NEST_CLS[43] = NEST_CLS[45] = 6;
NEST_CLS[32] = NEST_CLS[10] = NEST_CLS[13] = NEST_CLS[9] = 7;

/** Index where code first exceeds NESTING_LIMITS, or -1. Counts over the raw text, strings included. */
export function nestingRisk(code: string): number {
  let depth = 0;
  let arrows = 0;
  let ifs = 0;
  let unary = 0;
  let eqs = 0;
  let qs = 0;
  const L = NESTING_LIMITS;
  const n = code.length;
  for (let i = 0; i < n; i++) {
    const c = code.charCodeAt(i);
    const k = c < 128 ? NEST_CLS[c]! : 0;
    if (k === 0) {
      unary = 0;
      continue;
    }
    switch (k) {
      case 1:
        if (++depth > L.brackets) return i;
        unary = 0;
        break;
      case 2:
        if (depth > 0) depth--;
        unary = 0;
        break;
      case 3:
        if (code.charCodeAt(i + 1) === 62) {
          if (++arrows > L.arrows) return i;
        } else if (++eqs > L.assignments) return i;
        unary = 0;
        break;
      case 4:
        if (++qs > L.conditionals) return i;
        unary = 0;
        break;
      case 5:
        if (
          code.charCodeAt(i + 1) === 102 &&
          !isIdentChar(code.charCodeAt(i - 1)) &&
          !isIdentChar(code.charCodeAt(i + 2))
        ) {
          if (++ifs > L.ifs) return i;
        }
        unary = 0;
        break;
      case 6:
        if (++unary > L.unaryRun) return i;
        break;
      // 7: whitespace keeps a unary run going
    }
  }
  return -1;
}

function isIdentChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95;
}

/** Character index of the first line longer than MAX_LINE_BYTES bytes, or -1. */
export function firstLongLine(code: string, ascii: boolean): number {
  let start = 0;
  while (start <= code.length) {
    let end = code.indexOf("\n", start);
    if (end === -1) end = code.length;
    const len = end - start;
    // A character is at most 3 UTF-8 bytes in a JS string (surrogate pairs are 4 for 2 chars).
    if (
      len > MAX_LINE_BYTES ||
      (!ascii && len * 3 > MAX_LINE_BYTES && Buffer.byteLength(code.slice(start, end)) > MAX_LINE_BYTES)
    ) {
      return start;
    }
    start = end + 1;
  }
  return -1;
}

// Character classes: 1 = hex digit-or-letter a-f, 2 = other base64 letter, 4 = + /, 8 = - _, 16 = "="
const CLS = new Uint8Array(128);
for (let c = 48; c <= 57; c++) CLS[c] = 1;
for (let c = 65; c <= 90; c++) CLS[c] = c <= 70 ? 1 : 2;
for (let c = 97; c <= 122; c++) CLS[c] = c <= 102 ? 1 : 2;
CLS[43] = 4;
CLS[47] = 4;
CLS[45] = 8;
CLS[95] = 8;
CLS[61] = 16;

/** 1 for a character that can sit inside a run (any alphabet's character, or whitespace of a wrapped value). */
const IN_RUN = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (CLS[c] !== 0 || c === 10 || c === 13 || c === 32 || c === 9) IN_RUN[c] = 1;

/**
 * Cheap pre-pass: a run over the union of all three alphabets bounds every single-alphabet run.
 * Any other character ends a run, and a run of LONG_ENCODED_CHARS spans at least that many characters,
 * so it covers one of the probe positions LONG_ENCODED_CHARS apart: only the stretches free of such
 * characters around a probe need the character-by-character scan.
 */
function unionRunReaches(s: string): boolean {
  const n = s.length;
  const L = LONG_ENCODED_CHARS;
  let from = 0; // characters before `from` have been examined
  for (let p = L - 1; p < n; p += L) {
    if (p < from) continue;
    const c = s.charCodeAt(p);
    if (c >= 128 || IN_RUN[c] === 0) continue;
    let a = p;
    while (a > from) {
      const d = s.charCodeAt(a - 1);
      if (d >= 128 || IN_RUN[d] === 0) break;
      a--;
    }
    let b = p + 1;
    while (b < n) {
      const d = s.charCodeAt(b);
      if (d >= 128 || IN_RUN[d] === 0) break;
      b++;
    }
    if (b - a >= L && unionRunIn(s, a, b)) return true;
    from = b;
  }
  return false;
}

/** The exact union-alphabet scan over s[from, to), which holds no character that ends a run. */
function unionRunIn(s: string, from: number, to: number): boolean {
  let run = 0;
  let piece = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && CLS[c] !== 0) {
      if (++run >= LONG_ENCODED_CHARS) return true;
      piece++;
      continue;
    }
    if (piece >= WRAPPED_PIECE_MIN && (c === 10 || c === 13 || c === 32 || c === 9)) {
      let j = i;
      let sawNewline = false;
      while (j < to) {
        const d = s.charCodeAt(j);
        if (d === 10 || d === 13) sawNewline = true;
        else if (d !== 32 && d !== 9) break;
        j++;
      }
      if (sawNewline) {
        i = j - 1;
        piece = 0;
        continue;
      }
    }
    run = 0;
    piece = 0;
  }
  return false;
}

export interface RunReport {
  length: number;
  /** index in the text where the run starts */
  at: number;
  kind: "base64" | "hex";
}

/**
 * Longest run of one encoding alphabet (base64, base64url or hex) in `s`. A run may continue across
 * a line break (with indentation) when the piece before it is at least WRAPPED_PIECE_MIN long, so
 * line-wrapped payloads count as one value. Returns null when no run reaches LONG_ENCODED_CHARS.
 */
export function longEncodedRun(s: string): RunReport | null {
  if (s.length < LONG_ENCODED_CHARS || !unionRunReaches(s)) return null;
  // one pass, three alphabets at once: 0 standard base64 (+ / =), 1 url-safe (- _ =), 2 hex
  let r0 = 0,
    r1 = 0,
    r2 = 0;
  let s0 = 0,
    s1 = 0,
    s2 = 0;
  let piece = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const k = c < 128 ? CLS[c]! : 0;
    if (k !== 0) {
      if (k !== 8) {
        if (r0 === 0) s0 = i;
        if (++r0 >= LONG_ENCODED_CHARS) return { length: r0, at: s0, kind: "base64" };
      } else r0 = 0;
      if (k !== 4) {
        if (r1 === 0) s1 = i;
        if (++r1 >= LONG_ENCODED_CHARS) return { length: r1, at: s1, kind: "base64" };
      } else r1 = 0;
      if (k === 1) {
        if (r2 === 0) s2 = i;
        if (++r2 >= LONG_ENCODED_CHARS) return { length: r2, at: s2, kind: "hex" };
      } else r2 = 0;
      piece++;
      continue;
    }
    if ((c === 10 || c === 13 || c === 32 || c === 9) && piece >= WRAPPED_PIECE_MIN) {
      // a line-wrapped value: skip the line break and the indentation around it
      let j = i;
      let sawNewline = false;
      while (j < s.length) {
        const d = s.charCodeAt(j);
        if (d === 10 || d === 13) sawNewline = true;
        else if (d !== 32 && d !== 9) break;
        j++;
      }
      if (sawNewline) {
        i = j - 1;
        piece = 0;
        continue;
      }
    }
    r0 = r1 = r2 = 0;
    piece = 0;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Hosts

const COMMON_TLDS = new Set(
  (
    "com net org io dev app ai co me info biz xyz ru cn tk top online cloud services us uk de fr jp br nl eu " +
    "ca au ch se es ir kp su ws cc pw gq ml cf ga onion gov edu mil int tv fm gg ly dk fi gr hu cz ro ua kr tw " +
    "hk sg th vn ph za ng ke eg sa ae il tr mx ar cl pe ve nz local internal localhost"
  ).split(" "),
);

export function isOpenVibeHost(host: string): boolean {
  let h = host.toLowerCase();
  if (h.endsWith(".")) h = h.slice(0, -1);
  return h === "openvibe.services" || h.endsWith(".openvibe.services");
}

const URL_RE = /\b([a-z][a-z0-9+.-]{1,15}):\/\/[^\s"'`<>\\]+/gi;
const HOST_RE =
  /(?:^|[^a-z0-9.@_-])((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+([a-z]{2,24}))(?![a-z0-9_-]|\.[a-z0-9])/gi;
const IPV4_RE = /(?:^|[^0-9.])((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?![0-9.])/g;
const EMAIL_RE = /[a-z0-9._%+-]+@((?:[a-z0-9-]+\.)+[a-z]{2,24})/gi;
const LOCALHOST_RE = /\blocalhost\b|\[[0-9a-f:.]*:[0-9a-f:.]*\]/i;

/** The first host in `s` that is not an OpenVibe host, or null. Hosts parse as URLs where they can. */
export function foreignHostIn(s: string): string | null {
  if (s.length < 4) return null;
  let m: RegExpExecArray | null;
  URL_RE.lastIndex = 0;
  while ((m = URL_RE.exec(s))) {
    const scheme = m[1]!.toLowerCase();
    if (scheme === "data" || scheme === "blob") continue;
    const host = hostOfUrl(m[0]);
    if (host === null) return m[0].slice(0, 80);
    if (!isOpenVibeHost(host)) return host;
  }
  if (LOCALHOST_RE.test(s)) return "localhost";
  IPV4_RE.lastIndex = 0;
  if ((m = IPV4_RE.exec(s))) return m[1]!;
  EMAIL_RE.lastIndex = 0;
  while ((m = EMAIL_RE.exec(s))) {
    if (COMMON_TLDS.has(m[1]!.split(".").pop()!.toLowerCase()) && !isOpenVibeHost(m[1]!)) return m[1]!;
  }
  HOST_RE.lastIndex = 0;
  while ((m = HOST_RE.exec(s))) {
    const host = m[1]!;
    const tld = m[2]!.toLowerCase();
    if (!COMMON_TLDS.has(tld)) continue;
    if (!isOpenVibeHost(host)) return host;
  }
  return null;
}

/** Host of an absolute URL as the WHATWG parser sees it (so userinfo, IP forms and case are normalised). */
export function hostOfUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.hostname.replace(/^\[|\]$/g, "");
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding probes

const B64_RE = /^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+={0,2}$/;
const HEX_RE = /^(?:[0-9a-fA-F]{2})+$/;

/** Decodes a string that is pure base64 or hex into text, or returns null. */
export function decodeProbe(s: string): string | null {
  if (s.length < DECODE_PROBE_MIN || s.indexOf(" ") !== -1) return null;
  const t = s.indexOf("\n") === -1 ? s : s.replace(/\s+/g, "");
  if (HEX_RE.test(t)) return Buffer.from(t, "hex").toString("latin1");
  if (B64_RE.test(t) && t.length % 4 !== 1) return Buffer.from(t, "base64").toString("latin1");
  return null;
}

const CODE_HINT =
  /\b(?:require|import|process|eval|Function|constructor|child_process|exec|execSync|spawn|fetch|globalThis|global|module|return|function|const|let|var|new|this|await|async|writeFile|readFile)\b|=>/;

/** True when `s` reads as JavaScript: printable, names a code keyword and parses with a call or member. */
export function looksLikeCode(s: string): boolean {
  if (s.length < 6 || s.length > 200_000) return false;
  let printable = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 10 || c === 13 || c === 9) printable++;
  }
  if (printable < s.length * 0.95) return false;
  if (!CODE_HINT.test(s) || !/[()=;{}.]/.test(s)) return false;
  try {
    const ast = parseSync(s, PARSE_OPTIONS);
    return hasCodeShape(ast);
  } catch {
    return false;
  }
}

function hasCodeShape(node: unknown): boolean {
  if (!node || typeof node !== "object") return false;
  if (Array.isArray(node)) return node.some(hasCodeShape);
  const t = (node as { type?: string }).type;
  if (
    t === "CallExpression" ||
    t === "NewExpression" ||
    t === "MemberExpression" ||
    t === "AssignmentExpression" ||
    t === "FunctionDeclaration" ||
    t === "FunctionExpression" ||
    t === "ArrowFunctionExpression" ||
    t === "VariableDeclaration" ||
    t === "ImportDeclaration"
  )
    return true;
  for (const k in node) {
    if (k === "span") continue;
    const v = (node as Record<string, unknown>)[k];
    if (v && typeof v === "object" && hasCodeShape(v)) return true;
  }
  return false;
}
