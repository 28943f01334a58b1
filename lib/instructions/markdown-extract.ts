// Markdown to the texts the audit reads, with markdown-it (the renderer's library): fenced and
// indented code by language (the info string, or a guess from the content when untagged), inline
// code, prose blocks, HTML comments, link targets and titles, each with the line it starts on, and
// whether the prose around it teaches about attacks (so a quoted attack is flagged, not failed).
import markdownIt, { type Token } from "markdown-it";
import { MAX_MARKDOWN_LINES } from "../markdown/render";

export type Lang = "shell" | "python" | "powershell" | "js" | "dockerfile" | "text";
export type Segment = {
  kind: "prose" | "code";
  lang: Lang;
  text: string;
  /** 1-based line of the resource the text starts on. */
  line: number;
  /** The text or the heading and paragraph before it speak of attacks (teaching material). */
  teaching: boolean;
  /** Inline code inside a sentence, rather than a block the person is told to paste. */
  inline?: boolean;
};

const md = markdownIt({ html: true, linkify: false });
md.inline.ruler.disable(["emphasis", "strikethrough"]);

const INFO: Record<string, Lang> = {
  sh: "shell",
  bash: "shell",
  shell: "shell",
  zsh: "shell",
  console: "shell",
  terminal: "shell",
  "shell-session": "shell",
  "sh-session": "shell",
  ksh: "shell",
  fish: "shell",
  shellscript: "shell",
  py: "python",
  python: "python",
  python3: "python",
  py3: "python",
  ipython: "python",
  pycon: "python",
  ps: "powershell",
  ps1: "powershell",
  powershell: "powershell",
  pwsh: "powershell",
  posh: "powershell",
  bat: "powershell",
  cmd: "powershell",
  batch: "powershell",
  js: "js",
  javascript: "js",
  mjs: "js",
  cjs: "js",
  node: "js",
  jsx: "js",
  dockerfile: "dockerfile",
  docker: "dockerfile",
  containerfile: "dockerfile",
};
const OTHER_LANGS = new Set([
  "json",
  "yaml",
  "yml",
  "toml",
  "xml",
  "html",
  "css",
  "csv",
  "sql",
  "diff",
  "ini",
  "markdown",
  "md",
  "go",
  "rust",
  "java",
  "c",
  "cpp",
  "ts",
  "typescript",
  "tsx",
  "ruby",
  "swift",
  "kotlin",
  "graphql",
  "mermaid",
]);

const TEACHING =
  /\b(?:malicious|attack(?:er|ers|s)?|malware|infostealer|red[- ]flags?|phishing|suspicious|exploit(?:s|ed)?|prompt[- ]injection|never (?:run|execute|paste)|scam)\b/i;

/** The texts of one Markdown document. `firstLine` is where the document starts in its resource. */
export function extractMarkdown(source: string, firstLine = 1): Segment[] {
  const text = source.replace(/\r\n?/g, "\n");
  let parsed = text;
  let rest = "";
  const cut = nthNewline(text, MAX_MARKDOWN_LINES);
  if (cut !== -1) {
    parsed = text.slice(0, cut);
    rest = text.slice(cut + 1);
  }
  const tokens = md.parse(parsed, {});
  const out: Segment[] = [];
  // whether the current heading and the paragraph before speak of attacks
  let heading = false;
  let previous = false;
  let quoteDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const line = firstLine + (t.map?.[0] ?? 0);
    if (t.type === "blockquote_open") quoteDepth++;
    else if (t.type === "blockquote_close") quoteDepth = Math.max(0, quoteDepth - 1);
    else if (t.type === "heading_open") {
      heading = TEACHING.test(tokens[i + 1]?.content ?? "");
      previous = false;
    } else if (t.type === "fence" || t.type === "code_block") {
      const info = t.type === "fence" ? t.info.trim().split(/\s+/)[0]!.toLowerCase() : "";
      const lang = INFO[info] ?? (OTHER_LANGS.has(info) ? "text" : guessLang(t.content));
      const bodyLine = line + (t.type === "fence" ? 1 : 0);
      out.push({ kind: "code", lang, text: t.content, line: bodyLine, teaching: heading || previous });
    } else if (t.type === "html_block") {
      out.push(prose(htmlText(t.content), line, heading || previous));
    } else if (t.type === "inline") {
      const own = inlineSegments(t);
      const sentence = own.prose;
      const speaks = TEACHING.test(sentence);
      const teaching = heading || previous || speaks || quoteDepth > 0;
      out.push({ kind: "prose", lang: "text", text: sentence, line, teaching: speaks });
      for (const c of own.code) out.push({ kind: "code", lang: guessInline(c), text: c, line, teaching, inline: true });
      for (const x of own.extra) out.push(prose(x, line, heading || previous));
      previous = sentence.length <= 2000 ? speaks : TEACHING.test(sentence.slice(0, 2000));
    }
  }
  if (rest)
    out.push({ kind: "prose", lang: "text", text: rest, line: firstLine + MAX_MARKDOWN_LINES, teaching: false });
  return out;
}

