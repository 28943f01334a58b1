// The instruction audit: a skill's instructions, front matter, Markdown resources and every script
// resource that is not a declared tool, each read with its own parser, on the code scanner's
// verdict scale and finding shape. It also says, in plain words, what the texts ask the agent to do.
import { parseDocument } from "yaml";
import { scanCode } from "../scan";
import { verdictOf, type Verdict } from "../scan/rules";
import { FRONT_MATTER_MAX_CHARS } from "../registry/skill-md-front-matter";
import { newCtx, type AskKind, type Ctx } from "./context";
import { auditEncodedLiterals } from "./encoded";
import { extractMarkdown, guessLang, type Lang } from "./markdown-extract";
import { auditPowerShell } from "./powershell-rules";
import { archiveScamFindings, proseFindings } from "./prose-rules";
import { auditJsKeys } from "./js-key-rules";
import { auditPython } from "./python-rules";
import { dedupe, makeFinding, type AuditFinding, type Place } from "./rules";
import { auditOnce } from "./segment-memo";
import { auditShell } from "./shell-rules";
import { textFindings } from "./text-rules";
import { hiddenUnicodeFindings } from "./unicode-rules";

export { loadInstructionParsers } from "./parsers";

export type InstructionInput = {
  /** The instructions (SKILL.md's body), reported as `instructionsResource`. */
  instructions: string;
  instructionsResource?: string;
  /** Where the body starts in that resource (after the front matter). */
  instructionsLine?: number;
  /** SKILL.md's front matter (YAML), when the skill has one. */
  frontMatter?: string | null;
  resources: readonly { name: string; text: string }[];
  /** Resources that are declared tools: the code scanner reads those. */
  toolEntries?: ReadonlySet<string>;
};

export type ScriptAudit = { name: string; verdict: Verdict; findings: AuditFinding[] };

export type InstructionAudit = {
  verdict: Verdict;
  findings: AuditFinding[];
  /** What the skill asks the agent to do, in plain words, in a stable order. */
  asks: string[];
  /** Bundled scripts that would run on the person's own machine, outside any sandbox. */
  scripts: ScriptAudit[];
};

const SCRIPT_LANG: Record<string, Lang> = {
  sh: "shell",
  bash: "shell",
  zsh: "shell",
  ps1: "powershell",
  py: "python",
  js: "js",
  mjs: "js",
  cjs: "js",
};
/** The code scanner's rules that matter for a script on the person's machine, and for a fence in prose. */
const JS_RULES_KEPT = new Set(["payload.code", "payload.encoded", "code.eval", "code.minified"]);
const JS_FENCE_RULES_KEPT = new Set(["payload.code", "payload.encoded"]);

export const ASK_WORDS: Record<AskKind, string> = {
  shell: "run shell commands",
  install: "download and install software",
  download_run: "run programs it downloads",
  admin: "use administrator rights",
  network: "use the internet",
  files: "read and change your files",
  secrets: "read passwords, keys or other secrets",
};
const ASK_ORDER: AskKind[] = ["shell", "install", "download_run", "admin", "network", "files", "secrets"];

export const scriptLangOf = (name: string): Lang | null =>
  SCRIPT_LANG[name.slice(name.lastIndexOf(".") + 1).toLowerCase()] ?? null;
const isMarkdown = (name: string) => /\.(?:md|markdown)$/i.test(name);

/** Audits one skill. `loadInstructionParsers()` must have finished first. */
export function auditInstructions(input: InstructionInput): InstructionAudit {
  const ctx = newCtx(auditText);
  const where = input.instructionsResource ?? "instructions";
  const extraAsks: string[] = [];
  if (input.frontMatter) frontMatter(input.frontMatter, { resource: where, line: 2 }, ctx, extraAsks);
  auditMarkdown(input.instructions, { resource: where, line: input.instructionsLine ?? 1 }, ctx);
  const scripts: ScriptAudit[] = [];
  for (const r of input.resources) {
    if (input.toolEntries?.has(r.name) || r.name === "SKILL.md") continue;
    const place = { resource: r.name, line: 1 };
    const lang = scriptLangOf(r.name);
    if (lang) {
      const before = ctx.findings.length;
      ctx.findings.push(...hiddenUnicodeFindings(r.text, place));
      auditText(lang, r.text, place, ctx);
      const own = dedupe(ctx.findings.slice(before));
      scripts.push({ name: r.name, verdict: verdictOf(own), findings: own });
    } else if (isMarkdown(r.name)) auditMarkdown(r.text, place, ctx);
    else {
      ctx.findings.push(...hiddenUnicodeFindings(r.text, place), ...textFindings(r.text, place, { code: false }));
      auditEncodedLiterals(r.text, place, ctx);
    }
  }
  const findings = dedupe(ctx.findings).sort((a, b) =>
    a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : a.line - b.line,
  );
  const asks = [...ASK_ORDER.filter((k) => ctx.asks.has(k)).map((k) => ASK_WORDS[k]), ...extraAsks];
  return { verdict: verdictOf(findings), findings, asks: [...new Set(asks)], scripts };
}

