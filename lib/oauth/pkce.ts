// PKCE (RFC 7636), S256 only: the token request's verifier must hash to the authorization
// request's challenge. Pure.
import { createHash, timingSafeEqual } from "node:crypto";

/** 43 to 128 characters of [A-Za-z0-9-._~], the same shape for challenges (base64url of 32 bytes). */
export const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export const s256 = (verifier: string) => createHash("sha256").update(verifier, "ascii").digest("base64url");

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!PKCE_VALUE.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
