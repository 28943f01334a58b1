// Shell scripts and commands, read with tree-sitter's bash grammar: pipelines (a download or a
// decoder feeding an interpreter), command and process substitution, `eval`, `-c` strings,
// redirections (`/dev/tcp`, start-up files), and what each command does by its name and words.
import { auditEncodedLiterals } from "./encoded";
import { isKnownInstaller } from "./hosts";
import { SHELL_CHUNK_CHARS, walk, withTree, type Node } from "./parsers";
import { makeFinding, type InstructionRuleId, type Place } from "./rules";
import {
  AUTOSTART_PATH, CREDENTIAL_PATH, DANGEROUS_TARGETS, DOWNLOADERS, ELEVATORS, ENV_FILE, INTERPRETERS, KEYCHAIN_COMMANDS,
  MINERS, NET_SENDERS, PACKAGE_INSTALLERS, RC_BENIGN_LINE, RC_FILE, WRAPPERS,
} from "./shell-words";
import { typosquatOf } from "./typosquat";
import type { Ctx } from "./context";

type Cmd = { node: Node; name: string; args: string[]; line: number; elevated: boolean; text: string; start: number; end: number };

const unquote = (s: string) => s.replace(/\\\n/g, "").replace(/["']/g, "");
const base = (s: string) => s.slice(s.lastIndexOf("/") + 1);

function commandOf(node: Node): Cmd {
  const nameNode = node.childForFieldName("name");
  const words = [nameNode ? unquote(nameNode.text) : ""];
  for (const a of node.childrenForFieldName("argument")) if (a) words.push(unquote(a.text));
  let elevated = false;
  let i = 0;
  while (i < words.length && WRAPPERS.has(base(words[i]!))) {
    if (ELEVATORS.has(base(words[i]!))) elevated = true;
    const wrapper = base(words[i]!);
    i++;
    while (i < words.length && (words[i]!.startsWith("-") || /^[A-Za-z_]\w*=/.test(words[i]!) || (wrapper === "timeout" && /^\d/.test(words[i]!)))) {
      if (/^-[ugCch]$/.test(words[i]!) && wrapper !== "su") i++;
      i++;
    }
  }
  const rest = words.slice(i);
  return { node, name: base(rest[0] ?? ""), args: rest.slice(1), line: node.startPosition.row, elevated, text: node.text, start: node.startIndex, end: node.endIndex };
}

/** The commands under `node`, outermost first. */
function commandsUnder(node: Node): Cmd[] {
  const out: Cmd[] = [];
  walk(node, (n) => {
    if (n.type === "command") out.push(commandOf(n));
  });
  return out;
}

const isDownloader = (c: Cmd) => DOWNLOADERS.has(c.name) || (c.name === "python3" && c.args.join(" ").includes("urllib"));
const isDecoder = (c: Cmd) =>
  (["base64", "base32", "basenc"].includes(c.name) && c.args.some((a) => /^-(?:d|D|di|id)$|^--decode$/.test(a))) ||
  (c.name === "xxd" && c.args.some((a) => /^-r/.test(a))) ||
  (c.name === "openssl" && c.args.some((a) => a === "-d" || a === "-base64" || a === "base64") && c.args.includes("-d")) ||
  ["uudecode", "gunzip", "zcat", "rev", "bunzip2", "xz"].includes(c.name) ||
  (c.name === "gzip" && c.args.includes("-d")) ||
  ((c.name === "printf" || c.name === "echo") && c.args.some((a) => /\\x[0-9a-f]{2}|\\[0-7]{3}/i.test(a)));
const isInterpreter = (c: Cmd) => INTERPRETERS.has(c.name) && !c.args.some((a) => a === "--version" || a === "-V" || a === "-n");
/** An interpreter in a pipeline runs what it reads unless it was given its code (`-c`, a script file). */
const runsStdin = (c: Cmd) => {
  if (!isInterpreter(c)) return false;
  if (c.args.some((a) => /^-(?:c|e|m|r|Command|EncodedCommand)$|^--(?:eval|command)$/i.test(a))) return false;
  if (c.args.includes("-s")) return true;
  const script = c.args.find((a) => !a.startsWith("-"));
  return script === undefined || script === "-" || script === "/dev/stdin";
};
const urlsOf = (c: Cmd) => c.args.filter((a) => /^(?:https?|ftp):\/\//i.test(a) || /^[\w-]+(?:\.[\w-]+)+\/\S*/.test(a));
const sendsData = (c: Cmd) =>
  NET_SENDERS.has(c.name) ||
  (isDownloader(c) && c.args.some((a) => /^-(?:d|F|T)$|^-[a-zA-Z]*[dFT]$|^--(?:data|data-binary|data-raw|data-urlencode|form|upload-file|post-file|post-data|body-file)(?:=|$)/.test(a)));
const readsCredentials = (c: Cmd) => c.args.some((a) => CREDENTIAL_PATH.test(a)) || (c.name === "security" && KEYCHAIN_COMMANDS.test(c.args.join(" ")));
const readsEnvFile = (c: Cmd) => c.args.some((a) => ENV_FILE.test(" " + a));
const dumpsEnv = (c: Cmd) =>
  ((c.name === "env" || c.name === "printenv") && c.args.every((a) => a.startsWith("-"))) ||
  (c.name === "export" && c.args.length === 1 && c.args[0] === "-p") ||
  (c.name === "declare" && c.args.length === 1 && /^-[xp]$/.test(c.args[0]!)) ||
  (c.name === "set" && c.args.length === 0) ||
  c.args.some((a) => /\/proc\/(?:self|\d+|\*)\/environ/.test(a));

function downloadRule(urls: string[]): InstructionRuleId {
  return urls.length > 0 && urls.every(isKnownInstaller) ? "shell.known_installer" : "shell.download_exec";
}

/**
 * Words and signs without which no shell rule can match: text with none of them is not parsed
 * (most fences in real instructions: `git commit`, `npm run build`, `pdftotext in.pdf`).
 */
const SHELL_TRIGGER =
  /\b(?:curl|wget|fetch|aria2c|https?|xh|lynx|iwr|irm|sh|bash|zsh|dash|ksh|fish|ash|python[\d.]*|perl|ruby|node|php|pwsh|powershell|osascript|deno|bun|bunx|source|eval|exec|lua|sudo|doas|pkexec|su|base64|base32|basenc|xxd|openssl|uudecode|gunzip|zcat|rev|gzip|printf|echo|nc|ncat|netcat|telnet|socat|scp|sftp|rsync|ftp|mail|sendmail|crontab|launchctl|systemctl|cp|mv|ln|install|tee|rm|mkfs\w*|dd|find|shred|chmod|chown|diskutil|xattr|spctl|csrutil|setenforce|ufw|iptables|defaults|netsh|security|env|printenv|export|declare|set|unzip|7z|7za|7zz|unrar|npm|pnpm|yarn|npx|pip3?|pipx|uv|uvx|poetry|conda|brew|apt|apt-get|dnf|yum|pacman|snap|cargo|go|gem|choco|winget|scoop|xmrig|cpuminer|minerd)\b|\.\/|\/dev\/|>|\$\(|<\(|`/;

/** Line-aligned pieces of at most SHELL_CHUNK_CHARS (a line ending in `\` stays with the next). */
function chunks(text: string): { text: string; line: number }[] {
  if (text.length <= SHELL_CHUNK_CHARS) return [{ text, line: 0 }];
  const out: { text: string; line: number }[] = [];
  const lines = text.split("\n");
  let cur: string[] = [];
  let size = 0;
  let first = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (size + l.length + 1 > SHELL_CHUNK_CHARS && cur.length && !cur[cur.length - 1]!.endsWith("\\")) {
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
  for (const c of chunks(text)) ok = auditShellChunk(c.text, { resource: place.resource, line: place.line + c.line }, ctx, options) && ok;
  return ok;
}

/** Lines longer than this are not parsed on their own when a piece has to be read line by line. */
const LINE_MAX = 512;

function auditShellChunk(text: string, place: Place, ctx: Ctx, options: { asks?: boolean }, byLine = false): boolean {
  if (text.length > SHELL_CHUNK_CHARS * 2 || (byLine && text.length > LINE_MAX)) {
    ctx.findings.push(makeFinding("script.too_complex", place, text.slice(0, 80)));
    return false;
  }
  const add = (rule: InstructionRuleId, line: number, excerpt: string) => ctx.findings.push(makeFinding(rule, place, excerpt, line));
  const done = withTree("bash", text, (root) => {
    const cmds = commandsUnder(root);
    if (options.asks !== false && cmds.some((c) => c.name)) ctx.asks.add("shell");
    pipelines(root, add, ctx, place);
    substitutions(cmds, add);
    for (const c of cmds) perCommand(c, add, ctx, place);
    redirects(root, add, ctx);
    scriptLevel(cmds, add, ctx);
    variables(root, cmds, add);
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

type Add = (rule: InstructionRuleId, line: number, excerpt: string) => void;

/** The stages of a pipeline, with `a | b 2>&1 | c` (parsed as a pipeline inside a pipeline) flattened. */
function stagesOf(pipeline: Node): Cmd[][] {
  const out: Cmd[][] = [];
  for (const n of pipeline.namedChildren) {
    if (!n || n.type === "comment") continue;
    const body = n.type === "redirected_statement" ? n.childForFieldName("body") : null;
    if (body?.type === "pipeline") out.push(...stagesOf(body));
    else out.push(commandsUnder(n));
  }
  return out;
}

function pipelines(root: Node, add: Add, ctx: Ctx, place: Place): void {
  walk(root, (n) => {
    if (n.type !== "pipeline") return;
    const stages = stagesOf(n);
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
      if ((creds || env) && (sendsData(head) || isDownloader(head) || NET_SENDERS.has(head.name))) add(creds ? "secrets.exfil" : "env.exfil", line, n.text);
      if (isDownloader(head)) download = [...(download ?? []), ...urlsOf(head)];
      if (isDecoder(head)) decoded = true;
      if (readsCredentials(head) || readsEnvFile(head)) creds = true;
      if (dumpsEnv(head)) env = true;
      if (["nc", "ncat", "netcat", "telnet", "socat"].includes(head.name)) netcat = true;
    }
    if (netcat && stages.some((s) => s[0] && (runsStdin(s[0]) || /^-i$/.test(s[0].args[0] ?? "")))) add("shell.reverse_shell", line, n.text);
  });
}

/** `bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(echo … | base64 -d)"`, `curl -d "$(cat ~/.ssh/id_rsa)"`. */
function substitutions(cmds: Cmd[], add: Add): void {
  for (let i = 0; i < cmds.length; i++) {
    const outer = cmds[i]!;
    // commands come in document order, parents first: one inside another's text is in its substitutions
    const inner: Cmd[] = [];
    for (let j = i + 1; j < cmds.length && cmds[j]!.start < outer.end; j++) if (cmds[j]!.end <= outer.end) inner.push(cmds[j]!);
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

function perCommand(c: Cmd, add: Add, ctx: Ctx, place: Place): void {
  const { name, args, line } = c;
  const joined = args.join(" ");
  if (c.elevated || ELEVATORS.has(name)) {
    add("admin.rights", line, c.text);
    ctx.asks.add("admin");
  }
  if (isDownloader(c)) ctx.asks.add("network");
  if (MINERS.has(name)) add("miner.crypto", line, c.text);
  // a `-c` string is a script of its own
  const dashC = args.findIndex((a) => a === "-c" || a === "-e" || a === "-Command" || a === "-command");
  if (dashC !== -1 && args[dashC + 1] && ctx.depth < 3) {
    const script = args[dashC + 1]!;
    const lang = /^python/.test(name) ? "python" : /^(?:pwsh|powershell)$/.test(name) ? "powershell" : /^(?:ba|z|da|k)?sh$/.test(name) ? "shell" : null;
    if (lang) {
      ctx.depth++;
      ctx.audit(lang, script, { resource: place.resource, line: place.line + line }, ctx);
      ctx.depth--;
    }
  }
  if (["nc", "ncat", "netcat", "nc.traditional"].includes(name) && args.some((a) => /^-(?:e|c)$|^--(?:exec|sh-exec)/.test(a))) add("shell.reverse_shell", line, c.text);
  if (name === "socat" && /\b(?:exec|system):/i.test(joined)) add("shell.reverse_shell", line, c.text);
  if (name === "crontab" && args.length === 1 && args[0] === "-e") add("persistence.schedule", line, c.text);
  else if (name === "crontab" && !(args.length === 1 && args[0] === "-l") && !(args.length === 0)) add("persistence.install", line, c.text);
  if (name === "launchctl" && /^(?:load|bootstrap|submit|enable)$/.test(args[0] ?? "")) add("persistence.install", line, c.text);
  if (name === "systemctl" && args.includes("--user") && args.some((a) => a === "enable" || a === "start")) add("persistence.install", line, c.text);
  if (["cp", "mv", "ln", "install", "tee"].includes(name) && args.some((a) => AUTOSTART_PATH.test(a))) add("persistence.install", line, c.text);
  if (name === "tee" && args.some((a) => RC_FILE.test(a))) add("persistence.shell_rc", line, c.text);
  if (name === "rm" && args.some((a) => /^-[a-zA-Z]*[rR]|^--recursive$/.test(a)) && args.some((a) => isDangerousTarget(a))) add("destroy.home_or_root", line, c.text);
  if (args.includes("--no-preserve-root")) add("destroy.home_or_root", line, c.text);
  if (/^mkfs/.test(name) || (name === "dd" && args.some((a) => /^of=\/dev\/(?:sd|hd|nvme|disk|xvd|vd|mmcblk)/.test(a)))) add("destroy.home_or_root", line, c.text);
  if ((name === "find" && isDangerousTarget(args[0] ?? "") && args.includes("-delete")) || (name === "shred" && args.some(isDangerousTarget))) add("destroy.home_or_root", line, c.text);
  if ((name === "chmod" || name === "chown") && args.some((a) => /^-[a-zA-Z]*R/.test(a)) && args.some((a) => a === "/" || a === "/*")) add("destroy.home_or_root", line, c.text);
  if (name === "diskutil" && /^(?:eraseDisk|eraseVolume|zeroDisk|secureErase)$/.test(args[0] ?? "")) add("destroy.home_or_root", line, c.text);
  if (disablesSecurity(name, args)) add("security.disable", line, c.text);
  packageInstall(c, add, ctx);
}

function isDangerousTarget(raw: string): boolean {
  let t = raw.replace(/\$\{HOME\}/g, "$HOME").replace(/\$\{?USERPROFILE\}?/gi, "~");
  while (t.length > 1 && (t.endsWith("/*") || t.endsWith("/") || t.endsWith("\\"))) t = t.endsWith("/*") ? t.slice(0, -2) : t.slice(0, -1);
  if (t === "" && raw.startsWith("/")) return true;
  return DANGEROUS_TARGETS.has(t) || DANGEROUS_TARGETS.has(t.replace(/^\$HOME/, "~"));
}

function disablesSecurity(name: string, args: string[]): boolean {
  const joined = args.join(" ");
  if (name === "xattr") return /com\.apple\.quarantine/.test(joined) ? args.some((a) => /^-[a-z]*[dc]/.test(a)) : args.some((a) => /^-[a-z]*c/.test(a));
  if (name === "spctl") return /--(?:master|global)-disable|--disable\b|--add\b/.test(joined);
  if (name === "csrutil") return args[0] === "disable";
  if (name === "setenforce") return args[0] === "0" || /^permissive$/i.test(args[0] ?? "");
  if (name === "ufw") return args[0] === "disable";
  if (name === "iptables") return args.includes("-F") || args.includes("--flush");
  if (name === "systemctl") return /^(?:stop|disable|mask)$/.test(args[0] ?? "") && /\b(?:firewalld|ufw|apparmor|auditd|clamav|falcon-sensor|osqueryd)\b/.test(joined);
  if (name === "defaults") return /LSQuarantine/.test(joined) || /com\.apple\.security|GKAutoRearm/.test(joined);
  if (name === "netsh") return /firewall/i.test(joined) && /\b(?:off|disable)\b/i.test(joined);
  if (name === "launchctl") return /com\.apple\.(?:XProtect|MRT|security)/i.test(joined) && /unload|disable|bootout/.test(joined);
  return false;
}

function packageInstall(c: Cmd, add: Add, ctx: Ctx): void {
  let name = c.name;
  let args = c.args;
  if (/^python[\d.]*$/.test(name) && args[0] === "-m" && /^pip3?$/.test(args[1] ?? "")) {
    name = "pip";
    args = args.slice(2);
  }
  const spec = PACKAGE_INSTALLERS[name];
  if (!spec) return;
  const sub = spec.sub.find((s) => s === "" || args.slice(0, s.split(" ").length).join(" ") === s);
  if (sub === undefined) return;
  ctx.asks.add("install");
  if (spec.registry === "other") return;
  const rest = sub === "" ? args : args.slice(sub.split(" ").length);
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (/^-(?:r|c|e|i|t|-index-url|-extra-index-url|-target|-prefix|-registry|-constraint|-requirement|p)$/.test(a)) {
      i++;
      continue;
    }
    if (a.startsWith("-") || /[/\\:]|\.(?:whl|tgz|tar\.gz|zip)$/.test(a) && !a.startsWith("@")) continue;
    if (sub === "" && i > 0) break; // npx's first word is the package, the rest are its arguments
    const pkg = packageName(a, spec.registry);
    if (!pkg) continue;
    const near = typosquatOf(pkg, spec.registry);
    if (near) add("package.typosquat", c.line, `${pkg} (close to ${near}): ${c.text}`);
  }
}

function packageName(arg: string, registry: "npm" | "pypi"): string | null {
  if (registry === "npm") {
    if (arg.startsWith("@")) return null; // scoped packages belong to their scope's owner
    return arg.split("@")[0]!.toLowerCase() || null;
  }
  const m = /^[A-Za-z0-9][A-Za-z0-9._-]*/.exec(arg);
  return m ? m[0].toLowerCase().replace(/[._]+/g, "-") : null;
}

function redirects(root: Node, add: Add, ctx: Ctx): void {
  walk(root, (n) => {
    if (n.type !== "redirected_statement") return;
    const line = n.startPosition.row;
    const body = n.childForFieldName("body");
    const bodyCmds = body ? commandsUnder(body) : [];
    for (const r of n.childrenForFieldName("redirect")) {
      if (!r) continue;
      const dest = unquote(r.childForFieldName("destination")?.text ?? r.text.replace(/^[\d&]*[<>|&]+\s*/, ""));
      if (/\/dev\/(?:tcp|udp)\//.test(r.text)) add("shell.reverse_shell", line, n.text);
      if (/^\/dev\/(?:sd|hd|nvme|disk|xvd)/.test(dest)) add("destroy.home_or_root", line, n.text);
      if (AUTOSTART_PATH.test(dest)) add("persistence.install", line, n.text);
      else if (RC_FILE.test(dest)) {
        const content = heredocOf(n) ?? bodyCmds.map((c) => c.args.join(" ")).join("\n");
        const benign = content.split("\n").every((l) => RC_BENIGN_LINE.test(l)) && !/curl|wget|base64|\/dev\/tcp|nc /.test(content);
        add(benign ? "persistence.shell_rc" : "persistence.install", line, n.text);
      }
      if (bodyCmds.some(dumpsEnv) && /[>]/.test(r.text)) ctx.asks.add("secrets");
    }
  });
}

function heredocOf(n: Node): string | null {
  let body: string | null = null;
  walk(n, (x) => {
    if (x.type === "heredoc_body") body = x.text;
  });
  return body;
}

const DOWNLOAD_WORD = /\b(?:curl|wget|fetch|aria2c|iwr|irm)\b/;
const DECODE_WORD = /\bbase(?:64|32)\s+(?:-d|-D|--decode)\b|\bxxd\s+-r/;

/** `X=$(curl …); eval "$X"`: a variable holding a download or decoded text, then run. */
function variables(root: Node, cmds: Cmd[], add: Add): void {
  const held = new Map<string, InstructionRuleId>();
  walk(root, (n) => {
    if (n.type !== "variable_assignment") return;
    const name = n.childForFieldName("name")?.text;
    const value = n.childForFieldName("value")?.text ?? "";
    if (!name || !value.includes("$(") && !value.includes("`")) return;
    if (DECODE_WORD.test(value)) held.set(name, "encoded.exec");
    else if (DOWNLOAD_WORD.test(value)) held.set(name, "shell.download_exec");
  });
  if (!held.size) return;
  const uses = (c: Cmd) => [...held].find(([v]) => c.args.some((a) => a.includes("$" + v) || a.includes("${" + v + "}")));
  for (const c of cmds) {
    if (!isInterpreter(c)) continue;
    const hit = uses(c);
    if (hit) add(hit[1], c.line, c.text);
  }
  walk(root, (n) => {
    if (n.type !== "pipeline") return;
    const stages = stagesOf(n);
    const feeder = stages.findIndex((st) => st[0] && (st[0].name === "echo" || st[0].name === "printf") && uses(st[0]));
    if (feeder !== -1 && stages.slice(feeder + 1).some((st) => st[0] && runsStdin(st[0]))) add(uses(stages[feeder]![0]!)![1], n.startPosition.row, n.text);
  });
}

/** Across the whole script: a credential or environment read together with sending data out. */
function scriptLevel(cmds: Cmd[], add: Add, ctx: Ctx): void {
  const sender = cmds.find(sendsData);
  const cred = cmds.find(readsCredentials);
  if (cred) ctx.asks.add("secrets");
  if (sender && cred) add("secrets.exfil", cred.line, cred.text);
  const envDump = cmds.find((c) => dumpsEnv(c) && !/\|\s*(?:grep|sort|head|less|wc)\b/.test(c.node.parent?.text ?? ""));
  if (sender && envDump && envDump.node.parent?.type !== "pipeline") add("env.exfil", envDump.line, envDump.text);
  // a file downloaded, then made executable or run
  const saved = new Set<string>();
  for (const c of cmds) {
    if (!isDownloader(c)) continue;
    const urls = urlsOf(c);
    for (let i = 0; i < c.args.length; i++) {
      const a = c.args[i]!;
      if (/^-(?:o|O)$|^--output(?:-document)?$/.test(a) && c.args[i + 1]) saved.add(base(c.args[i + 1]!));
      else if (/^--output(?:-document)?=/.test(a)) saved.add(base(a.split("=")[1]!));
      else if (a === "-O" || /^-[a-zA-Z]*O$/.test(a) || c.name === "wget") for (const u of urls) saved.add(base(u.split(/[?#]/)[0]!));
    }
    if (c.node.parent?.type === "redirected_statement") {
      const d = c.node.parent.childForFieldName("redirect")?.childForFieldName("destination")?.text;
      if (d) saved.add(base(unquote(d)));
    }
    saved.delete("");
    const runs = cmds.some(
      (r) =>
        r !== c &&
        (saved.has(r.name) ||
          ((r.name === "chmod" || ["open", "installer", "hdiutil", "dpkg", "msiexec", "start", "wine", "rpm"].includes(r.name)) && r.args.some((a) => saved.has(base(a)))) ||
          (isInterpreter(r) && !r.args.some((a) => /^-[ce]$/.test(a)) && saved.has(base(r.args.find((a) => !a.startsWith("-")) ?? "")))),
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
  if (locked && cmds.some((c) => c.name === "chmod" || c.name.startsWith("./") || c.name === "open" || c.name === "wine" || c.node.text.startsWith("./"))) {
    add("archive.password_exec", locked.line, locked.text);
  }
}