function auditMarkdown(text: string, place: Place, ctx: Ctx): void {
  ctx.findings.push(...hiddenUnicodeFindings(text, place));
  const prose: string[] = [];
  for (const s of extractMarkdown(text, place.line)) {
    const at = { resource: place.resource, line: s.line };
    if (s.kind === "prose") prose.push(s.text);
    auditOnce(ctx, `${s.kind}\u0000${s.lang}\u0000${s.teaching}\u0000${s.text}`, at, () => {
      const before = ctx.findings.length;
      if (s.kind === "code") auditText(s.lang, s.text, at, ctx);
      else {
        ctx.findings.push(...proseFindings(s.text, at, s.teaching), ...textFindings(s.text, at, { code: false }));
        commandsInProse(s.text, at, ctx);
        auditEncodedLiterals(s.text, at, ctx);
      }
      if (s.teaching) downgrade(ctx.findings, before);
    });
  }
  ctx.findings.push(...archiveScamFindings(prose.join("\n"), place));
}

/** A quoted attack in teaching material is flagged, not failed; hidden characters never are. */
function downgrade(findings: AuditFinding[], from: number): void {
  for (let i = from; i < findings.length; i++) {
    const f = findings[i]!;
    if (
      f.severity !== "fail" ||
      f.rule === "unicode.hidden" ||
      f.rule === "host.confusable" ||
      f.rule.startsWith("encoded.")
    )
      continue;
    findings[i] = {
      ...f,
      severity: "flag",
      message: `quotes, as an example, a command that ${f.message.replace(/^asks to /, "would ")} (teaching material)`,
    };
  }
}

const PROSE_COMMAND =
  /\b(?:curl|wget|bash|sudo|base64|iwr|irm|iex|invoke-expression|powershell|osascript|xattr|spctl|crontab|launchctl|nc|ncat|eval|chmod|rm|pip3?|npm|npx|python3?)\s/i;

