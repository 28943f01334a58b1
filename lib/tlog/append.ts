// Appending one event to the log, inside the caller's transaction (the publish or the retire), so
// the event and its entry commit together or not at all. The LogHead row lock serialises appends:
// indices are dense and unique, and the complete subtrees the new leaf closes are written with it.
import "server-only";
import { LISTING_V2 } from "../contracts";
import type { DbTx } from "../db";
import { hashChildren, hashLeaf } from "./hash";
import { leafText, listingHash, type LeafData, type LogEvent } from "./leaf";
import { readNodes } from "./store";
import { nodeKey, nodesClosedBy } from "./tree-math";

/** Appends `event` of a version; returns its entry index. A second append of the same event fails (unique). */
export async function appendToLog(tx: DbTx, p: { versionId: string; event: LogEvent }): Promise<{ index: number }> {
  const [head] = await tx.$queryRaw<{ size: bigint }[]>`SELECT size FROM "LogHead" WHERE id = 1 FOR UPDATE`;
  if (!head) throw new Error("the transparency log has no head row: apply the database migrations");
  const index = Number(head.size);
  const data = leafText(await leafOf(tx, p));
  const leafHash = hashLeaf(data);
  await tx.logEntry.create({
    data: {
      leafIndex: BigInt(index),
      versionId: p.versionId,
      event: p.event,
      data,
      leafHash: new Uint8Array(leafHash),
    },
  });
  const closed = nodesClosedBy(index);
  if (closed.length) {
    const lefts = closed.map((n) => ({ level: n.level - 1, index: n.index * 2 }));
    const stored = await readNodes(tx, lefts);
    let right: Buffer = leafHash;
    const rows = closed.map((n, i) => {
      const left = stored.get(nodeKey(lefts[i]!));
      if (!left) throw new Error(`transparency log node ${nodeKey(lefts[i]!)} is missing`);
      right = hashChildren(left, right);
      return { level: n.level, index: BigInt(n.index), hash: new Uint8Array(right) };
    });
    await tx.logNode.createMany({ data: rows });
  }
  await tx.logHead.update({ where: { id: 1 }, data: { size: BigInt(index + 1) } });
  return { index };
}

/** The leaf of an event, from the rows as this transaction sees them. */
async function leafOf(tx: DbTx, p: { versionId: string; event: LogEvent }): Promise<LeafData> {
  const v = await tx.skillVersion.findUniqueOrThrow({
    where: { id: p.versionId },
    select: {
      version: true,
      integrity: true,
      publishedAt: true,
      retiredAt: true,
      skill: { select: { slug: true } },
      listing: { select: { contract: true, code: { select: { name: true, mediaId: true, sha256: true } } } },
    },
  });
  if (!v.listing) throw new Error(`version ${p.versionId} has no listing to log`);
  const time = p.event === "publish" ? v.publishedAt : v.retiredAt;
  if (!time) throw new Error(`version ${p.versionId} is not retired`);
  const contract = v.listing.contract as "actor.skill-listing@1" | "actor.skill-listing@2";
  return {
    event: p.event,
    integrity: v.integrity,
    listing_hash: listingHash({
      contract,
      skill: { slug: v.skill.slug, version: v.version, integrity: v.integrity },
      ...(contract === LISTING_V2
        ? { code: v.listing.code.map((c) => ({ name: c.name, media_id: c.mediaId, sha256: c.sha256 })) }
        : {}),
      published_at: v.publishedAt.toISOString(),
    }),
    slug: v.skill.slug,
    time: time.toISOString(),
    version: v.version,
  };
}
