// Encoded text: base64, hex, `\x` escapes and character-code lists that may hide a command. Each
// is decoded within the audit's budget; decoded text is read like any other text, and decoded
// bytes that are a program (ELF, Mach-O, PE, a compressed archive) fail closed. Linear scans.
import { deeper, type Ctx } from "./context";
import type { Lang } from "./markdown-extract";
import { makeFinding, type Place } from "./rules";

/** Literals shorter than this are words, hashes' prefixes and the like, not hidden commands. */
const MIN_BASE64 = 20;
const MIN_HEX = 16;
const LITERAL_MAX = 64 * 1024;

const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,65536}={0,2}/g;
const HEX_RUN = /(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,32768}(?![0-9A-Fa-f])/g;
const ESCAPE_RUN = /(?:\\x[0-9A-Fa-f]{2}|\\u00[0-9A-Fa-f]{2}|\\[0-7]{3}){4,16384}/g;
const CODE_LIST = /(?:\b(?:chr|char|\[char\])\s*\(?\s*\d{1,3}\s*\)?\s*[+,]\s*){4,8192}/gi;
const NUMBER_LIST = /\[\s*(?:\d{1,3}\s*,\s*){4,16384}\d{1,3}\s*\]/g;
/**
 * What every one of the five patterns above starts with: text without it holds no literal to decode.
 * A run is tried only where it starts, so a text of 15-character words is read once, not 15 times.
 */
const ANY_LITERAL =
  /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16}|\\(?:x[0-9A-Fa-f]{2}|u00[0-9A-Fa-f]{2}|[0-7]{3})|(?:chr|char)\]?\s*\(?\s*\d|\[\s*\d{1,3}\s*,/i;

/** Decodes standard or URL-safe base64 strictly; null when it is not base64. */
export function decodeBase64(s: string): Buffer | null {
  const t = s.replace(/\s+/g, "");
  if (t.length < MIN_BASE64 || t.length > LITERAL_MAX || t.length % 4 === 1) return null;
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return null;
  // a run of one case or of only letters is a word or an identifier, not base64
  if (!/[0-9+/=_-]/.test(t) && !(/[a-z]/.test(t) && /[A-Z]/.test(t))) return null;
  return Buffer.from(t.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

export function decodeHex(s: string): Buffer | null {
  if (s.length < MIN_HEX || s.length % 2 || s.length > LITERAL_MAX) return null;
  return Buffer.from(s, "hex");
}

function decodeEscapes(s: string): Buffer {
  const bytes: number[] = [];
  for (const m of s.matchAll(/\\x([0-9A-Fa-f]{2})|\\u00([0-9A-Fa-f]{2})|\\([0-7]{3})/g)) {
    bytes.push(m[1] ? parseInt(m[1], 16) : m[2] ? parseInt(m[2], 16) : parseInt(m[3]!, 8) & 0xff);
  }
  return Buffer.from(bytes);
}

const numbersIn = (s: string) => Buffer.from([...s.matchAll(/\d{1,3}/g)].map((m) => Number(m[0]) & 0xff));

/** Printable UTF-8 text (tabs and newlines allowed), or null for binary. */
export function asText(bytes: Buffer): string | null {
  const text = bytes.toString("utf8");
  if (text.includes("\uFFFD")) return null;
  let printable = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 32 || c === 9 || c === 10 || c === 13) printable++;
  }
  return printable >= text.length * 0.95 ? text : null;
}

/** Bytes that are a program or an archive: nobody can read what they would do. */
export function isOpaqueProgram(bytes: Buffer): boolean {
  if (bytes.length < 4) return false;
  const h = bytes.subarray(0, 4).toString("hex");
  return (
    h === "7f454c46" || // ELF
    h.startsWith("4d5a") || // PE
    ["feedface", "feedfacf", "cefaedfe", "cffaedfe", "cafebabe"].includes(h) || // Mach-O, fat
    h.startsWith("1f8b") || // gzip
    h === "504b0304" || // zip
    h.startsWith("425a68") || // bzip2
    h === "fd377a58" // xz
  );
}

/** Looks like a command or code, so the decoded text is worth reading as one. */
function guessDecoded(text: string): Lang {
  if (/^\s*(?:import |from \S+ import |exec\(|eval\()/m.test(text)) return "python";
  if (/\b(?:Invoke-|iex\b|IEX\b|New-Object|\$env:)/.test(text)) return "powershell";
  return "shell";
}

/**
 * Every encoded literal in `text`, decoded and audited within the budget. `executed` says the
 * text itself runs what it decodes (a decoder piped into a shell, exec of b64decode): then bytes
 * that are not readable text fail closed, and so does text the budget leaves unread.
 */
export function auditEncodedLiterals(text: string, place: Place, ctx: Ctx, executed = false): void {
  if (text.length > LITERAL_MAX * 2 || !ANY_LITERAL.test(text)) return;
  const pieces: { bytes: Buffer; raw: string }[] = [];
  for (const m of text.matchAll(BASE64_RUN)) {
    const b = decodeBase64(m[0]);
    if (b) pieces.push({ bytes: b, raw: m[0] });
  }
  for (const m of text.matchAll(HEX_RUN)) {
    const b = decodeHex(m[0]);
    if (b) pieces.push({ bytes: b, raw: m[0] });
  }
  for (const m of text.matchAll(ESCAPE_RUN)) pieces.push({ bytes: decodeEscapes(m[0]), raw: m[0] });
  for (const m of text.matchAll(CODE_LIST)) pieces.push({ bytes: numbersIn(m[0]), raw: m[0] });
  for (const m of text.matchAll(NUMBER_LIST)) pieces.push({ bytes: numbersIn(m[0]), raw: m[0] });
  for (const p of pieces) auditDecoded(p.bytes, p.raw, place, ctx, executed);
}

/** Audits one decoded value like plain text (fails closed for unreadable executed bytes). */
export function auditDecoded(bytes: Buffer, raw: string, place: Place, ctx: Ctx, executed: boolean): void {
  if (isOpaqueProgram(bytes)) {
    ctx.findings.push(makeFinding("encoded.opaque", place, raw));
    return;
  }
  const text = asText(bytes);
  if (text === null) {
    if (executed) ctx.findings.push(makeFinding("encoded.opaque", place, raw));
    return;
  }
  if (text.length > ctx.decodeBudget) {
    if (executed) ctx.findings.push(makeFinding("encoded.opaque", place, raw));
    return;
  }
  ctx.decodeBudget -= text.length;
  const before = ctx.findings.length;
  const ran = deeper(ctx, () => ctx.audit(guessDecoded(text), text, place, ctx));
  if (!ran && executed) ctx.findings.push(makeFinding("encoded.opaque", place, raw));
  for (let i = before; i < ctx.findings.length; i++) {
    const f = ctx.findings[i]!;
    if (!f.excerpt.startsWith("decoded: ")) f.excerpt = `decoded: ${f.excerpt}`;
  }
}
