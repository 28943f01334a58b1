// What a bench that loaded the app's modules must close before it exits: the queues, the events
// subscriber and the Redis connection (imported here so a bench that never used them loads them last).
export async function closeAppClients(): Promise<void> {
  const { dispatchQueue } = await import("../lib/runs");
  await dispatchQueue().close();
  await (await import("../lib/registry")).scanQueue().close();
  await (await import("../lib/events")).closeEvents();
  const { redis } = await import("../lib/redis");
  await redis().quit();
}
