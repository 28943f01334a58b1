// Lookups that many requests make at the same moment (an agent's token, a call's context),
// gathered per turn of the event loop into one statement: a burst of 100 calls sends PostgreSQL a
// few statements, not 100, and parses, writes and waits for a few answers instead of 100. A lone
// request waits for nothing: its turn ends at once.

type Waiting<K, V> = { key: K; resolve: (value: V) => void; reject: (err: unknown) => void };

/**
 * A function that looks one key up through `lookup`, which gets every key asked for in the same
 * turn (at most `maxBatch` at a time) and answers their values in the same order. A failed lookup
 * fails every caller of its batch.
 */
export function batchedLookup<K, V>(lookup: (keys: K[]) => Promise<V[]>, maxBatch = 200): (key: K) => Promise<V> {
  let pending: Waiting<K, V>[] | null = null;

  async function run(batch: Waiting<K, V>[]) {
    try {
      const values = await lookup(batch.map((w) => w.key));
      if (values.length !== batch.length) throw new Error(`a batched lookup answered ${values.length} of ${batch.length}`);
      batch.forEach((w, i) => w.resolve(values[i]!));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }

  function flush() {
    const all = pending!;
    pending = null;
    for (let i = 0; i < all.length; i += maxBatch) void run(all.slice(i, i + maxBatch));
  }

  return (key: K) =>
    new Promise<V>((resolve, reject) => {
      if (!pending) {
        pending = [];
        setImmediate(flush);
      }
      pending.push({ key, resolve, reject });
    });
}
