// Lookups that many requests make at the same moment (an agent's token, a call's context): a
// lookup goes out at once when none is in flight, and those asked for while one is go out together
// in the next, one statement. A lone request waits for nothing; a burst of 100 calls sends
// PostgreSQL a few statements, not 100, and parses, writes and waits for a few answers.

type Waiting<K, V> = { key: K; resolve: (value: V) => void; reject: (err: unknown) => void };

/**
 * A function that looks one key up through `lookup`, which gets the keys gathered so (at most
 * `maxBatch` at a time) and answers their values in the same order. A failed lookup fails every
 * caller of its batch.
 */
export function batchedLookup<K, V>(lookup: (keys: K[]) => Promise<V[]>, maxBatch = 200): (key: K) => Promise<V> {
  const pending: Waiting<K, V>[] = [];
  let inFlight = false;

  async function next() {
    if (inFlight || !pending.length) return;
    inFlight = true;
    const batch = pending.splice(0, maxBatch);
    try {
      const values = await lookup(batch.map((w) => w.key));
      if (values.length !== batch.length) throw new Error(`a batched lookup answered ${values.length} of ${batch.length}`);
      batch.forEach((w, i) => w.resolve(values[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    } finally {
      inFlight = false;
      void next();
    }
  }

  return (key: K) =>
    new Promise<V>((resolve, reject) => {
      pending.push({ key, resolve, reject });
      void next();
    });
}
