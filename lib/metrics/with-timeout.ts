// Bounded waiting for the health and metrics probes: a store that hangs (a dropped network, a full
// pool) must turn into an answer within a known time, never into a request that never ends.

export class ProbeTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "ProbeTimeoutError";
  }
}

/** `promise`, or a ProbeTimeoutError after `ms`. The timer never keeps the process alive. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeoutError(what, ms)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A value computed at most once per `ttlMs`, with concurrent callers sharing one computation. A
 * failure is not kept, so the next caller tries again.
 */
export function cached<T>(ttlMs: number, compute: () => Promise<T>): { get: () => Promise<T>; clear: () => void } {
  let value: { at: number; data: T } | undefined;
  let inFlight: Promise<T> | undefined;
  return {
    get() {
      if (value && Date.now() - value.at < ttlMs) return Promise.resolve(value.data);
      inFlight ??= compute()
        .then((data) => {
          value = { at: Date.now(), data };
          return data;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
    clear() {
      value = undefined;
    },
  };
}
