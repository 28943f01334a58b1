// Link public keys, for anyone checking a signed run. A key is public by nature, and a Link id is
// an unguessable cuid that only an attestation hands out, so `GET /api/v1/links/{id}/key` needs
// no sign-in: whoever was given a RUN.json can fetch the key it names. It says nothing about the
// Link's owner or name. A revoked Link's key is still served (its past runs stay checkable), marked
// revoked. OpenVibe's pool machines (operator-approved) are listed with their keys.
import "server-only";
import { db } from "../db";
import { AppError } from "../errors";
import { keyIdOf, linkIdSchema } from "../protocol";

export type LinkKeyView = {
  link_id: string;
  algorithm: "Ed25519";
  key_id: string;
  /** The raw 32-byte Ed25519 public key, base64url (as the Link signs with it). */
  public_key: string;
  /** Whether this Link is one of OpenVibe's pool machines now. */
  pool: boolean;
  revoked_at: Date | null;
};

const keyView = (l: {
  id: string;
  publicKey: string;
  poolApprovedAt: Date | null;
  revokedAt: Date | null;
}): LinkKeyView => ({
  link_id: l.id,
  algorithm: "Ed25519",
  key_id: keyIdOf(l.publicKey),
  public_key: l.publicKey,
  pool: l.poolApprovedAt !== null && l.revokedAt === null,
  revoked_at: l.revokedAt,
});

const select = { id: true, publicKey: true, poolApprovedAt: true, revokedAt: true } as const;

export async function linkKey(linkId: string): Promise<LinkKeyView> {
  const notFound = new AppError("link.not_found", "That Link was not found.");
  if (!linkIdSchema.safeParse(linkId).success) throw notFound;
  const link = await db.link.findUnique({ where: { id: linkId }, select });
  if (!link) throw notFound;
  return keyView(link);
}

/** The keys of OpenVibe's pool: machines an operator approved and nobody revoked. */
export async function poolKeys(): Promise<{ keys: LinkKeyView[] }> {
  const links = await db.link.findMany({
    where: { revokedAt: null, poolApprovedAt: { not: null } },
    select,
    orderBy: { poolApprovedAt: "asc" },
    take: 1000,
  });
  return { keys: links.map(keyView) };
}
