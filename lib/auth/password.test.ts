import { describe, expect, it } from "vitest";
import { randomBytes, scryptSync } from "node:crypto";
import { hashPassword, needsRehash, verifyPassword } from "./password";

// scrypt at OWASP cost takes a few hundred ms per hash, and seconds on a loaded machine.
describe("password hashing", { timeout: 60_000 }, () => {
  it("encodes scrypt with its parameters, a 16-byte salt and a 32-byte key", async () => {
    const stored = await hashPassword("correct horse battery staple");
    const [scheme, n, r, p, salt, hash] = stored.split("$");
    // OWASP Password Storage Cheat Sheet: scrypt with N = 2^17, r = 8, p = 1.
    expect([scheme, n, r, p]).toEqual(["scrypt", "131072", "8", "1"]);
    expect(needsRehash(stored)).toBe(false);
    expect(Buffer.from(salt!, "base64url")).toHaveLength(16);
    expect(Buffer.from(hash!, "base64url")).toHaveLength(32);
    expect(stored).not.toContain("correct horse");
  });

  it("accepts the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts every hash", async () => {
    const [a, b] = await Promise.all([hashPassword("same password"), hashPassword("same password")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password", b)).toBe(true);
  });

  it("refuses malformed or tampered hashes instead of throwing", async () => {
    const stored = await hashPassword("pw-0123456789");
    const parts = stored.split("$");
    const withParts = (i: number, v: string) => parts.map((x, j) => (j === i ? v : x)).join("$");
    for (const bad of [
      "",
      "plain",
      "bcrypt$10$abc",
      withParts(0, "md5"),
      withParts(1, "1000"), // not a power of two
      withParts(1, String(2 ** 30)), // would ask for gigabytes
      withParts(2, "0"),
      withParts(4, ""),
      withParts(5, Buffer.alloc(32).toString("base64url")),
    ]) {
      expect(await verifyPassword("pw-0123456789", bad)).toBe(false);
    }
    expect(await verifyPassword("pw-0123456789", null)).toBe(false);
  });

  it("treats composed and decomposed Unicode as the same password", async () => {
    const stored = await hashPassword("caf\u00e9-password");
    expect(await verifyPassword("cafe\u0301-password", stored)).toBe(true);
  });

  it("still accepts a hash made at the old cost, and says it needs rehashing", async () => {
    const salt = randomBytes(16);
    const key = scryptSync("old-password-1", salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    const old = ["scrypt", 2 ** 15, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    expect(await verifyPassword("old-password-1", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });
});
