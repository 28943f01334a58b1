// Checks that hold for any text, whatever its language: the web addresses it names, and a few
// signatures no honest skill carries (mining pools, a /dev/tcp socket, a password dialog).
// Every pattern is a bounded alternation without nested quantifiers (linear).
import { findUrls, isConfusableHost, isLookalikeHost, isPasteSite, isPublicIp, isShortener } from "./hosts";
import { makeFinding, type AuditFinding, type Place } from "./rules";

const MINER = /(?:--donate-level|\b(?:stratum\+(?:tcp|ssl|tls):\/\/|xmrig|cpuminer|minerd|nicehash|supportxmr|moneroocean|nanopool\.org|2miners\.com|f2pool)\b)/i;
const DIALOG = /display dialog[^\n]{0,300}(?:hidden answer|password)|(?:zenity|kdialog|yad)\b[^\n]{0,200}--password|PromptForCredential/i;
const RAW_SOCKET = /\/dev\/(?:tcp|udp)\/|fsockopen\s*\(|TCPClient\s*\(/i;

export type TextOptions = { code: boolean };

export function textFindings(text: string, place: Place, options: TextOptions): AuditFinding[] {
  const out: AuditFinding[] = [];
  for (const u of findUrls(text)) {
    const at = lineAt(text, u.index);
    if (isConfusableHost(u.host) || isLookalikeHost(u.host)) out.push(makeFinding("host.confusable", place, u.url, at));
    else if (isPublicIp(u.host)) out.push(makeFinding("net.raw_ip", place, u.url, at));
    else if (isPasteSite(u.host)) out.push(makeFinding("net.paste_site", place, u.url, at));
    else if (isShortener(u.host)) out.push(makeFinding("net.shortener", place, u.url, at));
  }
  if (!options.code) return out;
  const miner = MINER.exec(text);
  if (miner) out.push(makeFinding("miner.crypto", place, excerptAt(text, miner.index), lineAt(text, miner.index)));
  const dialog = DIALOG.exec(text);
  if (dialog) out.push(makeFinding("phishing.password", place, excerptAt(text, dialog.index), lineAt(text, dialog.index)));
  const sock = RAW_SOCKET.exec(text);
  if (sock) out.push(makeFinding("shell.reverse_shell", place, excerptAt(text, sock.index), lineAt(text, sock.index)));
  return out;
}

/** 0-based line of `index` in `text`. */
export function lineAt(text: string, index: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

export function excerptAt(text: string, index: number): string {
  const start = text.lastIndexOf("\n", index) + 1;
  const end = text.indexOf("\n", index);
  return text.slice(start, end === -1 ? undefined : end);
}
