// What a bench that loaded the app's modules does at its end: close the queues, the events
// subscriber and Redis, drop its scratch database and data folder; and how it exits.
import { rm } from "node:fs/promises";

export async function closeBench(scratch: { database: { drop(): Promise<void> }; dataDir: string }): Promise<void> {
  const { dispatchQueue } = await import("../lib/runs");
  await dispatchQueue().close();
  await (await import("../lib/registry")).scanQueue().close();
  await (await import("../lib/events")).closeEvents();
  const { redis } = await import("../lib/redis");
  await redis().quit();
  await scratch.database.drop();
  await rm(scratch.dataDir, { recursive: true, force: true });
}

/** Runs a bench's main and exits with its exit code (1 on an error, printed). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
