// Shell scripts and commands, read with tree-sitter's bash grammar: pipelines (a download or a
// decoder feeding an interpreter), command and process substitution, `eval`, `-c` strings,
// redirections (`/dev/tcp`, start-up files), and what each command does by its name and words.
import { auditEncodedLiterals } from "./encoded";
import { isKnownInstaller } from "./hosts";
import { SHELL_CHUNK_CHARS, withTree, type Node } from "./parsers";
import { makeFinding, type InstructionRuleId, type Place } from "./rules";
import {
  base,
  commandsIn,
  downloadRule,
  dumpsEnv,
  isDecoder,
  isDownloader,
  isInterpreter,
  readsCredentials,
  readsEnvFile,
  readTree,
  runsStdin,
  sendsData,
  unquote,
  urlsOf,
  type Add,
  type Cmd,
  type ShellTree,
} from "./shell-cmd";
import { keySentElsewhere, SERVICE_KEY_NAME, serviceOfKey } from "./service-keys";
import { perCommand } from "./shell-command-rules";
import { AUTOSTART_PATH, NET_SENDERS, RC_BENIGN_LINE, RC_FILE } from "./shell-words";
import type { Ctx } from "./context";

/**
 * Words and signs without which no shell rule can match: text with none of them is not parsed
 * (most fences in real instructions: `git commit`, `npm run build`, `pdftotext in.pdf`).
 */
