// The Link request signature: the Link signs, the server verifies (lib/protocol is both sides).
// Pure: no database, no config. A request is signed with the Link's Ed25519 key over method, path
// (with query), timestamp, nonce and the body's sha256; the server keeps only public keys.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  verify,
} from "node:crypto";
import type { KeyObject } from "node:crypto";

export const SIGNATURE_VERSION = "OV-LINK-SIG-V1";
/** Most a request's timestamp may differ from the server's clock. */
export const MAX_CLOCK_SKEW_MS = 60_000;
/** A nonce is remembered at least this long, so a replay inside the skew window is caught. */
export const NONCE_TTL_MS = 2 * MAX_CLOCK_SKEW_MS + 10_000;

export const HEADERS = {
  link: "x-ov-link",
  timestamp: "x-ov-timestamp",
  nonce: "x-ov-nonce",
  signature: "x-ov-signature",
} as const;

export type SignedHeaders = Record<(typeof HEADERS)[keyof typeof HEADERS], string>;

export type LinkKeyPair = { publicKey: string; privateKeyPem: string };

// Reading a PEM key costs more than signing with it: each key is read once (a Link has one).
const privateKeys = new Map<string, KeyObject>();

/** The key object of a private key in PEM, read once and kept (a handful at most). */
export function privateKeyOf(pem: string): KeyObject {
  let key = privateKeys.get(pem);
  if (!key) {
    key = createPrivateKey(pem);
    if (privateKeys.size >= 8) privateKeys.clear();
    privateKeys.set(pem, key);
  }
  return key;
}

/** A new Ed25519 key pair: the public key as base64url (32 raw bytes), the private key as PKCS#8 PEM. */
export function generateLinkKeyPair(): LinkKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return {
    publicKey: publicKeyToText(publicKey),
    privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  };
}

export function publicKeyToText(key: KeyObject): string {
  const jwk = key.export({ format: "jwk" });
  if (jwk.crv !== "Ed25519" || typeof jwk.x !== "string") throw new Error("not an Ed25519 public key");
  return jwk.x;
}

/** Keys parsed lately (a Link signs every request with the same one), oldest first. */
const parsedKeys = new Map<string, KeyObject>();
const PARSED_KEYS_MAX = 1024;

/** Parses a base64url Ed25519 public key, or returns null when it is not one. */
export function parsePublicKey(text: string): KeyObject | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const known = parsedKeys.get(text);
  if (known) return known;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: text }, format: "jwk" });
  } catch {
    return null;
  }
  if (parsedKeys.size >= PARSED_KEYS_MAX) parsedKeys.delete(parsedKeys.keys().next().value!);
  parsedKeys.set(text, key);
  return key;
}

export function sha256Hex(body: Uint8Array | string): string {
  return createHash("sha256").update(body).digest("hex");
}

export function stringToSign(p: {
  method: string;
  path: string;
  timestamp: string;
  nonce: string;
  bodySha256: string;
}) {
  return [SIGNATURE_VERSION, p.method.toUpperCase(), p.path, p.timestamp, p.nonce, p.bodySha256].join("\n");
}

/** Headers that sign one request as `linkId` (for pairing, linkId is the public key itself). */
export function signRequest(p: {
  linkId: string;
  privateKeyPem: string;
  method: string;
  path: string;
  body?: Uint8Array | string;
  now?: number;
  nonce?: string;
}): SignedHeaders {
  const timestamp = String(p.now ?? Date.now());
  const nonce = p.nonce ?? randomBytes(16).toString("base64url");
  const message = stringToSign({
    method: p.method,
    path: p.path,
    timestamp,
    nonce,
    bodySha256: sha256Hex(p.body ?? ""),
  });
  const signature = sign(null, Buffer.from(message), privateKeyOf(p.privateKeyPem)).toString("base64url");
  return {
    [HEADERS.link]: p.linkId,
    [HEADERS.timestamp]: timestamp,
    [HEADERS.nonce]: nonce,
    [HEADERS.signature]: signature,
  };
}

export type SignatureProblem = "missing" | "malformed" | "clock_skew" | "invalid";

export type ParsedSignature = { linkId: string; timestamp: number; nonce: string; signature: Buffer };

/** Reads the signature headers; returns a problem instead of throwing. */
export function readSignatureHeaders(get: (name: string) => string | null): ParsedSignature | "missing" | "malformed" {
  const linkId = get(HEADERS.link);
  const ts = get(HEADERS.timestamp);
  const nonce = get(HEADERS.nonce);
  const sig = get(HEADERS.signature);
  if (!linkId || !ts || !nonce || !sig) return "missing";
  if (!/^\d{1,15}$/.test(ts) || !/^[A-Za-z0-9_-]{16,64}$/.test(nonce) || !/^[A-Za-z0-9_-]{86}$/.test(sig)) {
    return "malformed";
  }
  if (linkId.length > 64) return "malformed";
  return { linkId, timestamp: Number(ts), nonce, signature: Buffer.from(sig, "base64url") };
}

/** Checks clock skew and the signature itself. Replay (nonce reuse) is the caller's check. */
export function verifySignature(p: {
  parsed: ParsedSignature;
  publicKey: KeyObject;
  method: string;
  path: string;
  body: Uint8Array | string;
  now?: number;
}): true | Exclude<SignatureProblem, "missing" | "malformed"> {
  if (Math.abs((p.now ?? Date.now()) - p.parsed.timestamp) > MAX_CLOCK_SKEW_MS) return "clock_skew";
  const message = stringToSign({
    method: p.method,
    path: p.path,
    timestamp: String(p.parsed.timestamp),
    nonce: p.parsed.nonce,
    bodySha256: sha256Hex(p.body),
  });
  return verify(null, Buffer.from(message), p.publicKey, p.parsed.signature) ? true : "invalid";
}
