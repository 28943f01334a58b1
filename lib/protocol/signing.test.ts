import { describe, expect, it } from "vitest";
import {
  HEADERS,
  MAX_CLOCK_SKEW_MS,
  generateLinkKeyPair,
  parsePublicKey,
  readSignatureHeaders,
  signRequest,
  verifySignature,
  type ParsedSignature,
} from "./signing";

const keys = generateLinkKeyPair();
const publicKey = parsePublicKey(keys.publicKey)!;
const now = 1_800_000_000_000;

function signed(over: Partial<Parameters<typeof signRequest>[0]> = {}) {
  const headers = signRequest({
    linkId: "lnk_1",
    privateKeyPem: keys.privateKeyPem,
    method: "POST",
    path: "/api/link/v1/result",
    body: '{"a":1}',
    now,
    ...over,
  });
  return readSignatureHeaders((n) => (headers as Record<string, string>)[n] ?? null) as ParsedSignature;
}

const check = (parsed: ParsedSignature, over: Partial<Parameters<typeof verifySignature>[0]> = {}) =>
  verifySignature({ parsed, publicKey, method: "POST", path: "/api/link/v1/result", body: '{"a":1}', now, ...over });

describe("link request signatures", () => {
  it("verifies a request signed with the Link's key", () => {
    expect(check(signed())).toBe(true);
  });

  it("refuses a changed body, path, method or nonce", () => {
    expect(check(signed(), { body: '{"a":2}' })).toBe("invalid");
    expect(check(signed(), { path: "/api/link/v1/poll" })).toBe("invalid");
    expect(check(signed(), { method: "PUT" })).toBe("invalid");
    expect(check({ ...signed(), nonce: "AAAAAAAAAAAAAAAAAAAAAA" })).toBe("invalid");
  });

  it("refuses another key's signature", () => {
    const other = generateLinkKeyPair();
    expect(check(signed({ privateKeyPem: other.privateKeyPem }))).toBe("invalid");
  });

  it("refuses a timestamp more than 60 s away, either side", () => {
    expect(check(signed({ now: now - MAX_CLOCK_SKEW_MS - 1 }))).toBe("clock_skew");
    expect(check(signed({ now: now + MAX_CLOCK_SKEW_MS + 1 }))).toBe("clock_skew");
    expect(check(signed({ now: now - MAX_CLOCK_SKEW_MS }))).toBe(true);
  });

  it("reports missing and malformed headers", () => {
    expect(readSignatureHeaders(() => null)).toBe("missing");
    const headers = { ...signRequest({ linkId: "l", privateKeyPem: keys.privateKeyPem, method: "GET", path: "/" }) };
    headers[HEADERS.timestamp] = "soon";
    expect(readSignatureHeaders((n) => (headers as Record<string, string>)[n] ?? null)).toBe("malformed");
  });

  it("parses only real Ed25519 public keys", () => {
    expect(parsePublicKey(keys.publicKey)).not.toBeNull();
    expect(parsePublicKey("not-a-key")).toBeNull();
    expect(parsePublicKey("A".repeat(44))).toBeNull();
  });
});
