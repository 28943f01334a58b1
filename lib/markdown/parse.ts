// A small Markdown parser for skill instructions, written for safety rather than completeness:
// it yields a plain tree (no HTML string ever), raw HTML stays text, and only http(s) and mailto
// links survive. Headings, paragraphs, emphasis, code, lists, quotes, tables and rules are enough
// for instructions; anything else reads as the text it is.

export type Inline =
  | { type: "text"; value: string }
  | { type: "code"; value: string }
  | { type: "em"; children: Inline[] }
  | { type: "strong"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] }
  /** A link whose target is not http(s)/mailto: its text, inert, and the refused target. */
  | { type: "unsafe-link"; target: string; children: Inline[] }
  /** Images are never loaded (no tracking pixels): shown as a link to the image. */
  | { type: "image"; alt: string; href: string | null }
  | { type: "break" };

export type Align = "left" | "center" | "right" | null;

export type Block =
  | { type: "heading"; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { type: "paragraph"; children: Inline[] }
  | { type: "code"; lang: string | null; value: string }
  | { type: "quote"; children: Block[] }
  | { type: "list"; ordered: boolean; start: number; items: Block[][] }
  | { type: "table"; align: Align[]; head: Inline[][]; rows: Inline[][][] }
  | { type: "rule" };

/** Input past this many characters is shown as plain text: the parser's work stays bounded. */
export const MAX_MARKDOWN_CHARS = 200_000;
const MAX_BLOCK_DEPTH = 12;
const MAX_INLINE_DEPTH = 12;

/** The target when it is an absolute http(s) or mailto URL, else null. */
export function safeHref(raw: string): string | null {
  const trimmed = raw.trim();
  // Control characters and whitespace inside a scheme are how "java\nscript:" tricks work.
  if (!trimmed || /[\u0000-\u001f\u007f\s]/.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  if (url.protocol === "mailto:") return trimmed;
  return null;
}

export function parseMarkdown(source: string): Block[] {
  const text = source.replace(/\r\n?/g, "\n");
  if (text.length > MAX_MARKDOWN_CHARS) return [{ type: "code", lang: null, value: text }];
  return parseBlocks(text.split("\n"), 0);
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const BULLET = /^( {0,3})([-*+])([ \t]+)(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})([.)])([ \t]+)(.*)$/;
const TABLE_DELIMITER = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

const isBlank = (line: string) => line.trim() === "";

function listItemStart(line: string): { ordered: boolean; start: number; indent: number; rest: string } | null {
  const b = BULLET.exec(line);
  if (b) return { ordered: false, start: 1, indent: b[1]!.length + 1 + b[3]!.length, rest: b[4]! };
  const o = ORDERED.exec(line);
  if (o) return { ordered: true, start: Number(o[2]), indent: o[1]!.length + o[2]!.length + 1 + o[4]!.length, rest: o[5]! };
  return null;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || listItemStart(line) !== null;
}

function parseBlocks(lines: string[], depth: number): Block[] {
  if (depth > MAX_BLOCK_DEPTH) return [{ type: "paragraph", children: [{ type: "text", value: lines.join("\n") }] }];
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      i++;
      while (i < lines.length) {
        const l = lines[i]!;
        const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(l);
        if (close && close[1]![0] === marker[0] && close[1]!.length >= marker.length) break;
        body.push(l);
        i++;
      }
      i++; // the closing fence (or past the end)
      blocks.push({ type: "code", lang: fence[2] || null, value: body.join("\n") });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ type: "heading", level, children: parseInline(heading[2] ?? "") });
      i++;
      continue;
    }

    if (RULE.test(line)) {
      blocks.push({ type: "rule" });
      i++;
      continue;
    }

    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && !isBlank(lines[i]!)) {
        const q = QUOTE.exec(lines[i]!);
        inner.push(q ? q[1]! : lines[i]!);
        i++;
      }
      blocks.push({ type: "quote", children: parseBlocks(inner, depth + 1) });
      continue;
    }

    const item = listItemStart(line);
    if (item) {
      const list: Block & { type: "list" } = { type: "list", ordered: item.ordered, start: item.start, items: [] };
      while (i < lines.length) {
        const head = listItemStart(lines[i]!);
        if (!head || head.ordered !== list.ordered) break;
        const content = [head.rest];
        i++;
        while (i < lines.length) {
          const l = lines[i]!;
          if (isBlank(l)) {
            // A blank line continues the item only when indented content follows it.
            const next = lines[i + 1];
            if (next !== undefined && !isBlank(next) && indentOf(next) >= head.indent) {
              content.push("");
              i++;
              continue;
            }
            break;
          }
          if (indentOf(l) >= head.indent) {
            content.push(l.slice(head.indent));
            i++;
            continue;
          }
          if (listItemStart(l) || startsBlock(l)) break;
          content.push(l.trim()); // a lazy continuation of the item's paragraph
          i++;
        }
        list.items.push(parseBlocks(content, depth + 1));
        // Blank lines between items keep the list going.
        let j = i;
        while (j < lines.length && isBlank(lines[j]!)) j++;
        const nextHead = j < lines.length ? listItemStart(lines[j]!) : null;
        if (!nextHead || nextHead.ordered !== list.ordered) break;
        i = j;
      }
      blocks.push(list);
      continue;
    }

    if (line.includes("|") && i + 1 < lines.length && TABLE_DELIMITER.test(lines[i + 1]!) && lines[i + 1]!.includes("-")) {
      const head = splitRow(line);
      const align = splitRow(lines[i + 1]!).map((cell): Align => {
        const c = cell.trim();
        if (c.startsWith(":") && c.endsWith(":")) return "center";
        if (c.endsWith(":")) return "right";
        if (c.startsWith(":")) return "left";
        return null;
      });
      if (align.length === head.length) {
        i += 2;
        const rows: Inline[][][] = [];
        while (i < lines.length && !isBlank(lines[i]!) && lines[i]!.includes("|")) {
          const cells = splitRow(lines[i]!);
          rows.push(head.map((_, k) => parseInline((cells[k] ?? "").trim())));
          i++;
        }
        blocks.push({ type: "table", align, head: head.map((c) => parseInline(c.trim())), rows });
        continue;
      }
    }

    if (/^(?: {4}|\t)/.test(line)) {
      const body: string[] = [];
      while (i < lines.length && (/^(?: {4}|\t)/.test(lines[i]!) || isBlank(lines[i]!))) {
        body.push(lines[i]!.replace(/^(?: {4}|\t)/, ""));
        i++;
      }
      while (body.length && isBlank(body.at(-1)!)) body.pop();
      blocks.push({ type: "code", lang: null, value: body.join("\n") });
      continue;
    }

    const para: string[] = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i]!) && !startsBlock(lines[i]!)) {
      para.push(lines[i]!.trim());
      i++;
    }
    blocks.push({ type: "paragraph", children: parseInline(para.join("\n")) });
  }
  return blocks;
}