const SHELL_TRIGGER =
  /\b(?:curl|wget|fetch|aria2c|https?|xh|lynx|iwr|irm|sh|bash|zsh|dash|ksh|fish|ash|python[\d.]*|perl|ruby|node|php|pwsh|powershell|osascript|deno|bun|bunx|source|eval|exec|lua|sudo|doas|pkexec|su|base64|base32|basenc|xxd|openssl|uudecode|gunzip|zcat|rev|gzip|printf|echo|nc|ncat|netcat|telnet|socat|scp|sftp|rsync|ftp|mail|sendmail|crontab|launchctl|systemctl|cp|mv|ln|install|tee|rm|mkfs\w*|dd|find|shred|chmod|chown|diskutil|xattr|spctl|csrutil|setenforce|ufw|iptables|defaults|netsh|security|env|printenv|export|declare|set|unzip|7z|7za|7zz|unrar|npm|pnpm|yarn|npx|pip3?|pipx|uv|uvx|poetry|conda|brew|apt|apt-get|dnf|yum|pacman|snap|cargo|go|gem|choco|winget|scoop|xmrig|cpuminer|minerd)\b|\.\/|\/dev\/|>|\$\(|<\(|`/;

/** A line the next one continues: `\`, or a pipe or `&&`/`||` waiting for its next command (not a table row). */
const continued = (line: string) => line.endsWith("\\") || (/(?:\||&&)\s*$/.test(line) && !/^\s*\|/.test(line));

/**
 * Line-aligned pieces of at most SHELL_CHUNK_CHARS (a line another one continues stays with it, so
 * a pipeline is never cut in two; a piece that grows past twice the size fails closed).
 */
function chunks(text: string): { text: string; line: number }[] {
  if (text.length <= SHELL_CHUNK_CHARS) return [{ text, line: 0 }];
  const out: { text: string; line: number }[] = [];
  const lines = text.split("\n");
  let cur: string[] = [];
  let size = 0;
  let first = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (size + l.length + 1 > SHELL_CHUNK_CHARS && cur.length && !continued(cur[cur.length - 1]!)) {
      out.push({ text: cur.join("\n"), line: first });
      cur = [];
      size = 0;
      first = i;
    }
    cur.push(l);
    size += l.length + 1;
  }
  if (cur.length) out.push({ text: cur.join("\n"), line: first });
  return out;
}

/** Audits shell text. Returns false when it could not be read (too large, too deep or too slow to parse). */
export function auditShell(text: string, place: Place, ctx: Ctx, options: { asks?: boolean } = {}): boolean {
  if (!text.trim()) return true;
  if (!SHELL_TRIGGER.test(text)) {
    if (options.asks !== false) ctx.asks.add("shell");
    return true;
  }
  let ok = true;
  for (const c of chunks(text))
    ok = auditShellChunk(c.text, { resource: place.resource, line: place.line + c.line }, ctx, options) && ok;
  return ok;
}

/** Lines longer than this are not parsed on their own when a piece has to be read line by line. */
const LINE_MAX = 512;

function auditShellChunk(text: string, place: Place, ctx: Ctx, options: { asks?: boolean }, byLine = false): boolean {
  if (text.length > SHELL_CHUNK_CHARS * 2 || (byLine && text.length > LINE_MAX)) {
    ctx.findings.push(makeFinding("script.too_complex", place, text.slice(0, 80)));
    return false;
  }
  const add = (rule: InstructionRuleId, line: number, excerpt: string) =>
    ctx.findings.push(makeFinding(rule, place, excerpt, line));
  const done = withTree("bash", text, (root) => {
    const tree = readTree(root, text);
    const { cmds } = tree;
    if (options.asks !== false && cmds.some((c) => c.name)) ctx.asks.add("shell");
    pipelines(tree, add, ctx, place);
    substitutions(cmds, add);
    for (const c of cmds) perCommand(c, add, ctx, place);
    redirects(tree, add, ctx);
    scriptLevel(tree, add, ctx);
    variables(tree, add);
    if (SERVICE_KEY_NAME.test(text)) keysSent(tree, add);
    return true;
  });
  if (done === true) return true;
  if (!byLine && text.includes("\n")) {
    // a piece the parser gave up on is read again line by line: short lines stay cheap
    const lines = text.split("\n");
    let ok = true;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.trim()) continue;
      if (ctx.lineBudget-- <= 0) {
        ctx.findings.push(makeFinding("script.too_complex", place, lines[i]!, i));
        return false;
      }
      ok = auditShellChunk(lines[i]!, { resource: place.resource, line: place.line + i }, ctx, options, true) && ok;
    }
    return ok;
  }
  ctx.findings.push(makeFinding("script.too_complex", place, text.slice(0, 80)));
  return false;
}

/** The stages of a pipeline, with `a | b 2>&1 | c` (parsed as a pipeline inside a pipeline) flattened. */
function stagesOf(tree: ShellTree, pipeline: Node): Cmd[][] {
  const out: Cmd[][] = [];
  for (const n of pipeline.namedChildren) {
    if (!n) continue;
    const type = n.type;
    if (type === "comment") continue;
    const body = type === "redirected_statement" ? n.childForFieldName("body") : null;
    if (body?.type === "pipeline") out.push(...stagesOf(tree, body));
    else out.push(commandsIn(tree, n));
  }
  return out;
}

function pipelines(tree: ShellTree, add: Add, ctx: Ctx, place: Place): void {
  for (const n of tree.pipelines) {
    const stages = stagesOf(tree, n);
    const line = n.startPosition.row;
    let download: string[] | null = null;
    let decoded = false;
    let creds = false;
    let env = false;
    let netcat = false;
    for (const stage of stages) {
      const head = stage[0];
      if (!head) continue;
      if (runsStdin(head)) {
        if (decoded) {
          add("encoded.exec", line, n.text);
          auditEncodedLiterals(n.text, { resource: place.resource, line: place.line + line }, ctx, true);
        } else if (download) add(downloadRule(download), line, n.text);
        if (netcat) add("shell.reverse_shell", line, n.text);
      }
      if ((creds || env) && (sendsData(head) || isDownloader(head) || NET_SENDERS.has(head.name)))
        add(creds ? "secrets.exfil" : "env.exfil", line, n.text);
      if (isDownloader(head)) download = [...(download ?? []), ...urlsOf(head)];
      if (isDecoder(head)) decoded = true;
      if (readsCredentials(head) || readsEnvFile(head)) creds = true;
      if (dumpsEnv(head)) env = true;
      if (["nc", "ncat", "netcat", "telnet", "socat"].includes(head.name)) netcat = true;
    }
    if (netcat && stages.some((s) => s[0] && (runsStdin(s[0]) || /^-i$/.test(s[0].args[0] ?? ""))))
      add("shell.reverse_shell", line, n.text);
  }
}

/** `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(echo … | base64 -d)"`, `curl -d "$(cat ~/.ssh/id_rsa)"`. */
function substitutions(cmds: Cmd[], add: Add): void {
  for (let i = 0; i < cmds.length; i++) {
    const outer = cmds[i]!;
    // commands come in document order, parents first: one inside another's text is in its substitutions
    const inner: Cmd[] = [];
    for (let j = i + 1; j < cmds.length && cmds[j]!.start < outer.end; j++)
      if (cmds[j]!.end <= outer.end) inner.push(cmds[j]!);
    if (!inner.length) continue;
    const n = outer.node;
    const line = outer.line;
    if (isInterpreter(outer)) {
      if (inner.some(isDecoder)) add("encoded.exec", line, n.text);
      else if (inner.some(isDownloader)) add(downloadRule(inner.flatMap(urlsOf)), line, n.text);
    }
    if (isDownloader(outer) || NET_SENDERS.has(outer.name)) {
      if (inner.some((c) => readsCredentials(c) || readsEnvFile(c))) add("secrets.exfil", line, n.text);
      else if (inner.some(dumpsEnv)) add("env.exfil", line, n.text);
    }
  }
}

function redirects(tree: ShellTree, add: Add, ctx: Ctx): void {
  for (const n of tree.redirected) {
    const line = n.startPosition.row;
    const body = n.childForFieldName("body");
    const bodyCmds = body ? commandsIn(tree, body) : [];
    for (const r of n.childrenForFieldName("redirect")) {
      if (!r) continue;
      const dest = unquote(r.childForFieldName("destination")?.text ?? r.text.replace(/^[\d&]*[<>|&]+\s*/, ""));
      if (/\/dev\/(?:tcp|udp)\//.test(r.text)) add("shell.reverse_shell", line, n.text);
      if (/^\/dev\/(?:sd|hd|nvme|disk|xvd)/.test(dest)) add("destroy.home_or_root", line, n.text);
      if (AUTOSTART_PATH.test(dest)) add("persistence.install", line, n.text);
      else if (RC_FILE.test(dest)) {
        const content = heredocOf(tree, n) ?? bodyCmds.map((c) => c.args.join(" ")).join("\n");
        const benign =
          content.split("\n").every((l) => RC_BENIGN_LINE.test(l)) && !/curl|wget|base64|\/dev\/tcp|nc /.test(content);
        add(benign ? "persistence.shell_rc" : "persistence.install", line, n.text);
      }
      if (bodyCmds.some(dumpsEnv) && /[>]/.test(r.text)) ctx.asks.add("secrets");
    }
  }
}

/** The last here-document inside `n`. */
function heredocOf(tree: ShellTree, n: Node): string | null {
  const start = n.startIndex;
  const end = n.endIndex;
  let body: string | null = null;
  for (const h of tree.heredocs) if (h.startIndex >= start && h.endIndex <= end) body = h.text;
  return body;
}

const DOWNLOAD_WORD = /\b(?:curl|wget|fetch|aria2c|iwr|irm)\b/;
const DECODE_WORD = /\bbase(?:64|32)\s+(?:-d|-D|--decode)\b|\bxxd\s+-r/;

/** `X=$(curl …); eval "$X"`: a variable holding a download or decoded text, then run. */
function variables(tree: ShellTree, add: Add): void {
  const held = new Map<string, InstructionRuleId>();
  for (const { name, value } of tree.assignments) {
    if (!name || (!value.includes("$(") && !value.includes("`"))) continue;
    if (DECODE_WORD.test(value)) held.set(name, "encoded.exec");
    else if (DOWNLOAD_WORD.test(value)) held.set(name, "shell.download_exec");
  }
  if (!held.size) return;
  const uses = (c: Cmd) =>
    [...held].find(([v]) => c.args.some((a) => a.includes("$" + v) || a.includes("${" + v + "}")));
  for (const c of tree.cmds) {
    if (!isInterpreter(c)) continue;
    const hit = uses(c);
    if (hit) add(hit[1], c.line, c.text);
  }
  for (const n of tree.pipelines) {
    const stages = stagesOf(tree, n);
    const feeder = stages.findIndex((st) => st[0] && (st[0].name === "echo" || st[0].name === "printf") && uses(st[0]));
    if (feeder !== -1 && stages.slice(feeder + 1).some((st) => st[0] && runsStdin(st[0])))
      add(uses(stages[feeder]![0]!)![1], n.startPosition.row, n.text);
  }
}

/** Across the whole script: a credential or environment read together with sending data out. */
function scriptLevel(tree: ShellTree, add: Add, ctx: Ctx): void {
  const { cmds } = tree;
  const sender = cmds.find(sendsData);
  const cred = cmds.find(readsCredentials);
  if (cred) ctx.asks.add("secrets");
  if (sender && cred) add("secrets.exfil", cred.line, cred.text);
  const envDump = cmds.find((c) => dumpsEnv(c) && !/\|\s*(?:grep|sort|head|less|wc)\b/.test(c.node.parent?.text ?? ""));
  if (sender && envDump && envDump.node.parent?.type !== "pipeline") add("env.exfil", envDump.line, envDump.text);
  // a file downloaded, then made executable or run
  const saved = new Set<string>();
  // a redirected statement starts where its body does: only a command starting there can be one
  let redirectedStarts: Set<number> | null = null;
  for (const c of cmds) {
    if (!isDownloader(c)) continue;
    const urls = urlsOf(c);
    for (let i = 0; i < c.args.length; i++) {
      const a = c.args[i]!;
      if (/^-(?:o|O)$|^--output(?:-document)?$/.test(a) && c.args[i + 1]) saved.add(base(c.args[i + 1]!));
      else if (/^--output(?:-document)?=/.test(a)) saved.add(base(a.split("=")[1]!));
      else if (a === "-O" || /^-[a-zA-Z]*O$/.test(a) || c.name === "wget")
        for (const u of urls) saved.add(base(u.split(/[?#]/)[0]!));
    }
    redirectedStarts ??= new Set(tree.redirected.map((r) => r.startIndex));
    if (redirectedStarts.has(c.start) && c.node.parent?.type === "redirected_statement") {
      const d = c.node.parent.childForFieldName("redirect")?.childForFieldName("destination")?.text;
      if (d) saved.add(base(unquote(d)));
    }
    saved.delete("");
    if (!saved.size) continue;
    const runs = cmds.some(
      (r) =>
        r !== c &&
        (saved.has(r.name) ||
          ((r.name === "chmod" ||
            ["open", "installer", "hdiutil", "dpkg", "msiexec", "start", "wine", "rpm"].includes(r.name)) &&
            r.args.some((a) => saved.has(base(a)))) ||
          (isInterpreter(r) &&
            !r.args.some((a) => /^-[ce]$/.test(a)) &&
            saved.has(base(r.args.find((a) => !a.startsWith("-")) ?? "")))),
    );
    if (runs) {
      ctx.asks.add("download_run");
      add(urls.length && urls.every(isKnownInstaller) ? "shell.known_installer" : "shell.download_run", c.line, c.text);
    }
  }
  const locked = cmds.find(
    (c) =>
      (c.name === "unzip" && c.args.some((a) => /^-P/.test(a))) ||
      (/^7z[az]?$/.test(c.name) && c.args.some((a) => /^-p./.test(a))) ||
      (c.name === "unrar" && c.args.some((a) => /^-p./.test(a))),
  );
  if (
    locked &&
    cmds.some(
      (c) =>
        c.name === "chmod" ||
        c.name.startsWith("./") ||
        c.name === "open" ||
        c.name === "wine" ||
        c.node.text.startsWith("./"),
    )
  ) {
    add("archive.password_exec", locked.line, locked.text);
  }
}

/** `$OPENAI_API_KEY` (or a variable holding it) in a download or upload to a host that is not OpenAI's. */
function keysSent(tree: ShellTree, add: Add): void {
  const keyVars = new Map<string, string>();
  const urlVars = new Map<string, string>();
  for (const a of tree.assignments) {
    const { name } = a;
    const value = unquote(a.value);
    if (!name) continue;
    const key = keysReadIn(value, keyVars)[0];
    if (key) keyVars.set(name, key);
    else if (/^(?:https?:\/\/)\S+$/i.test(value)) urlVars.set(name, value);
  }
  const sendsKey = (c: Cmd, piped: readonly string[]) => {
    const keys = [...piped, ...keysReadIn(c.text, keyVars)];
    if (!keys.length) return false;
    const args = c.args.map((a) => a.replace(/\$\{?(\w+)\}?/g, (m, v: string) => urlVars.get(v) ?? m));
    return keySentElsewhere(keys, urlsOf({ ...c, args })) !== null;
  };
  const check = (c: Cmd, piped: readonly string[]) => {
    if (sendsKey(c, piped)) add("secrets.key_exfil", c.line, c.text);
  };
  // the same command written again is judged the same (the variables are read once, above)
  const judged = new Map<string, boolean>();
  for (const c of tree.cmds) {
    if (!isDownloader(c)) continue;
    let sends = judged.get(c.text);
    if (sends === undefined) judged.set(c.text, (sends = sendsKey(c, [])));
    if (sends) add("secrets.key_exfil", c.line, c.text);
  }
  for (const n of tree.pipelines) {
    const piped: string[] = [];
    for (const stage of stagesOf(tree, n)) {
      const head = stage[0];
      if (!head) continue;
      if (piped.length && isDownloader(head)) check(head, piped);
      piped.push(...keysReadIn(head.text, keyVars));
    }
  }
}

/** The documented keys a shell text reads: `$NAME`, `${NAME}`, `printenv NAME`, or a variable holding one. */
function keysReadIn(text: string, keyVars: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\$\{?(\w+)|\bprintenv\s+(\w+)/g)) {
    const name = m[1] ?? m[2]!;
    const held = keyVars.get(name);
    if (held) out.push(held);
    else if (serviceOfKey(name)) out.push(name);
  }
  return out;
}