const PROSE_COMMAND_SIGN = /[|>;]|&&|\$\(/;

/** A command written into a sentence ("Run curl … | bash first") is still a command. */
function commandsInProse(text: string, place: Place, ctx: Ctx): void {
  if (!PROSE_COMMAND.test(text) || !PROSE_COMMAND_SIGN.test(text)) return;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && i < 400; i++) {
    const line = lines[i]!.slice(0, 2048);
    const m = PROSE_COMMAND.exec(line);
    if (!m || !PROSE_COMMAND_SIGN.test(line.slice(m.index))) continue;
    // "… | bash in your terminal": the words after the interpreter are the sentence, not its script
    const command = line
      .slice(m.index)
      .replace(/[`*]/g, "")
      .replace(
        /(\|\s*(?:sudo\s+)?(?:(?:ba|z|da|k)?sh|python3?|perl|ruby|node))((?:\s+-\S*)*)\s+[A-Za-z][^|;&]{0,300}$/,
        "$1$2",
      );
    const lang = /^(?:iwr|irm|iex|invoke-expression|powershell)/i.test(command) ? "powershell" : "shell";
    if (lang === "powershell") auditPowerShell(command, { resource: place.resource, line: place.line + i }, ctx);
    else auditShell(command, { resource: place.resource, line: place.line + i }, ctx, { asks: false });
  }
}

function auditText(lang: Lang, text: string, place: Place, ctx: Ctx): void {
  const code = lang !== "text";
  ctx.findings.push(...textFindings(text, place, { code }));
  if (lang === "shell") auditShell(text, place, ctx);
  else if (lang === "python") auditPython(text, place, ctx);
  else if (lang === "powershell") auditPowerShell(text, place, ctx);
  else if (lang === "dockerfile") {
    const run = text
      .split("\n")
      .map((l) => (/^\s*RUN\s/i.test(l) ? l.replace(/^\s*RUN\s+/i, "") : ""))
      .join("\n");
    auditShell(run, place, ctx);
  } else if (lang === "js") auditJs(text, place, ctx);
  else {
    const guessed = guessLang(text);
    if (guessed !== "text") return auditText(guessed, text, place, ctx);
  }
  if (lang !== "powershell") auditEncodedLiterals(text, place, ctx);
}

const JS_STRING = /(["'`])((?:\\.|(?!\1)[^\\\n]){8,2000})\1/g;

function auditJs(text: string, place: Place, ctx: Ctx): void {
  // a whole script starts at line 1; a fence in Markdown is an example in prose
  const kept = place.line === 1 && scriptLangOf(place.resource) === "js" ? JS_RULES_KEPT : JS_FENCE_RULES_KEPT;
  for (const f of scanCode({ code: text, resource: place.resource, tool: { net: "public" } })) {
    if (!kept.has(f.rule)) continue;
    // a vendored minified library in a skill is unreadable, not hostile: flagged for a script
    const severity = f.rule === "code.minified" ? "flag" : f.severity;
    ctx.findings.push({ ...f, severity, line: f.line + place.line - 1 });
  }
  auditJsKeys(text, place, ctx);
  if (/\b(?:child_process|execSync|spawnSync|exec\(|spawn\()/.test(text)) ctx.asks.add("shell");
  const envDump =
    /JSON\.stringify\(\s*process\.env\s*\)|\.\.\.process\.env\b|Object\.(?:entries|keys|values|assign)\(\s*(?:\{\}\s*,\s*)?process\.env\s*\)/.exec(
      text,
    );
  if (
    envDump &&
    /\b(?:fetch|axios|https?\.request|got|request|XMLHttpRequest|WebSocket)\s*[.(]/.test(text) &&
    !/\benv\s*:\s*\{\s*\.\.\.process\.env/.test(text)
  ) {
    ctx.findings.push(makeFinding("env.exfil", place, envDump[0], countLines(text, envDump.index)));
  }
  for (const m of text.slice(0, 64 * 1024).matchAll(JS_STRING)) {
    const s = m[2]!;
    if (guessLang(s) === "shell" && /[|;&>]|\$\(/.test(s)) {
      const line = place.line + countLines(text, m.index);
      auditShell(s.replace(/\\n/g, "\n"), { resource: place.resource, line }, ctx, { asks: false });
    }
  }
}

function countLines(text: string, index: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

const TOOL_ASKS: [RegExp, AskKind][] = [
  [/^(?:bash|shell|terminal|run_terminal_cmd|exec|computer)\b/i, "shell"],
  [/^(?:write|edit|multiedit|notebookedit|str_replace|create_file)\b/i, "files"],
  [/^(?:read|glob|grep|ls)\b/i, "files"],
  [/^(?:webfetch|websearch|fetch|browser)\b/i, "network"],
];

/** Front matter: its words are audited like prose; `allowed-tools` and OpenClaw's `requires` say what it asks for. */
function frontMatter(yaml: string, place: Place, ctx: Ctx, extra: string[]): void {
  const text = yaml.slice(0, FRONT_MATTER_MAX_CHARS);
  ctx.findings.push(
    ...hiddenUnicodeFindings(text, place),
    ...proseFindings(text, place, false),
    ...textFindings(text, place, { code: false }),
  );
  commandsInProse(text, place, ctx);
  auditEncodedLiterals(text, place, ctx);
  let data: unknown;
  try {
    data = parseDocument(text, { uniqueKeys: false, prettyErrors: false }).toJS({ maxAliasCount: 0 });
  } catch {
    return;
  }
  if (!data || typeof data !== "object") return;
  const fm = data as Record<string, unknown>;
  const tools = fm["allowed-tools"];
  const list =
    typeof tools === "string"
      ? tools.split(/[\s,]+/)
      : Array.isArray(tools)
        ? tools.filter((t): t is string => typeof t === "string")
        : [];
  for (const t of list.slice(0, 100)) for (const [re, kind] of TOOL_ASKS) if (re.test(t.trim())) ctx.asks.add(kind);
  const meta = fm.metadata;
  const openclaw =
    meta && typeof meta === "object"
      ? ((meta as Record<string, unknown>).openclaw ?? (meta as Record<string, unknown>).clawdbot)
      : undefined;
  const requires =
    openclaw && typeof openclaw === "object" ? (openclaw as Record<string, unknown>).requires : undefined;
  if (!requires || typeof requires !== "object") return;
  const req = requires as Record<string, unknown>;
  const names = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === "string").slice(0, 12) : [];
  const bins = [...names(req.bins), ...names(req.anyBins)];
  if (bins.length) {
    ctx.asks.add("shell");
    extra.push(`use the programs ${bins.join(", ")}`);
  }
  const env = names(req.env);
  if (env.length) {
    ctx.asks.add("secrets");
    extra.push(`use the settings ${env.join(", ")}`);
  }
}
