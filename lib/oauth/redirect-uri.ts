// Which redirect URIs a client may register (RFC 6749 §3.1.2, RFC 8252 for native apps) and
// whether a requested one matches a registered one. Pure.

export const REDIRECT_URI_MAX = 2_000;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
// Schemes that would run or read something in the browser rather than hand a code to an app.
const REFUSED_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:", "ws:", "wss:", "ftp:", "mailto:"]);

/** Null when acceptable, else why not (for `invalid_redirect_uri`). */
export function redirectUriProblem(raw: string): string | null {
  if (raw.length > REDIRECT_URI_MAX) return `is over ${REDIRECT_URI_MAX} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "is not an absolute URL";
  }
  if (url.hash || raw.includes("#")) return "must not have a fragment (#…)";
  if (url.username || url.password) return "must not carry a user name or password";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:") return LOOPBACK.has(url.hostname) ? null : "may use http only on this machine (localhost, 127.0.0.1, [::1]); use https";
  if (REFUSED_SCHEMES.has(url.protocol)) return `may not use the ${url.protocol} scheme`;
  // An app's own scheme (RFC 8252 §7.1), e.g. cursor://… or com.example.app:/callback.
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? null : "has an invalid scheme";
}

/**
 * The registered URI a requested one stands for: an exact match, or for http loopback URIs the
 * same one on any port (RFC 8252 §7.3: native apps listen on a port chosen at run time).
 */
export function matchRedirectUri(requested: string, registered: readonly string[]): string | null {
  if (registered.includes(requested)) return requested;
  let want: URL;
  try {
    want = new URL(requested);
  } catch {
    return null;
  }
  if (want.protocol !== "http:" || !LOOPBACK.has(want.hostname) || want.hash) return null;
  for (const r of registered) {
    let have: URL;
    try {
      have = new URL(r);
    } catch {
      continue;
    }
    if (have.protocol === "http:" && have.hostname === want.hostname && have.pathname === want.pathname && have.search === want.search) {
      return requested;
    }
  }
  return null;
}
