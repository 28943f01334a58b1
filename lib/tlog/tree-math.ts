// Which subtrees a root or a proof is made of (RFC 9162 §2.1.3.1 PATH and §2.1.4.1 SUBPROOF), as
// ranges of leaves, and each range as the complete ("perfect") subtrees the registry stores. A proof
// is then one lookup of O(log n) stored hashes, whatever the size of the log. Pure.
//
// Sizes and indices are JavaScript numbers up to 2^53; the arithmetic below never uses the 32-bit
// bitwise operators, so a log past 2^32 leaves is computed correctly.
import { hashChildren } from "./hash";

/** Leaves [begin, end). */
export type LeafRange = { begin: number; end: number };
/** The complete subtree of 2^level leaves that starts at leaf index · 2^level. Level 0 is a leaf. */
export type NodeId = { level: number; index: number };

export const nodeKey = (n: NodeId) => `${n.level}:${n.index}`;

/** The largest power of two strictly below n (n ≥ 2): RFC 9162's k. */
export function splitPoint(n: number): number {
  if (!Number.isSafeInteger(n) || n < 2) throw new RangeError(`no split point for ${n}`);
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The complete subtrees that make up [begin, end), left to right, largest first. Every range an
 * RFC 9162 root or proof names starts at a multiple of its largest chunk, so each chunk is aligned.
 */
export function perfectNodes(range: LeafRange): NodeId[] {
  const { begin, end } = range;
  if (!Number.isSafeInteger(begin) || !Number.isSafeInteger(end) || begin < 0 || end <= begin) {
    throw new RangeError(`bad leaf range [${begin}, ${end})`);
  }
  let size = end - begin;
  let chunk = 1;
  let level = 0;
  while (chunk * 2 <= size) {
    chunk *= 2;
    level++;
  }
  const nodes: NodeId[] = [];
  let offset = begin;
  for (; chunk >= 1; chunk /= 2, level--) {
    if (size < chunk) continue;
    if (offset % chunk !== 0) throw new RangeError(`leaf range [${begin}, ${end}) is not aligned`);
    nodes.push({ level, index: offset / chunk });
    offset += chunk;
    size -= chunk;
  }
  return nodes;
}

/** MTH of a range from the hashes of its complete subtrees (RFC 9162: the right side nests). */
export function rangeHash(range: LeafRange, lookup: (node: NodeId) => Uint8Array): Uint8Array {
  const hashes = perfectNodes(range).map(lookup);
  let acc = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) acc = hashChildren(hashes[i]!, acc);
  return acc;
}

function checkSize(size: number, name: string) {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`${name} must be a non-negative integer`);
}

/** The ranges whose hashes form the inclusion proof of leaf `index` in a tree of `size`, leaf side first. */
export function inclusionProofRanges(index: number, size: number): LeafRange[] {
  checkSize(index, "index");
  checkSize(size, "size");
  if (index >= size) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const topDown: LeafRange[] = [];
  let begin = 0;
  let end = size;
  let m = index;
  while (end - begin > 1) {
    const k = splitPoint(end - begin);
    if (m < k) {
      topDown.push({ begin: begin + k, end });
      end = begin + k;
    } else {
      topDown.push({ begin, end: begin + k });
      begin += k;
      m -= k;
    }
  }
  return topDown.reverse();
}

/** The ranges whose hashes form the consistency proof from a tree of `first` to one of `second` leaves. */
export function consistencyProofRanges(first: number, second: number): LeafRange[] {
  checkSize(first, "first");
  checkSize(second, "second");
  if (first < 1 || first > second) throw new RangeError(`no consistency proof from ${first} to ${second}`);
  const topDown: LeafRange[] = [];
  let begin = 0;
  let end = second;
  let m = first;
  let complete = true;
  for (;;) {
    if (m === end - begin) {
      if (!complete) topDown.push({ begin, end });
      break;
    }
    const k = splitPoint(end - begin);
    if (m <= k) {
      topDown.push({ begin: begin + k, end });
      end = begin + k;
    } else {
      topDown.push({ begin, end: begin + k });
      begin += k;
      m -= k;
      complete = false;
    }
  }
  return topDown.reverse();
}

/** Every stored node the given ranges need, each once. */
export function nodesFor(ranges: LeafRange[]): NodeId[] {
  const seen = new Map<string, NodeId>();
  for (const r of ranges) for (const n of perfectNodes(r)) seen.set(nodeKey(n), n);
  return [...seen.values()];
}

/** The complete subtrees that a new leaf at `index` closes: (level, index) of each, lowest first. */
export function nodesClosedBy(index: number): NodeId[] {
  checkSize(index, "index");
  const closed: NodeId[] = [];
  let i = index;
  let level = 0;
  while (i % 2 === 1) {
    i = (i - 1) / 2;
    level++;
    closed.push({ level, index: i });
  }
  return closed;
}

/**
 * The root of a tree built leaf by leaf, keeping only the right edge (one hash per set bit of the
 * size): what a client needs to re-hash a whole log page by page in O(log n) memory.
 */
export class CompactRange {
  private readonly edge: Array<{ size: number; hash: Uint8Array }> = [];
  size = 0;

  append(leafHash: Uint8Array): void {
    this.edge.push({ size: 1, hash: leafHash });
    this.size++;
    for (let n = this.edge.length; n >= 2 && this.edge[n - 1]!.size === this.edge[n - 2]!.size; n--) {
      const right = this.edge.pop()!;
      const left = this.edge.pop()!;
      this.edge.push({ size: left.size * 2, hash: hashChildren(left.hash, right.hash) });
    }
  }

  /** MTH of the leaves so far; null when there are none (the caller knows the empty root). */
  root(): Uint8Array | null {
    if (!this.edge.length) return null;
    let acc = this.edge[this.edge.length - 1]!.hash;
    for (let i = this.edge.length - 2; i >= 0; i--) acc = hashChildren(this.edge[i]!.hash, acc);
    return acc;
  }
}
