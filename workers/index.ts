// The worker host process: `node --conditions=react-server --import tsx workers/index.ts`.
// Validates the config, starts a Worker for every queue in definitions.ts and stops them cleanly
// on SIGTERM/SIGINT: no new jobs, and jobs in progress get WORKER_DRAIN_MS to finish.
import "server-only";
import { config } from "../lib/config/env.mjs";
import { log } from "../lib/log";
import { redis } from "../lib/redis";
import { definitions } from "./definitions";
import { startWorkers } from "./registry";
import { drainHost } from "./shutdown";

async function main() {
  config();
  // Fail at start, not at the first job, when Redis does not answer.
  await redis().ping();
  const host = startWorkers(definitions);
  log.info("workers.started", { queues: definitions.map((d) => d.queue) });
  // With no queue yet nothing else holds the event loop; the host stays up for its supervisor.
  const keepAlive = setInterval(() => {}, 1 << 30);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      // Ctrl-C again while draining: stop now (running jobs go back to the queue). A repeated
      // SIGTERM (a supervisor and a process group both signalling) only waits on.
      if (signal !== "SIGINT") return;
      log.warn("workers.stop_forced", { signal });
      process.exit(1);
    }
    stopping = true;
    const timeoutMs = config().WORKER_DRAIN_MS;
    log.info("workers.stopping", { signal, drainMs: timeoutMs });
    clearInterval(keepAlive);
    const { drained, ms } = await drainHost(host, timeoutMs);
    await redis()
      .quit()
      .catch(() => undefined);
    if (drained) log.info("workers.stopped", { drained, ms });
    else
      log.warn("workers.stopped", {
        drained,
        ms,
        note: "jobs still running go to another host when their lock lapses",
      });
    process.exit(drained ? 0 : 1);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err: unknown) => {
  // Not through log: a bad config is the likely cause, and log reads the config.
  console.error(`workers: cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
