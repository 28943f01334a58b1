// Pairing a machine: the person gets a one-time code on the Links page; the Link presents it with
// its new public key and proves it holds the private key by signing the pairing request with it.
import "server-only";
import { createHash, randomInt } from "node:crypto";
import { AppError } from "../errors";
import { db } from "../db";
import { redis, key } from "../redis";
import { NONCE_TTL_MS, pairResponseSchema, parsePublicKey, readSignatureHeaders, verifySignature } from "../protocol";
import { recordAudit } from "../audit";

/** A pairing code is good for this long, once. */
export const PAIRING_CODE_TTL_MS = 10 * 60_000;
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I
const CODE_LENGTH = 10;

export function hashPairingCode(code: string): string {
  return createHash("sha256").update(normalisePairingCode(code)).digest("hex");
}

export function normalisePairingCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

/** Makes a code like `KX7P-QM2R-9T`; only its hash is stored. */
export async function createPairingCode(userId: string): Promise<{ code: string; expiresAt: Date }> {
  let raw = "";
  for (let i = 0; i < CODE_LENGTH; i++) raw += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  const code = `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
  const expiresAt = new Date(Date.now() + PAIRING_CODE_TTL_MS);
  await db.linkPairingCode.create({ data: { userId, codeHash: hashPairingCode(code), expiresAt } });
  return { code, expiresAt };
}

/**
 * Registers a Link. The request is signed with the new key and carries it in the link header, so
 * the server learns the key only together with proof that the caller holds its private half.
 */
export async function pairLink(req: Request, rawBody: string, body: { code: string; name: string }) {
  const parsed = readSignatureHeaders((name) => req.headers.get(name));
  if (parsed === "missing" || parsed === "malformed") {
    throw new AppError("link.signature.missing", "Pair with `openvibe-link pair CODE`: the request must be signed.");
  }
  const publicKey = parsePublicKey(parsed.linkId);
  if (!publicKey) throw new AppError("link.signature.malformed", "The pairing request does not carry an Ed25519 key.");
  const url = new URL(req.url);
  const verdict = verifySignature({ parsed, publicKey, method: req.method, path: url.pathname, body: rawBody });
  if (verdict === "clock_skew") throw new AppError("link.clock_skew", "This machine's clock is more than 60 s off.");
  if (verdict !== true) throw new AppError("link.signature.invalid", "The pairing signature does not match.");
  const fresh = await redis().set(key("link-nonce", "pair", parsed.nonce), "1", "PX", NONCE_TTL_MS, "NX");
  if (fresh !== "OK") throw new AppError("link.nonce_reused", "This pairing request was already received.");

  return db.$transaction(async (tx) => {
    const now = new Date();
    // Claim the code atomically: only one request can turn usedAt from null to now.
    const claimed = await tx.linkPairingCode.updateMany({
      where: { codeHash: hashPairingCode(body.code), usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (claimed.count !== 1) {
      throw new AppError(
        "link.pairing_code_invalid",
        "That pairing code is unknown, used or expired. Get a new one on the dashboard's Links page.",
      );
    }
    const code = await tx.linkPairingCode.findUniqueOrThrow({ where: { codeHash: hashPairingCode(body.code) } });
    const existing = await tx.link.findUnique({ where: { publicKey: parsed.linkId } });
    if (existing)
      throw new AppError("link.pairing_code_invalid", "This machine's key is already paired; revoke it first.");
    const link = await tx.link.create({
      data: { userId: code.userId, name: body.name, publicKey: parsed.linkId, lastSeenAt: now },
    });
    await tx.linkPairingCode.update({ where: { id: code.id }, data: { linkId: link.id } });
    await recordAudit(tx, {
        userId: code.userId,
        actor: `link:${link.id}`,
        action: "link.paired",
        subjectType: "link",
        subjectId: link.id,
        data: { name: body.name },
      });
    return pairResponseSchema.parse({ link_id: link.id, name: link.name });
  });
}
