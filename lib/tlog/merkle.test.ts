// Known-answer tests of the log's Merkle hashing, proofs and proof checks.
//
// Vectors: the RFC 6962 test tree that Certificate Transparency has used since its C++ reference
// implementation, as published in github.com/transparency-dev/merkle:
//   rfc6962/rfc6962_test.go  (commit 78493b07ef9b552e3379abf9e23d4da26fbe797c) — leaf/node hashes;
//   proof/verify_test.go     (commit 02194e9afb6c1d95b5381350007963aa70fff472) — the eight leaves,
//   the roots of trees of 1..8 leaves, and inclusion and consistency proofs between them.
// Their indices are 1-based ("leaf 1" is index 0); converted below.
import { describe, expect, it } from "vitest";
import { emptyRoot, hashChildren, hashLeaf } from "./hash";
import {
  CompactRange,
  consistencyProofRanges,
  inclusionProofRanges,
  nodeKey,
  nodesClosedBy,
  nodesFor,
  perfectNodes,
  rangeHash,
  type LeafRange,
  type NodeId,
} from "./tree-math";
import { ProofError, verifyConsistency, verifyInclusion } from "./verify";

const h = (hex: string) => Buffer.from(hex, "hex");

const LEAVES = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map(
  h,
);

const ROOTS = [
  "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
  "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
  "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
  "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
  "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
  "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
  "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
  "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
].map(h);

