// Deleting a version nothing refers to, with its listing and the Media objects that held its code
// (ADR-060, rollback: "they are private to Actor's tenant and can be deleted with the listing").
// Rows go in one transaction; the bytes go after it, and only bytes no other row still names.
// What people installed or ran is retired instead, never deleted: their records point at it.
import "server-only";
import { db } from "../db";
import { AppError, notFound } from "../errors";
import { deleteUnreferencedBlobs } from "../media";

export async function deleteVersion(p: { slug: string; version: string }) {
  const row = await db.skillVersion.findFirst({
    where: { version: p.version, skill: { slug: p.slug } },
    select: {
      id: true,
      skillId: true,
      listing: { select: { id: true, code: { select: { mediaId: true, sha256: true } } } },
      _count: { select: { installs: true, steps: true, jobs: true } },
    },
  });
  if (!row) throw notFound("That skill version");
  const used = row._count.installs + row._count.steps + row._count.jobs;
  if (used > 0) {
    throw new AppError(
      "skill.version_in_use",
      `${p.slug}@${p.version} was installed or run (${used} records point at it): retire it instead.`,
    );
  }
  const code = row.listing?.code ?? [];
  await db.$transaction(async (tx) => {
    // The listing's pins go with the listing (cascade); then nothing holds the code's Media rows.
    await tx.skillVersion.delete({ where: { id: row.id } });
    await tx.mediaObject.deleteMany({ where: { id: { in: code.map((c) => c.mediaId) }, pins: { none: {} } } });
    if ((await tx.skillVersion.count({ where: { skillId: row.skillId } })) === 0) {
      await tx.skill.delete({ where: { id: row.skillId } });
    }
  });
  const bytesDeleted = await deleteUnreferencedBlobs(code.map((c) => c.sha256));
  return { slug: p.slug, version: p.version, media_deleted: code.length, bytes_deleted: bytesDeleted.length };
}
