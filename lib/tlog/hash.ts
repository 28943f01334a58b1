// RFC 6962 / RFC 9162 §2.1.1 Merkle tree hashing with SHA-256: a leaf is SHA-256(0x00 ‖ data), an
// interior node SHA-256(0x01 ‖ left ‖ right), the empty tree SHA-256(""). The prefixes keep a leaf
// from ever passing for a node. Pure: shared by the registry, the CLI and the Link.
import { createHash } from "node:crypto";

export const HASH_BYTES = 32;

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

export function hashLeaf(data: Uint8Array | string): Buffer {
  return createHash("sha256").update(LEAF_PREFIX).update(data).digest();
}

export function hashChildren(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash("sha256").update(NODE_PREFIX).update(left).update(right).digest();
}

/** The root of the tree with no leaves. */
export function emptyRoot(): Buffer {
  return createHash("sha256").digest();
}
