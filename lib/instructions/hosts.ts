// Web addresses in any text: which host each names, and whether that host imitates another
// (mixed scripts, look-alike letters, punycode) or is a bare IP, a paste site or a link shortener.
// Script detection uses `\p{Script=…}` classes over one label at a time (linear).
import { domainToUnicode } from "node:url";

const URL_RE = /\b(?:https?|ftp):\/\/[^\s"'`<>()\[\]{}\\]{1,2048}/gi;
/** URLs read per text; the rest are not needed to judge it. */
const MAX_URLS = 200;

export type FoundUrl = { url: string; host: string; index: number };

export function findUrls(text: string): FoundUrl[] {
  const out: FoundUrl[] = [];
  for (const m of text.matchAll(URL_RE)) {
    if (out.length >= MAX_URLS) break;
    const host = hostOf(m[0]);
    if (host) out.push({ url: m[0], host, index: m.index });
  }
  return out;
}

/** The host of a URL in Unicode (punycode decoded), lowercased; "" when it has none. */
export function hostOf(url: string): string {
  const m = /^[a-z]+:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]+)/i.exec(url);
  if (!m) return "";
  let host = m[1]!.toLowerCase().replace(/\.$/, "");
  if (host.includes("xn--")) host = domainToUnicode(host) || host;
  return host;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** A public IPv4 or IPv6 literal (loopback, private and link-local ranges are local work). */
export function isPublicIp(host: string): boolean {
  if (host.startsWith("[")) return !/^\[(?:::1|fe80:|fc|fd)/i.test(host);
  const m = IPV4.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  if (a === 127 || a === 10 || a === 0 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254)) return false;
  return true;
}

const PASTE_SITES = new Set([
  "pastebin.com", "paste.ee", "hastebin.com", "ghostbin.com", "ghostbin.co", "rentry.co", "rentry.org", "paste.rs",
  "transfer.sh", "termbin.com", "0x0.st", "glot.io", "dpaste.org", "dpaste.com", "controlc.com", "justpaste.it",
  "pastie.org", "file.io", "anonfiles.com", "gofile.io", "temp.sh", "ix.io", "sprunge.us", "paste.c-net.org",
]);
const SHORTENERS = new Set([
  "bit.ly", "tinyurl.com", "t.co", "is.gd", "goo.gl", "rb.gy", "cutt.ly", "ow.ly", "buff.ly", "shorturl.at", "tiny.cc",
  "v.gd", "t.ly", "rebrand.ly", "bl.ink", "s.id", "lnkd.in", "shorte.st", "adf.ly", "qr.ae", "soo.gd", "clck.ru",
]);

const registrable = (host: string) => host.split(".").slice(-2).join(".");
export const isPasteSite = (host: string) => PASTE_SITES.has(host) || PASTE_SITES.has(registrable(host));
export const isShortener = (host: string) => SHORTENERS.has(host) || SHORTENERS.has(registrable(host));

/** Installers many projects tell people to pipe into a shell: flagged, not failed. */
const KNOWN_INSTALLERS = [
  "sh.rustup.rs", "get.docker.com", "raw.githubusercontent.com/homebrew/", "install.python-poetry.org", "deno.land/install",
  "deno.land/x/install", "bun.sh/install", "astral.sh/uv/", "astral.sh/ruff/", "get.pnpm.io", "raw.githubusercontent.com/nvm-sh/nvm/",
  "ollama.com/install", "claude.ai/install", "get.volta.sh", "fnm.vercel.app/install", "sdk.cloudflare.com", "cli.github.com",
  "tailscale.com/install", "get.k3s.io", "raw.githubusercontent.com/helm/helm/", "starship.rs/install", "pyenv.run",
  "get.scoop.sh", "community.chocolatey.org/install", "install.determinate.systems", "nixos.org/nix/install",
  "opencode.ai/install", "cursor.com/install", "foundry.paradigm.xyz", "sh.vector.dev", "downloads.nordcdn.com",
  "raw.githubusercontent.com/ohmyzsh/ohmyzsh/", "mise.run", "get.rvm.io", "rpm.nodesource.com", "deb.nodesource.com",
  "install.meteor.com", "get.sdkman.io", "dot.net/v1/dotnet-install", "sh.wasmer.io", "get.wasmer.io", "supabase.com/install",
  "vercel.com/install", "fly.io/install", "cli.doppler.com/install", "tea.xyz", "pkgx.sh", "getcomposer.org/installer",
];