/** `leaf` is 1-based, as in the source. */
const INCLUSION = [
  {
    leaf: 1,
    size: 8,
    proof: [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    leaf: 6,
    size: 8,
    proof: [
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
  { leaf: 3, size: 3, proof: ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"] },
  {
    leaf: 2,
    size: 5,
    proof: [
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  },
  { leaf: 1, size: 1, proof: [] },
].map((v) => ({ ...v, proof: v.proof.map(h) }));

const CONSISTENCY = [
  { first: 1, second: 1, proof: [] },
  {
    first: 1,
    second: 8,
    proof: [
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
  },
  {
    first: 6,
    second: 8,
    proof: [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
  {
    first: 2,
    second: 5,
    proof: [
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
    ],
  },
  {
    first: 6,
    second: 7,
    proof: [
      "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    ],
  },
].map((v) => ({ ...v, proof: v.proof.map(h) }));

/** RFC 9162 §2.1.1 MTH, written straight from the definition (the reference the stored-node code is held to). */
function mth(leafHashes: Buffer[]): Buffer {
  if (leafHashes.length === 0) return emptyRoot();
  if (leafHashes.length === 1) return leafHashes[0]!;
  let k = 1;
  while (k * 2 < leafHashes.length) k *= 2;
  return hashChildren(mth(leafHashes.slice(0, k)), mth(leafHashes.slice(k)));
}

/** Every complete subtree of a list of leaves, as the registry stores them. */
function storedNodes(leafHashes: Buffer[]): Map<string, Buffer> {
  const nodes = new Map<string, Buffer>();
  leafHashes.forEach((hash, index) => nodes.set(nodeKey({ level: 0, index }), hash));
  for (let level = 1; 2 ** level <= leafHashes.length; level++) {
    for (let index = 0; (index + 1) * 2 ** level <= leafHashes.length; index++) {
      const l = nodes.get(nodeKey({ level: level - 1, index: 2 * index }))!;
      const r = nodes.get(nodeKey({ level: level - 1, index: 2 * index + 1 }))!;
      nodes.set(nodeKey({ level, index }), hashChildren(l, r));
    }
  }
  return nodes;
}

function proofFrom(ranges: LeafRange[], nodes: Map<string, Buffer>): Uint8Array[] {
  const lookup = (n: NodeId) => {
    const found = nodes.get(nodeKey(n));
    if (!found) throw new Error(`node ${nodeKey(n)} is not stored`);
    return found;
  };
  return ranges.map((r) => rangeHash(r, lookup));
}

const flipBit = (proof: Uint8Array[], i: number) =>
  proof.map((p, j) => (j === i ? Buffer.from(p.map((b, k) => (k === 0 ? b ^ 8 : b))) : p));

describe("RFC 6962 hashing", () => {
  it("hashes the empty tree, an empty leaf, a leaf and a node as RFC 6962 says", () => {
    expect(emptyRoot().toString("hex")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(hashLeaf(Buffer.alloc(0)).toString("hex")).toBe(
      "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    );
    expect(hashLeaf("L123456").toString("hex")).toBe(
      "395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56",
    );
    expect(hashChildren(Buffer.from("N123"), Buffer.from("N456")).toString("hex")).toBe(
      "aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb",
    );
  });

  it("gives the published root of each tree of 1 to 8 leaves, from stored complete subtrees", () => {
    const hashes = LEAVES.map((l) => hashLeaf(l));
    for (let size = 1; size <= 8; size++) {
      const nodes = storedNodes(hashes.slice(0, size));
      const [root] = proofFrom([{ begin: 0, end: size }], nodes);
      expect(Buffer.from(root!).toString("hex"), `size ${size}`).toBe(ROOTS[size - 1]!.toString("hex"));
      expect(mth(hashes.slice(0, size)).toString("hex")).toBe(ROOTS[size - 1]!.toString("hex"));
    }
  });
});

describe("inclusion proofs", () => {
  const hashes = LEAVES.map((l) => hashLeaf(l));

  it.each(INCLUSION)(
    "builds and verifies the published proof of leaf $leaf in a tree of $size",
    ({ leaf, size, proof }) => {
      const nodes = storedNodes(hashes.slice(0, size));
      const built = proofFrom(inclusionProofRanges(leaf - 1, size), nodes);
      expect(built.map((b) => Buffer.from(b).toString("hex"))).toEqual(
        proof.map((p) => Buffer.from(p).toString("hex")),
      );
      expect(() => verifyInclusion(leaf - 1, size, hashes[leaf - 1]!, proof, ROOTS[size - 1]!)).not.toThrow();
    },
  );

  it.each(INCLUSION.filter((v) => v.proof.length))(
    "refuses every corruption of the proof of leaf $leaf in $size",
    (v) => {
      const { leaf, size, proof } = v;
      const index = leaf - 1;
      const root = ROOTS[size - 1]!;
      const leafHash = hashes[index]!;
      const probes: Array<[string, () => void]> = [
        ["index - 1", () => verifyInclusion(index - 1, size, leafHash, proof, root)],
        ["index + 1", () => verifyInclusion(index + 1, size, leafHash, proof, root)],
        ["size * 2", () => verifyInclusion(index, size * 2, leafHash, proof, root)],
        ["size / 2", () => verifyInclusion(index, Math.floor(size / 2), leafHash, proof, root)],
        ["wrong leaf", () => verifyInclusion(index, size, hashLeaf("WrongLeaf"), proof, root)],
        ["empty root", () => verifyInclusion(index, size, leafHash, proof, emptyRoot())],
        ["trailing root", () => verifyInclusion(index, size, leafHash, [...proof, root], root)],
        ["preceding root", () => verifyInclusion(index, size, leafHash, [root, ...proof], root)],
        ["removed component", () => verifyInclusion(index, size, leafHash, proof.slice(0, -1), root)],
        ...proof.map((_, i): [string, () => void] => [
          `flipped bit in proof[${i}]`,
          () => verifyInclusion(index, size, leafHash, flipBit(proof, i), root),
        ]),
      ];
      for (const [name, probe] of probes) expect(probe, name).toThrow(ProofError);
    },
  );

  it("refuses a leaf beyond the tree and a hash of the wrong length", () => {
    expect(() => verifyInclusion(0, 0, hashes[0]!, [], emptyRoot())).toThrow(ProofError);
    expect(() => verifyInclusion(1, 1, hashes[0]!, [], hashes[0]!)).toThrow(ProofError);
    expect(() => verifyInclusion(0, 1, Buffer.alloc(31), [], hashes[0]!)).toThrow(ProofError);
  });
});

describe("consistency proofs", () => {
  const hashes = LEAVES.map((l) => hashLeaf(l));

  it.each(CONSISTENCY)("builds and verifies the published proof from $first to $second", ({ first, second, proof }) => {
    const nodes = storedNodes(hashes.slice(0, second));
    const built = proofFrom(consistencyProofRanges(first, second), nodes);
    expect(built.map((b) => Buffer.from(b).toString("hex"))).toEqual(proof.map((p) => Buffer.from(p).toString("hex")));
    expect(() => verifyConsistency(first, second, proof, ROOTS[first - 1]!, ROOTS[second - 1]!)).not.toThrow();
  });

  it.each(CONSISTENCY.filter((v) => v.proof.length))(
    "refuses every corruption of the proof from $first to $second",
    (v) => {
      const { first, second, proof } = v;
      const r1 = ROOTS[first - 1]!;
      const r2 = ROOTS[second - 1]!;
      const probes: Array<[string, () => void]> = [
        ["first - 1", () => verifyConsistency(first - 1, second, proof, r1, r2)],
        ["first + 1", () => verifyConsistency(first + 1, second, proof, r1, r2)],
        ["second * 2", () => verifyConsistency(first, second * 2, proof, r1, r2)],
        ["second / 2", () => verifyConsistency(first, Math.floor(second / 2), proof, r1, r2)],
        ["wrong first root", () => verifyConsistency(first, second, proof, hashLeaf("WrongRoot"), r2)],
        ["wrong second root", () => verifyConsistency(first, second, proof, r1, hashLeaf("WrongRoot"))],
        ["swapped roots", () => verifyConsistency(first, second, proof, r2, r1)],
        ["empty proof", () => verifyConsistency(first, second, [], r1, r2)],
        ["trailing root", () => verifyConsistency(first, second, [...proof, r2], r1, r2)],
        ["preceding root", () => verifyConsistency(first, second, [r1, ...proof], r1, r2)],
        ["truncated", () => verifyConsistency(first, second, proof.slice(0, -1), r1, r2)],
        ...proof.map((_, i): [string, () => void] => [
          `flipped bit in proof[${i}]`,
          () => verifyConsistency(first, second, flipBit(proof, i), r1, r2),
        ]),
      ];
      for (const [name, probe] of probes) {
        // first - 1 = 0 is always consistent with an empty proof only, so a non-empty one must fail.
        expect(probe, name).toThrow(ProofError);
      }
    },
  );

  it("accepts only the trivial proofs between equal sizes and from the empty tree", () => {
    expect(() => verifyConsistency(0, 5, [], emptyRoot(), ROOTS[4]!)).not.toThrow();
    expect(() => verifyConsistency(3, 3, [], ROOTS[2]!, ROOTS[2]!)).not.toThrow();
    expect(() => verifyConsistency(3, 3, [], ROOTS[2]!, ROOTS[3]!)).toThrow(/two different roots/);
    expect(() => verifyConsistency(3, 3, [ROOTS[2]!], ROOTS[2]!, ROOTS[2]!)).toThrow(ProofError);
    expect(() => verifyConsistency(5, 4, [], ROOTS[4]!, ROOTS[3]!)).toThrow(/shrank/);
  });

  it("detects a forked history: a tree whose leaf 3 was rewritten is not consistent with the first", () => {
    const forked = hashes.slice();
    forked[2] = hashLeaf("rewritten");
    const nodes = storedNodes(forked);
    const proof = proofFrom(consistencyProofRanges(4, 8), nodes);
    expect(() => verifyConsistency(4, 8, proof, ROOTS[3]!, mth(forked))).toThrow(/rewritten/);
  });
});

describe("proofs from stored nodes match the RFC definition for every size up to 70", () => {
  const hashes = Array.from({ length: 70 }, (_, i) => hashLeaf(`leaf ${i}`));
  const nodes = storedNodes(hashes);
  const roots = Array.from({ length: 71 }, (_, n) => mth(hashes.slice(0, n)));

  it("verifies every inclusion proof", () => {
    for (let size = 1; size <= 70; size++) {
      for (let index = 0; index < size; index++) {
        const proof = proofFrom(inclusionProofRanges(index, size), nodes);
        verifyInclusion(index, size, hashes[index]!, proof, roots[size]!);
      }
    }
  });

  it("verifies every consistency proof", () => {
    for (let second = 1; second <= 70; second++) {
      for (let first = 1; first <= second; first++) {
        const proof = proofFrom(consistencyProofRanges(first, second), nodes);
        verifyConsistency(first, second, proof, roots[first]!, roots[second]!);
      }
    }
  });

  it("re-hashes a log leaf by leaf to the same roots, keeping only the right edge", () => {
    const range = new CompactRange();
    expect(range.root()).toBeNull();
    hashes.forEach((h, i) => {
      range.append(h);
      expect(Buffer.from(range.root()!).equals(roots[i + 1]!), `size ${i + 1}`).toBe(true);
    });
  });

  it("closes exactly the complete subtrees a new leaf completes", () => {
    const stored = new Set<string>(["0:0"]);
    for (let index = 1; index < 70; index++) {
      stored.add(nodeKey({ level: 0, index }));
      for (const n of nodesClosedBy(index)) stored.add(nodeKey(n));
    }
    expect(stored).toEqual(new Set(nodes.keys()));
  });
});

describe("tree math past 32 bits", () => {
  it("plans a proof in a tree of 2^40 + 5 leaves with O(log n) stored nodes", () => {
    const size = 2 ** 40 + 5;
    const ranges = inclusionProofRanges(2 ** 40 + 3, size);
    expect(ranges.length).toBe(4);
    expect(ranges.at(-1)).toEqual({ begin: 0, end: 2 ** 40 });
    expect(perfectNodes({ begin: 0, end: size })).toEqual([
      { level: 40, index: 0 },
      { level: 2, index: 2 ** 38 },
      { level: 0, index: 2 ** 40 + 4 },
    ]);
    expect(nodesFor(consistencyProofRanges(2 ** 33 + 1, size)).length).toBeLessThan(2 * 41);
    expect(nodesClosedBy(2 ** 35 - 1).length).toBe(35);
  });

  it("refuses ranges that are not aligned or out of bounds", () => {
    expect(() => perfectNodes({ begin: 1, end: 3 })).toThrow(RangeError);
    expect(() => inclusionProofRanges(5, 5)).toThrow(RangeError);
    expect(() => consistencyProofRanges(0, 5)).toThrow(RangeError);
    expect(() => consistencyProofRanges(6, 5)).toThrow(RangeError);
  });
});
