// What instructions say in words: overriding the agent's rules, hiding actions from the person or
// acting without asking them, asking for secrets, and the "unpack this password-protected archive
// and run it" step of install scams. Each pattern is a bounded alternation over one prose block.
import { makeFinding, type AuditFinding, type InstructionRuleId, type Place } from "./rules";
import { CREDENTIAL_PATH } from "./shell-words";

/** Characters of one prose block the patterns read. */
const BLOCK_MAX = 8192;

const PATTERNS: [RegExp, InstructionRuleId][] = [
  [
    /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:(?:of\s+)?(?:your|the|my|these|those)\s+)?(?:previous|prior|earlier|above|preceding|original|system|safety|security)\s+(?:instructions|prompts?|rules|guidelines|directions|guardrails|policies|restrictions)\b/i,
    "prose.override",
  ],
  [/\b(?:you are no longer bound by|you have no (?:rules|restrictions|guidelines)|(?:enable|enter|activate) (?:developer|god|jailbreak|DAN) mode|new system prompt:|your (?:real|true|new) instructions are)\b/i, "prose.override"],
  [
    /\b(?:do not|don't|never|without)\s+(?:mention(?:ing)?|tell(?:ing)?|inform(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|show(?:ing)?|notify(?:ing)?|alert(?:ing)?|let(?:ting)?)\s+(?:this\s+|it\s+|any\s+of\s+this\s+|these\s+steps\s+|that\s+)?(?:to\s+)?(?:the\s+|your\s+)?(?:user|person|human|owner|operator)s?\b(?!['’]s\s+(?:name|email))/i,
    "prose.conceal",
  ],
  [/\bwithout\s+(?:asking|telling|informing|notifying|consulting|alerting)\s+(?:the\s+|your\s+)?(?:user|person|human|owner|them|anyone)\b(?:\s+(?:first|for\s+(?:permission|confirmation|consent)))?/i, "prose.conceal"],
  [/\b(?:secretly|covertly|silently|quietly|in the background)\s+(?:send|upload|post|exfiltrate|copy|forward|run|execute|install|download)\b|\bhide\s+(?:this|it|the\s+(?:output|command|request|upload))\s+from\s+(?:the\s+)?(?:user|person|human)\b|\b(?:don't|do not) (?:ask|wait) for (?:permission|confirmation|consent) (?:before|to) (?:send|upload|run|execute|install|download|delete)/i, "prose.conceal"],
  [
    /\b(?:ask|prompt|request|get)\s+(?:the\s+|your\s+)?(?:user|person|human|owner|them)\s+(?:for|to\s+(?:enter|type|paste|provide|share|give))\s+(?:their|his|her|your|the)?\s*(?:(?:sudo|system|login|account|admin|mac|keychain|root)\s+)?(?:password|passphrase|seed phrase|recovery phrase|mnemonic|private key|secret key|2fa code|one[- ]time code|otp|credit card|card number|cvv)\b/i,
    "prose.secret_request",
  ],
  [/\b(?:paste|enter|type|send|share|provide)\s+(?:your|the)\s+(?:(?:sudo|system|login|account|admin|mac|keychain|root)\s+)?(?:password|seed phrase|recovery phrase|mnemonic|private key|wallet key|secret recovery phrase)\s+(?:here|below|in(?:to)?\s+(?:the\s+)?(?:chat|reply|message|form|field|dialog))/i, "prose.secret_request"],
];

const ARCHIVE = /\b(?:zip|rar|7z|archive)\b/i;
const ARCHIVE_PASSWORD = /\b(?:password|passcode|pass|pwd)\s*(?:is|:|=|-)?\s*[`"'*]*[\w@#$!.-]{2,40}/i;
const RUN_PROGRAM = /\.(?:exe|msi|app|dmg|pkg|scr|bat|cmd|command|jar|appimage)\b|\b(?:run|open|launch|execute|start|double[- ]click)\s+(?:the\s+)?(?:installer|setup|program|binary|file|executable|app|agent|tool)\b/i;

/** Words for secrets a sentence may tell the agent to send somewhere. */
const SECRET_WORDS = /(?:\b(?:ssh (?:private )?keys?|private keys?|api keys|access tokens|credentials|passwords|cookies|environment variables|env vars|seed phrases?|wallet files?)\b|(?:^|[\s`'"(])\.env\b)/i;
const SEND_VERB = /\b(?:send|upload|post|forward|exfiltrate|transmit|copy|paste|submit|email|mail)\b/gi;
const DESTINATION = /\b(?:to|into|at)\s+(?:\S+\s+){0,6}?(?:<?https?:\/\/|[\w-]+\.(?:com|net|org|io|xyz|top|ru|cn|app|dev|site|online|cc|me)\b)/i;

/** Where a sentence tells the agent to send something to a web address, or -1 (at most 20 verbs, 300 characters each). */
function sendsToHost(block: string): number {
  let n = 0;
  for (const m of block.matchAll(SEND_VERB)) {
    if (++n > 20) break;
    const window = block.slice(m.index, m.index + 300).split("\n")[0]!;
    if (DESTINATION.test(window)) return m.index;
  }
  return -1;
}

export function proseFindings(text: string, place: Place, teaching: boolean): AuditFinding[] {
  const block = text.slice(0, BLOCK_MAX);
  const out: AuditFinding[] = [];
  const secret = CREDENTIAL_PATH.exec(block) ?? SECRET_WORDS.exec(block);
  const send = secret ? sendsToHost(block) : -1;
  if (send !== -1) out.push(teaching ? quoted("secrets.exfil", place, block, send) : makeFinding("secrets.exfil", place, excerpt(block, send), lineOf(block, send)));
  for (const [re, rule] of PATTERNS) {
    const m = re.exec(block);
    if (m) out.push(teaching ? quoted(rule, place, block, m.index) : makeFinding(rule, place, excerpt(block, m.index), lineOf(block, m.index)));
  }
  return out;
}

/** Across a whole document: an archive, its password and running what is inside. */
export function archiveScamFindings(prose: string, place: Place): AuditFinding[] {
  const text = prose.slice(0, 64 * 1024);
  const a = ARCHIVE.exec(text);
  if (!a) return [];
  const window = text.slice(Math.max(0, a.index - 600), a.index + 600);
  const p = ARCHIVE_PASSWORD.exec(window);
  if (!p || !RUN_PROGRAM.test(text)) return [];
  return [makeFinding("archive.password_exec", place, excerpt(text, a.index), lineOf(text, a.index))];
}

/** A quoted attack in teaching material: shown, flagged, not failed. */
function quoted(rule: InstructionRuleId, place: Place, block: string, index: number): AuditFinding {
  const f = makeFinding(rule, place, excerpt(block, index), lineOf(block, index));
  return { ...f, severity: "flag", message: `quotes an example of text that ${f.message.replace(/^tells/, "would tell").replace(/^asks/, "would ask")} (teaching material)` };
}

function lineOf(text: string, index: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
function excerpt(text: string, index: number): string {
  return text.slice(Math.max(0, index - 20), index + 140);
}
