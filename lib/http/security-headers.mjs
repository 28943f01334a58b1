// @ts-check
// The response headers every page and API answer carries. Pages get a Content-Security-Policy
// with a fresh nonce per request (set by proxy.ts, which Next.js reads to put the nonce on its own
// scripts): no inline script runs without it, nothing may frame the site, and nothing loads from
// elsewhere. API answers are data: their policy allows nothing at all.

/** A fresh, unguessable nonce (128 bits, base64). */
/** @returns {string} */
export function newNonce() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The page policy for one response. `dev`: React's development build needs eval for its tooling. */
/** @param {string} nonce @param {{ dev?: boolean }} [options] @returns {string} */
export function pageCsp(nonce, options = {}) {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    // React sets style attributes (table alignment, chart colours); no script can hide in them.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The policy of API responses: JSON and bytes, never a document to render or frame. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Sent with every response (next.config.mjs applies them to every path). */
export const SECURITY_HEADERS = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Permissions-Policy":
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()",
  "Cross-Origin-Opener-Policy": "same-origin",
});
