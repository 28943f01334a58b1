// The instruction audit's vocabulary: its stable rule ids, their severities and the sentence a person
// reads. Findings have the code scanner's shape (lib/scan/rules.ts) and share its verdict scale.
import type { Finding, RuleId } from "../scan/rules";

export const INSTRUCTION_RULES = {
  "shell.download_exec": {
    severity: "fail",
    message: "asks to download a program and feed it straight into a shell or interpreter",
  },
  "shell.known_installer": {
    severity: "flag",
    message: "asks to pipe a well-known installer from the internet into a shell",
  },
  "shell.download_run": {
    severity: "fail",
    message: "asks to download a program, make it executable and run it",
  },
  "encoded.exec": {
    severity: "fail",
    message: "runs a command that is hidden in encoded text (base64, hex or character codes)",
  },
  "encoded.opaque": {
    severity: "fail",
    message: "runs encoded data that cannot be read back as a command, so it is treated as unsafe",
  },
  "shell.reverse_shell": { severity: "fail", message: "opens a remote shell: someone else could control the machine" },
  "secrets.exfil": {
    severity: "fail",
    message:
      "reads credentials (SSH keys, cloud or browser secrets, the keychain, .env) and sends them over the network",
  },
  "secrets.key_exfil": {
    severity: "fail",
    message: "sends a service's API key (for example OPENAI_API_KEY) to a host that is not that service's own",
  },
  "env.exfil": {
    severity: "fail",
    message: "sends all of your environment variables, where secrets live, over the network",
  },
  "persistence.install": {
    severity: "fail",
    message: "makes something start again by itself later (crontab, launchd, systemd, shell start-up files)",
  },
  "persistence.schedule": { severity: "flag", message: "has you schedule a job yourself (crontab -e)" },
  "persistence.shell_rc": {
    severity: "flag",
    message: "changes a shell start-up file (for example to add a folder to PATH)",
  },
  "phishing.password": { severity: "fail", message: "shows a fake dialog or prompt that asks for your password" },
  "miner.crypto": { severity: "fail", message: "runs a cryptocurrency miner" },
  "destroy.home_or_root": {
    severity: "fail",
    message: "deletes or overwrites your home folder, the whole disk or the system",
  },
  "security.disable": {
    severity: "fail",
    message: "turns off a protection of the machine (quarantine, Gatekeeper, antivirus, firewall)",
  },
  "archive.password_exec": {
    severity: "fail",
    message: "has you unpack a password-protected archive and run what is inside (a way to hide malware from scanners)",
  },
  "prose.override": { severity: "fail", message: "tells the agent to ignore its rules or earlier instructions" },
  "prose.conceal": {
    severity: "fail",
    message: "tells the agent to hide what it does from you or to act without asking you",
  },
  "prose.secret_request": { severity: "fail", message: "asks for a password, private key or recovery phrase" },
  "unicode.hidden": {
    severity: "fail",
    message: "contains invisible characters (tag characters, zero-width or direction controls) that hide text",
  },
  "host.confusable": {
    severity: "fail",
    message: "names a web address that imitates another one (look-alike letters from other alphabets)",
  },
  "admin.rights": { severity: "flag", message: "asks for administrator rights (sudo or the like)" },
  "net.raw_ip": { severity: "flag", message: "downloads from a bare IP address instead of a named site" },
  "net.paste_site": { severity: "flag", message: "downloads from a paste site or file drop that anyone can write to" },
  "net.shortener": { severity: "flag", message: "uses a shortened link that hides where it really goes" },
  "package.typosquat": {
    severity: "flag",
    message: "installs a package whose name is one or two letters away from a popular one",
  },
  "python.exec_dynamic": { severity: "flag", message: "turns text built at run time into running Python code" },
  "script.too_complex": {
    severity: "fail",
    message: "is too large or too deeply nested to audit safely, so it is treated as unsafe",
  },
} as const satisfies Record<string, { severity: "fail" | "flag"; message: string }>;

export type InstructionRuleId = keyof typeof INSTRUCTION_RULES;

/** A finding of the instruction audit; JavaScript scripts keep the code scanner's own rule ids. */
export type AuditFinding = Omit<Finding, "rule"> & { rule: InstructionRuleId | RuleId };

/** A text to audit, with where it sits: its resource and the line its first character is on. */
export type Place = { resource: string; line: number };

export function makeFinding(rule: InstructionRuleId, place: Place, excerpt: string, lineOffset = 0): AuditFinding {
  const r = INSTRUCTION_RULES[rule];
  return {
    rule,
    severity: r.severity,
    resource: place.resource,
    line: place.line + lineOffset,
    column: 1,
    excerpt: oneLine(excerpt),
    message: r.message,
  };
}

const EXCERPT_MAX = 160;
export function oneLine(s: string): string {
  const flat = s
    .slice(0, EXCERPT_MAX * 2)
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > EXCERPT_MAX ? flat.slice(0, EXCERPT_MAX - 1) + "…" : flat;
}

/** One finding per rule, resource and line is enough for a person. */
export function dedupe(findings: AuditFinding[]): AuditFinding[] {
  const seen = new Set<string>();
  const out: AuditFinding[] = [];
  for (const f of findings) {
    const k = `${f.rule}\u0000${f.resource}\u0000${f.line}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(f);
  }
  return out;
}
