// Password hashing for people who sign in with email and password: scrypt from node:crypto at
// the OWASP Password Storage Cheat Sheet's parameters (N = 2^17, r = 8, p = 1: 128 MiB, about half a
// second here), stored self-describing (`scrypt$N$r$p$salt$hash`, base64url). A hash made with
// weaker parameters still verifies, and needsRehash() tells sign-in to store a new one.
import "server-only";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

export const SCRYPT_N = 2 ** 17;
export const SCRYPT_R = 8;
export const SCRYPT_P = 1;
const N = SCRYPT_N;
const R = SCRYPT_R;
const P = SCRYPT_P;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
// scrypt needs 128·N·r bytes; Node's default maxmem (32 MiB) is exactly that, which it refuses.
const maxmemFor = (n: number, r: number) => 128 * n * r * 2;

function derive(password: string, salt: Buffer, keyLen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, { N, r: R, p: P, maxmem: maxmemFor(N, R) });
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** True when `stored` was made with other parameters than today's (or cannot be read). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split("$");
  return scheme !== "scrypt" || Number(n) !== N || Number(r) !== R || Number(p) !== P;
}

/** True when `password` matches `stored`; false for a wrong password or a malformed hash. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, nText, rText, pText, saltText, hashText] = parts as [string, string, string, string, string, string];
  const n = Number(nText);
  const r = Number(rText);
  const p = Number(pText);
  // Bounds keep a tampered hash from asking for unbounded memory or CPU.
  const sane =
    Number.isInteger(n) && n >= 2 ** 10 && n <= 2 ** 20 && (n & (n - 1)) === 0 &&
    Number.isInteger(r) && r >= 1 && r <= 32 &&
    Number.isInteger(p) && p >= 1 && p <= 16;
  if (!sane) return false;
  const salt = Buffer.from(saltText, "base64url");
  const expected = Buffer.from(hashText, "base64url");
  if (salt.length < 8 || expected.length < 16 || expected.length > 64) return false;
  const actual = await derive(password, salt, expected.length, { N: n, r, p, maxmem: maxmemFor(n, r) });
  return timingSafeEqual(actual, expected);
}