function prose(text: string, line: number, around: boolean): Segment {
  return { kind: "prose", lang: "text", text, line, teaching: around || TEACHING.test(text) };
}

function inlineSegments(t: Token): { prose: string; code: string[]; extra: string[] } {
  const parts: string[] = [];
  const code: string[] = [];
  const extra: string[] = [];
  for (const c of t.children ?? []) {
    if (c.type === "text") parts.push(c.content);
    else if (c.type === "softbreak" || c.type === "hardbreak") parts.push("\n");
    else if (c.type === "code_inline") {
      code.push(c.content);
      parts.push("`" + c.content + "`");
    } else if (c.type === "link_open" || c.type === "image") {
      const href = c.attrGet("href") ?? c.attrGet("src");
      const title = c.attrGet("title");
      if (href) extra.push(String(href));
      if (title) extra.push(String(title));
      if (c.type === "image" && c.content) parts.push(c.content);
    } else if (c.type === "html_inline") extra.push(htmlText(c.content));
  }
  return { prose: parts.join(""), code, extra };
}

/** HTML's text for the audit: comment bodies included, tags kept (they may hold URLs). */
function htmlText(html: string): string {
  return html.replace(/<!--|-->/g, " ");
}

const SHELL_START =
  /^\s*(?:\$ |% |# )?(?:sudo|curl|wget|npm|npx|pnpm|yarn|pip3?|uv|pipx|brew|apt(?:-get)?|dnf|yum|bash|sh|zsh|echo|printf|cd|git|chmod|chown|export|source|docker|rm|mkdir|cat|ls|cp|mv|tar|unzip|xattr|spctl|osascript|crontab|launchctl|systemctl|base64|eval|nc|ncat|go|cargo|make|python3?|node|deno|bun|gh|kubectl|open|ssh|scp)\b/m;
const PYTHON_HINT = /^\s*(?:import \w|from [\w.]+ import |def \w+\(|class \w+[(:]|print\(|if __name__)/m;
const PS_HINT =
  /\b(?:Invoke-(?:Expression|WebRequest|RestMethod)|iex|iwr|irm|New-Object|Start-Process|Set-MpPreference|Get-ChildItem|\$env:\w+|-EncodedCommand)\b/i;
const JS_HINT = /^\s*(?:const |let |var |import .+ from |require\(|console\.log\(|function \w+\(|export )/m;

/** The language of an untagged block, from its content. */
export function guessLang(code: string): Lang {
  const head = code.slice(0, 4096);
  if (PS_HINT.test(head)) return "powershell";
  if (PYTHON_HINT.test(head)) return "python";
  if (JS_HINT.test(head)) return "js";
  if (SHELL_START.test(head)) return "shell";
  return "text";
}

function guessInline(code: string): Lang {
  const g = guessLang(code);
  return g === "text" && /[|;&>]|\$\(/.test(code) ? "shell" : g;
}

function nthNewline(text: string, n: number): number {
  let at = -1;
  for (let line = 0; line < n; line++) {
    at = text.indexOf("\n", at + 1);
    if (at === -1) return -1;
  }
  return at;
}
