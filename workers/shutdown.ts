// How a worker host stops: its Workers stop taking jobs at once, the handlers already running get
// up to `timeoutMs` to finish (their locks kept alive meanwhile), and then the host goes either
// way. A job still running when the time is up is not lost: its lock lapses and BullMQ's stalled
// check hands it to another host (or this one after a restart), and its handler re-checks the
// database, as every handler does.
import type { WorkerHost } from "./registry";

export type DrainResult = { drained: boolean; ms: number };

export async function drainHost(host: WorkerHost, timeoutMs: number): Promise<DrainResult> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const closed = host.close().then(
    () => true as const,
    // A close that fails (Redis gone) has nothing left to wait for.
    () => true as const,
  );
  try {
    const drained = await Promise.race([closed, timedOut]);
    return { drained, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
