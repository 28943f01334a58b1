// The small stored objects this process read last (a skill's code files, handed to a Link with
// every job that runs them), kept in memory so the next job's read does not go to the disk or the
// blob service. Keys are content addresses, so a kept copy can never be stale; readers still
// re-hash what they get. Bounded by count and by bytes; the least recently used go first.
const MAX_OBJECT_BYTES = 64 * 1024;
const MAX_OBJECTS = 512;
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;

const kept = new Map<string, Buffer>();
let total = 0;

export function rememberBlob(storageKey: string, bytes: Uint8Array): void {
  if (bytes.length > MAX_OBJECT_BYTES) return;
  forgetBlob(storageKey);
  kept.set(storageKey, Buffer.from(bytes));
  total += bytes.length;
  for (const [key, value] of kept) {
    if (kept.size <= MAX_OBJECTS && total <= MAX_TOTAL_BYTES) break;
    kept.delete(key);
    total -= value.length;
  }
}

/** A copy of the kept bytes (the caller may change it), or undefined. */
export function recentBlob(storageKey: string): Buffer | undefined {
  const bytes = kept.get(storageKey);
  if (!bytes) return undefined;
  kept.delete(storageKey);
  kept.set(storageKey, bytes);
  return Buffer.from(bytes);
}

export function forgetBlob(storageKey: string): void {
  const bytes = kept.get(storageKey);
  if (!bytes) return;
  kept.delete(storageKey);
  total -= bytes.length;
}
