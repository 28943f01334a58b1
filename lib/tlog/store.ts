// Reading the stored tree: the size, the hashes of complete subtrees (leaves in LogEntry, the
// levels above in LogNode), and from them any root or proof in one query of O(log n) rows.
import "server-only";
import type { DbTx } from "../db";
import { emptyRoot } from "./hash";
import { nodeKey, nodesFor, rangeHash, type LeafRange, type NodeId } from "./tree-math";

/** The number of entries in the log (committed appends). */
export async function treeSize(tx: DbTx): Promise<number> {
  const head = await tx.logHead.findUnique({ where: { id: 1 }, select: { size: true } });
  if (!head) throw new Error("the transparency log has no head row: apply the database migrations");
  return Number(head.size);
}

/** The stored hashes of the given complete subtrees, keyed by nodeKey. */
export async function readNodes(tx: DbTx, ids: NodeId[]): Promise<Map<string, Buffer>> {
  const leaves = ids.filter((n) => n.level === 0).map((n) => String(n.index));
  const inner = ids.filter((n) => n.level > 0);
  const found = new Map<string, Buffer>();
  if (leaves.length) {
    const rows = await tx.$queryRaw<{ index: bigint; hash: Uint8Array }[]>`
      SELECT "leafIndex" AS index, "leafHash" AS hash FROM "LogEntry"
      WHERE "leafIndex" = ANY(${leaves}::text[]::bigint[])`;
    for (const r of rows) found.set(nodeKey({ level: 0, index: Number(r.index) }), Buffer.from(r.hash));
  }
  if (inner.length) {
    const rows = await tx.$queryRaw<{ level: number; index: bigint; hash: Uint8Array }[]>`
      SELECT n.level, n.index, n.hash FROM "LogNode" n
      JOIN unnest(${inner.map((n) => n.level)}::int[], ${inner.map((n) => String(n.index))}::text[]::bigint[]) AS q(level, index)
        ON n.level = q.level AND n.index = q.index`;
    for (const r of rows) found.set(nodeKey({ level: r.level, index: Number(r.index) }), Buffer.from(r.hash));
  }
  return found;
}

/** The hash of each range, from one read of the complete subtrees they are made of. */
export async function rangeHashes(tx: DbTx, ranges: LeafRange[]): Promise<Buffer[]> {
  if (!ranges.length) return [];
  const nodes = await readNodes(tx, nodesFor(ranges));
  const lookup = (n: NodeId) => {
    const hash = nodes.get(nodeKey(n));
    // Every node below the head's size is written in the append that completes it.
    if (!hash) throw new Error(`transparency log node ${nodeKey(n)} is missing`);
    return hash;
  };
  return ranges.map((r) => Buffer.from(rangeHash(r, lookup)));
}

/** The root of the tree of the first `size` entries. */
export async function rootAt(tx: DbTx, size: number): Promise<Buffer> {
  if (size === 0) return emptyRoot();
  const [root] = await rangeHashes(tx, [{ begin: 0, end: size }]);
  return root!;
}
