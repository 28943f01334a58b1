// GET /api/v1/events: one Server-Sent Events stream per signed-in person. It wakes on that person's
// channels only (the shared Redis subscriber, no connection per browser), reads what happened from
// the person's log, replays what a reconnecting browser missed (`Last-Event-ID`), sends a comment
// as a heartbeat when nothing happened, and ends after a while so the browser reconnects.
import "server-only";
import { log } from "../log";
import { isDraining } from "../metrics/draining";
import { channels, waitFor } from "./index";
import { eventsAfter, isStreamId, latestEventId, missedEvents, type PersonEvent } from "./person-log";

export const HEARTBEAT_MS = 15_000;
/** How many logged events one read sends at most; the rest follow on the next read. */
export const READ_MAX = 100;
const STREAM_MAX_MS = 5 * 60_000;
const RETRY_MS = 3_000;

type Options = { lastEventId: string | null; signal: AbortSignal; heartbeatMs?: number; maxMs?: number };

const frame = (e: PersonEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify({ type: e.type })}\n\n`;

export function personEventStream(userId: string, options: Options): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  options.signal.addEventListener("abort", onAbort);
  const names = [channels.userSteps(userId), channels.userInstalls(userId), channels.userScans(userId)];
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const endAt = Date.now() + (options.maxMs ?? STREAM_MAX_MS);

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (!stop.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      const loop = async () => {
        send(`retry: ${RETRY_MS}\n\n`);
        const last = options.lastEventId?.trim() ?? "";
        let cursor: string;
        if (last && isStreamId(last) && !(await missedEvents(userId, last))) {
          cursor = last;
        } else {
          cursor = await latestEventId(userId);
          // A reconnect whose place in the log is gone: the page reloads what it shows.
          if (last) send(`id: ${cursor}\nevent: reset\ndata: {"type":"reset"}\n\n`);
        }
        send(`event: ready\ndata: {"type":"ready"}\n\n`);
        // A stopping server ends its streams (at the next heartbeat at the latest); browsers reconnect elsewhere.
        while (!stop.signal.aborted && Date.now() < endAt && !isDraining()) {
          let events: PersonEvent[] = [];
          try {
            events = await eventsAfter(userId, cursor, READ_MAX);
          } catch (err) {
            log.warn("events.read_failed", { err });
          }
          for (const e of events) {
            send(frame(e));
            cursor = e.id;
          }
          if (events.length === READ_MAX) continue;
          const woken = await waitFor(names, Math.min(heartbeatMs, Math.max(0, endAt - Date.now())), stop.signal);
          if (!woken) send(": heartbeat\n\n");
        }
      };
      loop()
        .catch((err) => log.warn("events.stream_failed", { err }))
        .finally(() => {
          options.signal.removeEventListener("abort", onAbort);
          const aborted = stop.signal.aborted;
          stop.abort();
          if (!aborted) {
            try {
              controller.close();
            } catch {
              // Already cancelled by the reader.
            }
          }
        });
    },
    cancel() {
      stop.abort();
    },
  });
}
