// Client-side checks of the transparency log, exactly as RFC 9162 §2.1.3.2 (inclusion) and
// §2.1.4.2 (consistency) state them. Pure and small on purpose: the `openvibe verify` CLI and the
// Link both run these, trusting only the log's public key and the last checkpoint they saw.
import { timingSafeEqual } from "node:crypto";
import { HASH_BYTES, hashChildren } from "./hash";

export class ProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProofError";
  }
}

const isHash = (h: Uint8Array) => h.length === HASH_BYTES;
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);
const odd = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

function checkCount(n: number, name: string) {
  if (!Number.isSafeInteger(n) || n < 0) throw new ProofError(`${name} must be a non-negative integer`);
}

/** The root that an inclusion proof leads to (throws ProofError when the proof has the wrong shape). */
export function rootFromInclusionProof(index: number, size: number, leafHash: Uint8Array, proof: Uint8Array[]): Buffer {
  checkCount(index, "leaf index");
  checkCount(size, "tree size");
  if (index >= size) throw new ProofError(`leaf ${index} is beyond a tree of ${size}`);
  if (!isHash(leafHash) || !proof.every(isHash)) throw new ProofError("every hash must be 32 bytes");
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leafHash);
  for (const p of proof) {
    if (sn === 0) throw new ProofError("the inclusion proof is longer than the tree is deep");
    if (odd(fn) || fn === sn) {
      r = hashChildren(p, r);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new ProofError("the inclusion proof is shorter than the tree is deep");
  return r;
}

/** Throws ProofError unless `proof` shows leaf `index` (hash `leafHash`) in the tree of `size` with `root`. */
export function verifyInclusion(
  index: number,
  size: number,
  leafHash: Uint8Array,
  proof: Uint8Array[],
  root: Uint8Array,
): void {
  if (!isHash(root)) throw new ProofError("the root must be 32 bytes");
  const computed = rootFromInclusionProof(index, size, leafHash, proof);
  if (!same(computed, root)) throw new ProofError(`leaf ${index} is not in the tree of ${size} with that root`);
}

/**
 * Throws ProofError unless the tree of `second` leaves with `secondRoot` extends the tree of
 * `first` leaves with `firstRoot` without changing any of its leaves (an append-only history).
 */
export function verifyConsistency(
  first: number,
  second: number,
  proof: Uint8Array[],
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
): void {
  checkCount(first, "first size");
  checkCount(second, "second size");
  if (second < first) throw new ProofError(`the log shrank from ${first} to ${second} entries`);
  if (!isHash(firstRoot) || !isHash(secondRoot) || !proof.every(isHash)) {
    throw new ProofError("every hash must be 32 bytes");
  }
  if (first === second) {
    if (proof.length) throw new ProofError("a proof between equal sizes must be empty");
    if (!same(firstRoot, secondRoot)) throw new ProofError(`two different roots for the same size ${first}`);
    return;
  }
  if (first === 0) {
    if (proof.length) throw new ProofError("a proof from the empty tree must be empty");
    return;
  }
  if (proof.length === 0) throw new ProofError("the consistency proof is empty");
  // RFC 9162 §2.1.4.2, steps 2 to 7.
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : proof;
  let fn = first - 1;
  let sn = second - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  for (const c of path.slice(1)) {
    if (sn === 0) throw new ProofError("the consistency proof is longer than the trees are deep");
    if (odd(fn) || fn === sn) {
      fr = hashChildren(c, fr);
      sr = hashChildren(c, sr);
      while (!odd(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = hashChildren(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) throw new ProofError("the consistency proof is shorter than the trees are deep");
  // Either way the two trees disagree about the first `first` entries: a forked, rewritten history.
  if (!same(fr, firstRoot) || !same(sr, secondRoot)) {
    throw new ProofError(`the tree of ${second} entries does not extend the tree of ${first}: history was rewritten`);
  }
}

function isPowerOfTwo(n: number): boolean {
  let p = 1;
  while (p < n) p *= 2;
  return p === n;
}
