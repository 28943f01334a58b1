// The worker host process: `node --conditions=react-server --import tsx workers/index.ts`.
// Validates the config, starts a Worker for every queue in definitions.ts and stops them cleanly
// on SIGTERM/SIGINT (a job in progress finishes first).
import "server-only";
import { config } from "../lib/config/env.mjs";
import { log } from "../lib/log";
import { redis } from "../lib/redis";
import { definitions } from "./definitions";
import { startWorkers } from "./registry";

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
    if (stopping) return;
    stopping = true;
    log.info("workers.stopping", { signal });
    clearInterval(keepAlive);
    await host.close();
    await redis()
      .quit()
      .catch(() => undefined);
    log.info("workers.stopped");
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((err: unknown) => {
  // Not through log: a bad config is the likely cause, and log reads the config.
  console.error(`workers: cannot start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