export function isKnownInstaller(url: string): boolean {
  const rest = url.replace(/^[a-z]+:\/\/(?:www\.)?/i, "").toLowerCase();
  if (!/^https:\/\//i.test(url) && /^[a-z]+:\/\//i.test(url)) return false;
  // a project's own installer from its own repository (babashka/babashka, ohmyzsh/ohmyzsh)
  const gh = /^raw\.githubusercontent\.com\/([\w.-]+)\/([\w.-]+)\//.exec(rest);
  if (gh && gh[1] === gh[2]) return true;
  return KNOWN_INSTALLERS.some((k) => rest.startsWith(k));
}

/** Characters of other scripts that read as Latin letters. */
const LATIN_LOOKALIKE = /[\u0430\u0435\u043e\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u04bb\u0501\u051b\u051d\u03bf\u03b1\u03bd\u03c1\u03b5\u0131\u0261\u0269\u0585\u0578\u057d]/u;
const SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u, /\p{Script=Armenian}/u, /\p{Script=Cherokee}/u];
const FULLWIDTH_OR_MATH = /[\uff01-\uff5e\u{1d400}-\u{1d7ff}\u2024\u2027\u3002\uff0e\u2100-\u214f]/u;

/** A host that imitates another: mixed scripts in one label, look-alike letters, full-width forms. */
export function isConfusableHost(host: string): boolean {
  if (!/[^\x00-\x7f]/.test(host)) return false;
  if (FULLWIDTH_OR_MATH.test(host)) return true;
  for (const label of host.split(".")) {
    if (!/[^\x00-\x7f]/.test(label)) continue;
    let scripts = 0;
    for (const s of SCRIPTS) if (s.test(label)) scripts++;
    if (scripts > 1) return true;
    // a whole label of look-alikes (e.g. Cyrillic "аррӏе") reads as a Latin name
    if (LATIN_LOOKALIKE.test(label) && [...label].every((ch) => /[\p{Script=Latin}\d-]/u.test(ch) || LATIN_LOOKALIKE.test(ch))) return true;
  }
  return false;
}

/** Sites people are tricked into trusting by a one-letter change of their name. */
const POPULAR_SITES = [
  "github", "gitlab", "google", "microsoft", "apple", "amazon", "paypal", "openai", "anthropic", "npmjs", "pypi",
  "python", "docker", "cloudflare", "dropbox", "discord", "telegram", "binance", "coinbase", "metamask", "slack",
  "stripe", "vercel", "netlify", "heroku", "notion", "figma", "atlassian", "bitbucket", "facebook", "twitter",
  "linkedin", "huggingface", "nodejs", "rustup", "brew", "homebrew", "ubuntu", "debian", "mozilla", "openclaw",
];

/** A host whose main name is one edit away from a popular site's (githuh.com, paypa1.com). */
export function isLookalikeHost(host: string): boolean {
  const labels = host.split(".");
  if (labels.length < 2) return false;
  const name = labels[labels.length - 2]!;
  if (name.length < 5 || POPULAR_SITES.includes(name)) return false;
  return POPULAR_SITES.some((p) => Math.abs(p.length - name.length) <= 1 && editDistanceAtMost(p, name, 1));
}

/** Optimal string alignment distance ≤ k (adjacent swaps count one), banded: O(n·k). */
export function editDistanceAtMost(a: string, b: string, k: number): boolean {
  if (Math.abs(a.length - b.length) > k) return false;
  if (a.length > 214 || b.length > 214) return false;
  const n = a.length;
  const m = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  for (let i = 1; i <= n; i++) {
    const cur = new Array<number>(m + 1).fill(k + 1);
    cur[0] = i;
    let best = cur[0];
    for (let j = Math.max(1, i - k); j <= Math.min(m, i + k); j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      best = Math.min(best, v);
    }
    if (best > k) return false;
    prev2 = prev;
    prev = cur;
  }
  return prev[m]! <= k;
}
