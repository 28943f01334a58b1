// The code of a published version is public: anyone may fetch the exact bytes a listing pins, by
// their sha256, to recompute the version's integrity themselves (`openvibe verify`). The bytes come
// from Media, which re-hashes them on every read and refuses a mismatch.
import "server-only";
import { db } from "../db";
import { AppError, notFound } from "../errors";
import { getMedia } from "../media";

const SHA256 = /^[0-9a-f]{64}$/;

export async function listingCodeBytes(slug: string, version: string, sha256: string) {
  if (!SHA256.test(sha256)) {
    throw new AppError("skill.code_ref_invalid", "Name the code by its pinned sha256: 64 lowercase hex digits.");
  }
  const pin = await db.listingCode.findFirst({
    where: { sha256, listing: { version: { version, skill: { slug } } } },
    select: { name: true, mediaId: true },
  });
  if (!pin) throw notFound("That code resource");
  const { object, bytes } = await getMedia(pin.mediaId);
  if (object.sha256 !== sha256) {
    throw new AppError("media.integrity_mismatch", "The stored code does not match the sha256 its listing pins.", {
      details: { name: pin.name, pinned: sha256, stored: object.sha256 },
    });
  }
  return { name: pin.name, bytes };
}