function indentOf(line: string): number {
  return /^[ ]*/.exec(line.replace(/\t/g, "    "))![0].length;
}

/** Cells of a table row, split on `|` that is neither escaped nor inside a code span. */
function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  let inCode = false;
  for (let k = 0; k < s.length; k++) {
    const ch = s[k]!;
    if (ch === "\\" && s[k + 1] === "|") {
      cell += "|";
      k++;
    } else if (ch === "`") {
      inCode = !inCode;
      cell += ch;
    } else if (ch === "|" && !inCode) {
      cells.push(cell);
      cell = "";
    } else {
      cell += ch;
    }
  }
  cells.push(cell);
  return cells;
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;

export function parseInline(text: string, depth = 0): Inline[] {
  if (depth > MAX_INLINE_DEPTH) return [{ type: "text", value: text }];
  const out: Inline[] = [];
  let buffer = "";
  const flush = () => {
    if (buffer) out.push({ type: "text", value: buffer });
    buffer = "";
  };
  // Once a search for a closing delimiter fails, it fails for every later start too: remembering
  // that keeps a text full of lone `*` linear instead of quadratic.
  const noCloser = new Set<string>();
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;

    if (ch === "\\" && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === "\n") {
        flush();
        out.push({ type: "break" });
        i += 2;
        continue;
      }
      if (PUNCTUATION.test(next)) {
        buffer += next;
        i += 2;
        continue;
      }
    }

    if (ch === "`") {
      const run = /^`+/.exec(text.slice(i))![0];
      const close = findCodeClose(text, i + run.length, run.length);
      if (close >= 0) {
        flush();
        let value = text.slice(i + run.length, close).replace(/\n/g, " ");
        if (/^ .* $/.test(value) && value.trim()) value = value.slice(1, -1);
        out.push({ type: "code", value });
        i = close + run.length;
        continue;
      }
      buffer += run;
      i += run.length;
      continue;
    }

    if (ch === "!" && text[i + 1] === "[") {
      const link = readLink(text, i + 1);
      if (link) {
        flush();
        out.push({ type: "image", alt: link.label, href: safeHref(link.target) });
        i = link.end;
        continue;
      }
    }

    if (ch === "[") {
      const link = readLink(text, i);
      if (link) {
        flush();
        const children = parseInline(link.label, depth + 1);
        const href = safeHref(link.target);
        out.push(href ? { type: "link", href, children } : { type: "unsafe-link", target: link.target, children });
        i = link.end;
        continue;
      }
    }

    if (ch === "<") {
      const auto = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(text.slice(i, i + 2048));
      if (auto) {
        const href = safeHref(auto[1]!);
        if (href) {
          flush();
          out.push({ type: "link", href, children: [{ type: "text", value: auto[1]! }] });
          i += auto[0].length;
          continue;
        }
      }
    }

    if (ch === "*" || ch === "_") {
      const run = ch === "*" ? /^\*+/.exec(text.slice(i))![0].length : /^_+/.exec(text.slice(i))![0].length;
      const before = text[i - 1] ?? " ";
      const after = text[i + run] ?? " ";
      // An opener is followed by non-space; `_` inside a word (snake_case) is never emphasis.
      const canOpen = !/\s/.test(after) && !(ch === "_" && /[\p{L}\p{N}]/u.test(before));
      if (canOpen) {
        const strong = run >= 2 ? findEmphasisClose(text, i + 2, ch, 2, noCloser) : -1;
        if (strong >= 0) {
          flush();
          out.push({ type: "strong", children: parseInline(text.slice(i + 2, strong), depth + 1) });
          i = strong + 2;
          continue;
        }
        const em = findEmphasisClose(text, i + 1, ch, 1, noCloser);
        if (em >= 0) {
          flush();
          out.push({ type: "em", children: parseInline(text.slice(i + 1, em), depth + 1) });
          i = em + 1;
          continue;
        }
      }
      buffer += ch.repeat(run);
      i += run;
      continue;
    }

    if (ch === "\n") {
      if (buffer.endsWith("  ")) {
        buffer = buffer.replace(/ +$/, "");
        flush();
        out.push({ type: "break" });
      } else {
        buffer += "\n";
      }
      i++;
      continue;
    }

    buffer += ch;
    i++;
  }
  flush();
  return out;
}

function findCodeClose(text: string, from: number, length: number): number {
  let k = from;
  while (k < text.length) {
    const next = text.indexOf("`", k);
    if (next < 0) return -1;
    const run = /^`+/.exec(text.slice(next))![0].length;
    if (run === length) return next;
    k = next + run;
  }
  return -1;
}

/** Index of the closing run of exactly `size` `ch` (after non-space), skipping other runs. */
function findEmphasisClose(text: string, from: number, ch: string, size: number, noCloser: Set<string>): number {
  const memo = `${ch}${size}`;
  if (noCloser.has(memo)) return -1;
  let k = from;
  while (k < text.length) {
    const next = text.indexOf(ch, k);
    if (next < 0) break;
    let run = 1;
    while (text[next + run] === ch) run++;
    const before = text[next - 1] ?? " ";
    const after = text[next + run] ?? " ";
    const closes = next > from && !/\s/.test(before) && !(ch === "_" && /[\p{L}\p{N}]/u.test(after));
    // `**` inside `*…*` is a nested strong, not our closer; a longer run closes at its end.
    if (closes && (run === size || (size === 2 && run > 2) || (size === 1 && run >= 3))) return next + run - size;
    k = next + run;
  }
  noCloser.add(memo);
  return -1;
}

/** `[label](target "title")` starting at `start` (the `[`), or null. */
function readLink(text: string, start: number): { label: string; target: string; end: number } | null {
  let depth = 0;
  let k = start;
  for (; k < text.length; k++) {
    const ch = text[k];
    if (ch === "\\") {
      k++;
      continue;
    }
    if (ch === "[") depth++;
    else if (ch === "]" && --depth === 0) break;
  }
  if (k >= text.length || text[k + 1] !== "(") return null;
  const close = text.indexOf(")", k + 2);
  if (close < 0) return null;
  const inside = text.slice(k + 2, close).trim();
  const target = /^<([^>]*)>/.exec(inside)?.[1] ?? inside.split(/\s+/)[0] ?? "";
  return { label: text.slice(start + 1, k), target, end: close + 1 };
}
