// The signer's own audit of what the log stores, so that a row rewritten in the database stops the
// log from signing instead of being signed over. Each signature checks one window of 1024 entries
// (their data against their leaf hashes, and every complete subtree inside the window against the
// stored node) and every node above window height against its two children; the window moves on
// each time, so the whole log is re-checked every size/1024 signatures. Together with the
// consistency check against the previous checkpoint, any single changed row is caught.
import "server-only";
import type { DbTx } from "../db";
import { hashChildren, hashLeaf } from "./hash";
import { readNodes } from "./store";
import { nodeKey, type NodeId } from "./tree-math";

export const AUDIT_WINDOW_LEVEL = 10;
export const AUDIT_WINDOW = 2 ** AUDIT_WINDOW_LEVEL;

export class AuditError extends Error {}

/** Audits the window that starts at `cursor` (a multiple of AUDIT_WINDOW) and the upper nodes; returns the next cursor. */
export async function auditStep(tx: DbTx, cursor: number, size: number): Promise<number> {
  const begin = cursor < size ? cursor : 0;
  const end = Math.min(begin + AUDIT_WINDOW, size);
  if (end > begin) await auditWindow(tx, begin, end);
  await auditUpperNodes(tx, size);
  return end >= size ? 0 : end;
}

async function auditWindow(tx: DbTx, begin: number, end: number) {
  const rows = await tx.logEntry.findMany({
    where: { leafIndex: { gte: BigInt(begin), lt: BigInt(end) } },
    orderBy: { leafIndex: "asc" },
    select: { leafIndex: true, data: true, leafHash: true },
  });
  if (rows.length !== end - begin) throw new AuditError(`entries ${begin} to ${end - 1} are not all stored`);
  let level: Buffer[] = rows.map((r, i) => {
    const index = begin + i;
    if (Number(r.leafIndex) !== index) throw new AuditError(`entry ${index} is missing`);
    const hash = hashLeaf(r.data);
    if (!hash.equals(r.leafHash)) throw new AuditError(`entry ${index}'s data does not hash to its stored leaf hash`);
    return hash;
  });
  const expected: Array<{ id: NodeId; hash: Buffer }> = [];
  for (let l = 1; level.length >= 2; l++) {
    const next: Buffer[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) next.push(hashChildren(level[i]!, level[i + 1]!));
    next.forEach((hash, i) => expected.push({ id: { level: l, index: begin / 2 ** l + i }, hash }));
    level = next;
  }
  await compare(tx, expected);
}

async function auditUpperNodes(tx: DbTx, size: number) {
  const upper = await tx.logNode.findMany({
    where: { level: { gt: AUDIT_WINDOW_LEVEL } },
    select: { level: true, index: true, hash: true },
  });
  const children = await readNodes(
    tx,
    upper.flatMap((n) => [
      { level: n.level - 1, index: Number(n.index) * 2 },
      { level: n.level - 1, index: Number(n.index) * 2 + 1 },
    ]),
  );
  for (const n of upper) {
    const id = { level: n.level, index: Number(n.index) };
    if ((id.index + 1) * 2 ** id.level > size) throw new AuditError(`node ${nodeKey(id)} lies beyond the log's size`);
    const left = children.get(nodeKey({ level: id.level - 1, index: id.index * 2 }));
    const right = children.get(nodeKey({ level: id.level - 1, index: id.index * 2 + 1 }));
    if (!left || !right || !hashChildren(left, right).equals(n.hash)) {
      throw new AuditError(`node ${nodeKey(id)} is not the hash of its two children`);
    }
  }
}

async function compare(tx: DbTx, expected: Array<{ id: NodeId; hash: Buffer }>) {
  if (!expected.length) return;
  const stored = await readNodes(
    tx,
    expected.map((e) => e.id),
  );
  for (const e of expected) {
    const found = stored.get(nodeKey(e.id));
    if (!found || !found.equals(e.hash))
      throw new AuditError(`node ${nodeKey(e.id)} does not match the entries below it`);
  }
}
