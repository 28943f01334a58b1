// PowerShell (and cmd) lines. No maintained PowerShell grammar ships as WASM on npm, so this is a
// bounded tokenizer: statements split at newlines, `;` and `|`, matched case-insensitively against
// literal alternations (linear). `-EncodedCommand` payloads are decoded (UTF-16LE) and read again.
import { deeper, type Ctx } from "./context";
import { auditEncodedLiterals, decodeBase64 } from "./encoded";
import { isKnownInstaller } from "./hosts";
import { makeFinding, type InstructionRuleId, type Place } from "./rules";
import { keySentElsewhere, serviceOfKey } from "./service-keys";

const EXEC = /(?:^|[\s|;(&.])(?:iex|invoke-expression)\b|\|\s*&\s*\(|\.\s*\(\s*\[scriptblock\]::create/i;
const DOWNLOAD =
  /\b(?:iwr|irm|invoke-webrequest|invoke-restmethod|downloadstring|downloadfile|downloaddata|net\.webclient|start-bitstransfer|curl|wget|certutil\s+-urlcache)\b/i;
const ENCODED = /(?:^|\s)-(?:e|ec|en|enc|enco|encodedcommand)\s+([A-Za-z0-9+/=]{8,})/i;
const FROM_BASE64 = /frombase64string/i;
const URL = /https?:\/\/[^\s'"`)]+/gi;
const RULES: [RegExp, InstructionRuleId][] = [
  [
    /set-mppreference\s[^\n]{0,200}-disable|add-mppreference\s[^\n]{0,200}-exclusion|set-netfirewallprofile\s[^\n]{0,200}-enabled\s+(?:\$?false|0)|netsh\s+advfirewall\s[^\n]{0,120}\boff\b|uninstall-windowsfeature\s+windows-defender/i,
    "security.disable",
  ],
  [/start-process\s[^\n]{0,300}-verb\s+runas|\brunas\s+\/user:|\bgsudo\b/i, "admin.rights"],
  [/net\.sockets\.tcpclient|system\.net\.sockets/i, "shell.reverse_shell"],
  [/schtasks\s[^\n]{0,40}\/create|register-scheduledtask|currentversion\\run\b|\\startup\\/i, "persistence.install"],
  [/promptforcredential|get-credential\s[^\n]{0,200}-message/i, "phishing.password"],
  [
    /remove-item\s[^\n]{0,80}-recurse[^\n]{0,80}(?:\s|["'])(?:c:\\\\?|\$home|~|\$env:userprofile)(?:["'\s]|$)|format\s+c:|rd\s+\/s\s+\/q\s+c:\\\s*$/i,
    "destroy.home_or_root",
  ],
];
const MAX_STATEMENTS = 4000;

const baseName = (p: string) => p.replace(/^.*[\\/]/, "").toLowerCase();

export function auditPowerShell(text: string, place: Place, ctx: Ctx): void {
  const add = (rule: InstructionRuleId, line: number, excerpt: string) =>
    ctx.findings.push(makeFinding(rule, place, excerpt, line));
  const lines = text.split("\n");
  let envDump = false;
  const saved = new Set<string>();
  let sendsData = false;
  let seen = 0;
  const keys = keyTracker();
  for (let i = 0; i < lines.length && seen < MAX_STATEMENTS; i++) {
    const line = lines[i]!.slice(0, 4096);
    if (!line.trim() || /^\s*#/.test(line)) continue;
    seen++;
    ctx.asks.add("shell");
    keys.read(line);
    for (const statement of line.split(";")) {
      if (DOWNLOAD.test(statement) && keys.sentElsewhere(statement)) add("secrets.key_exfil", i, statement);
      if (EXEC.test(statement) && DOWNLOAD.test(statement)) {
        const urls = [...statement.matchAll(URL)].map((m) => m[0]);
        add(
          urls.length && urls.every(isKnownInstaller) ? "shell.known_installer" : "shell.download_exec",
          i,
          statement,
        );
      }
      if (EXEC.test(statement) && FROM_BASE64.test(text)) add("encoded.exec", i, statement);
      const enc = ENCODED.exec(statement);
      if (enc && /\b(?:powershell|pwsh)(?:\.exe)?\b/i.test(statement)) {
        add("encoded.exec", i, statement);
        const bytes = decodeBase64(enc[1]!);
        const decoded = bytes ? bytes.toString("utf16le") : "";
        if (decoded && decoded.length <= ctx.decodeBudget) {
          ctx.decodeBudget -= decoded.length;
          deeper(ctx, () => auditPowerShell(decoded, { resource: place.resource, line: place.line + i }, ctx));
        } else add("encoded.opaque", i, statement);
      }
      for (const [re, rule] of RULES) if (re.test(statement)) add(rule, i, statement);
      if (/\b(?:get-childitem|gci|dir|ls)\s+env:|\[environment\]::getenvironmentvariables\(\)/i.test(statement))
        envDump = true;
      if (/-body\b|-infile\b|uploadstring|uploadfile|uploaddata/i.test(statement)) sendsData = true;
      if (DOWNLOAD.test(statement)) ctx.asks.add("network");
      const out = /-outfile\s+["']?([^\s"';]+)|downloadfile\([^,]+,\s*["']([^"']+)/i.exec(statement);
      if (out) saved.add(baseName(out[1] ?? out[2] ?? ""));
      const run = /(?:start-process|invoke-item|msiexec(?:\.exe)?\s+\/i|^\s*&|^\s*\.\\)\s*["']?([^\s"';]+)/i.exec(
        statement,
      );
      if (run && saved.has(baseName(run[1]!))) {
        ctx.asks.add("download_run");
        add("shell.download_run", i, statement);
      }
      if (/start-process\s[^\n]{0,300}-verb\s+runas/i.test(statement)) ctx.asks.add("admin");
    }
  }
  if (envDump && sendsData) add("env.exfil", 0, "environment variables sent with a web request");
  if (FROM_BASE64.test(text)) auditEncodedLiterals(text, place, ctx, EXEC.test(text));
}

const ENV_READ = /\$env:(\w+)|\[environment\]::getenvironmentvariable\(\s*["'](\w+)["']/gi;
const ASSIGN = /^\s*\$(\w+)\s*=\s*(.*)$/;

/**
 * Names (`$k = $env:OPENAI_API_KEY`, `$h = @{ Authorization = "Bearer $env:…" }`, also over several
 * lines) that hold a documented service key or a web address, and whether a statement sends one of
 * those keys to a host that is not its service's own.
 */
function keyTracker() {
  const keyVars = new Map<string, string>();
  const urlVars = new Map<string, string>();
  let open: string | null = null;
  const keysIn = (text: string): string[] => {
    const out = [...text.matchAll(ENV_READ)].map((m) => (m[1] ?? m[2]!).toUpperCase()).filter((k) => serviceOfKey(k));
    for (const m of text.matchAll(/\$(\w+)/g)) {
      const held = keyVars.get(m[1]!.toLowerCase());
      if (held) out.push(held);
    }
    return out;
  };
  const urlsIn = (text: string): string[] => {
    const out = [...text.matchAll(URL)].map((m) => m[0]);
    for (const m of text.matchAll(/\$(\w+)/g)) {
      const held = urlVars.get(m[1]!.toLowerCase());
      if (held) out.push(held);
    }
    return out;
  };
  return {
    read(line: string): void {
      const a = ASSIGN.exec(line);
      const name = a ? a[1]!.toLowerCase() : open;
      if (!name) return;
      if (a) open = /@\{\s*$/.test(a[2]!) ? name : null;
      else if (/^\s*\}/.test(line)) open = null;
      const key = keysIn(a ? a[2]! : line)[0];
      const url = a ? urlsIn(a[2]!)[0] : undefined;
      if (key) keyVars.set(name, key);
      else if (url && !open) urlVars.set(name, url);
    },
    sentElsewhere(statement: string): boolean {
      const keys = keysIn(statement);
      return keys.length > 0 && keySentElsewhere(keys, urlsIn(statement)) !== null;
    },
  };
}
