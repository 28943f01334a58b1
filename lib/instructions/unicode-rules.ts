// Invisible characters that hide text from the person while the agent still reads it: the Unicode
// tag block (U+E0000–E007F), zero-width characters and bidirectional controls. One pass, linear.
// A zero-width joiner between emoji, or a joiner/non-joiner inside a script that needs it (Persian,
// Indic), is ordinary writing and passes.
import { makeFinding, type AuditFinding, type Place } from "./rules";

const ZERO_WIDTH = new Set([0x200b, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x180e, 0xfeff]);
const JOINERS = new Set([0x200c, 0x200d]);
const BIDI = new Set([0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
const NEEDS_JOINER =
  /[\p{Extended_Pictographic}\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Malayalam}\p{Script=Sinhala}\p{Emoji_Modifier}\uFE0F]/u;

const ANY_CANDIDATE = /[\u180e\u200b-\u200d\u202a-\u202e\u2060-\u2069\ufeff\u{e0000}-\u{e007f}]/u;
const CANDIDATE = new RegExp(ANY_CANDIDATE.source, "gu");

export function hiddenUnicodeFindings(text: string, place: Place): AuditFinding[] {
  if (!ANY_CANDIDATE.test(text)) return [];
  let line = 0;
  let lineStart = 0;
  let nextNewline = text.indexOf("\n");
  const lines = new Set<number>();
  const out: AuditFinding[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    const i = m.index;
    while (nextNewline !== -1 && nextNewline < i) {
      line++;
      lineStart = nextNewline + 1;
      nextNewline = text.indexOf("\n", lineStart);
    }
    if (lines.has(line)) continue;
    const c = text.charCodeAt(i);
    let hidden = c === 0xdb40 || BIDI.has(c);
    if (ZERO_WIDTH.has(c)) hidden = !(c === 0xfeff && i === 0);
    else if (JOINERS.has(c))
      hidden = !(NEEDS_JOINER.test(text.slice(Math.max(0, i - 2), i)) || NEEDS_JOINER.test(text.slice(i + 1, i + 3)));
    if (hidden) {
      lines.add(line);
      const shown = text
        .slice(lineStart, nextNewline === -1 ? undefined : nextNewline)
        .replace(/[\u180e\u200b-\u200d\u202a-\u202e\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g, "⟨hidden⟩");
      out.push(makeFinding("unicode.hidden", place, shown, line));
      if (out.length >= 20) break;
    }
  }
  return out;
}
