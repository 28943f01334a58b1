// Repeating jobs (BullMQ job schedulers): idempotent by id, so every worker host may declare them.
import { Queue } from "bullmq";
import { bullConnection } from "../lib/redis";

export type Schedule = { queue: string; name: string; everyMs: number };

export async function ensureSchedules(schedules: Schedule[]): Promise<void> {
  for (const s of schedules) {
    const bull = bullConnection();
    const queue = new Queue(s.queue, bull);
    try {
      await queue.upsertJobScheduler(`every-${s.name}`, { every: s.everyMs }, { name: s.name, data: {} });
    } finally {
      await queue.close();
      await bull.connection.quit().catch(() => undefined);
    }
  }
}
