// Verifies a signed Link request on the server: who it is, that it is still paired, that the
// clock is close and the nonce is new. Each refusal has its own stable code.
import "server-only";
import { AppError, type ErrorCode } from "../errors";
import { sqlPool } from "../db";
import { log } from "../log";
import { redis, key } from "../redis";
import { NONCE_TTL_MS, parsePublicKey, readSignatureHeaders, verifySignature } from "../protocol";

/** A Link that proved itself on this request. Its runner and pool state are read fresh where they matter. */
export type LinkPrincipal = { linkId: string; userId: string; name: string };

const refuse = (code: ErrorCode, message: string) => new AppError(code, message);
const SEEN_EVERY_MS = 1_000;

/**
 * Authenticates a Link request whose raw body has already been read (the signature covers it).
 * Order matters: nothing is remembered (no nonce burnt) until the signature has been verified.
 */
export async function authenticateLink(req: Request, rawBody: Uint8Array | string): Promise<LinkPrincipal> {
  const parsed = readSignatureHeaders((name) => req.headers.get(name));
  if (parsed === "missing") throw refuse("link.signature.missing", "This request is not signed by a Link.");
  if (parsed === "malformed") throw refuse("link.signature.malformed", "The Link signature headers are malformed.");

  // Every Link request starts here: one prepared statement, without the ORM's work per query.
  const { rows } = await sqlPool().query<{
    id: string;
    userId: string;
    name: string;
    publicKey: string;
    revokedAt: Date | null;
    lastSeenAt: Date | null;
  }>({
    name: "link-by-id",
    text: `SELECT id, "userId", name, "publicKey", "revokedAt", "lastSeenAt" FROM "Link" WHERE id = $1`,
    values: [parsed.linkId],
  });
  const link = rows[0];
  if (!link) throw refuse("link.unknown", "This Link is not paired. Pair it again with `openvibe-link pair CODE`.");
  if (link.revokedAt) throw refuse("link.revoked", "This Link was revoked by its owner. Pair it again to use it.");

  const publicKey = parsePublicKey(link.publicKey);
  if (!publicKey) throw refuse("link.signature.invalid", "The Link's stored key is not usable; pair it again.");
  const url = new URL(req.url);
  const verdict = verifySignature({
    parsed,
    publicKey,
    method: req.method,
    path: url.pathname + url.search,
    body: rawBody,
  });
  if (verdict === "clock_skew") {
    throw refuse("link.clock_skew", "The Link's clock is more than 60 s off the server's. Fix the machine's time.");
  }
  if (verdict === "invalid") throw refuse("link.signature.invalid", "The Link signature does not match this request.");

  const fresh = await redis().set(key("link-nonce", link.id, parsed.nonce), "1", "PX", NONCE_TTL_MS, "NX");
  if (fresh !== "OK") throw refuse("link.nonce_reused", "This request was already received (a replay).");

  // A Link polling and reporting several times a second is written as seen once a second at most,
  // and its request does not wait for that write.
  const now = new Date();
  if (!link.lastSeenAt || now.getTime() - link.lastSeenAt.getTime() >= SEEN_EVERY_MS)
    sqlPool()
      .query({ name: "link-seen", text: `UPDATE "Link" SET "lastSeenAt" = $1 WHERE id = $2`, values: [now, link.id] })
      .catch((err: unknown) => log.warn("link: could not record that it was seen", { linkId: link.id, err }));
  return { linkId: link.id, userId: link.userId, name: link.name };
}
