// The connections the health and metrics probes use, apart from the app's own: a small pg pool
// and a Redis client that fail fast (short connect and statement timeouts, no offline queue), so
// a store that is down is reported within seconds and never queues up work behind the app.
import "server-only";
import { Redis } from "ioredis";
import pg from "pg";
import { config } from "../config/env.mjs";
import { ProbeTimeoutError } from "./with-timeout";

/** Longest a single probe (one query, one command) may take. */
export const PROBE_TIMEOUT_MS = 2_000;

type Probes = { pool?: pg.Pool; redis?: Redis };
const holder = globalThis as unknown as { openvibeProbes?: Probes };
const probes = (holder.openvibeProbes ??= {});

export function probePool(): pg.Pool {
  if (!probes.pool) {
    const pool = new pg.Pool({
      connectionString: config().DATABASE_URL,
      max: 2,
      // Past the probe's own deadline, so a silent server is reported as that deadline.
      connectionTimeoutMillis: PROBE_TIMEOUT_MS + 500,
      idleTimeoutMillis: 30_000,
      statement_timeout: PROBE_TIMEOUT_MS,
      query_timeout: PROBE_TIMEOUT_MS + 500,
      application_name: "openvibe-probe",
      allowExitOnIdle: true,
    });
    // An idle client that loses its server emits here; the next probe reports the outage.
    pool.on("error", () => {});
    probes.pool = pool;
  }
  return probes.pool;
}

export function probeRedis(): Redis {
  if (!probes.redis) {
    const client = new Redis(config().REDIS_URL, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      connectTimeout: PROBE_TIMEOUT_MS,
      commandTimeout: PROBE_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 250, 2_000),
    });
    client.on("error", () => {});
    probes.redis = client;
  }
  return probes.redis;
}

/** Resolves once the probe client can take commands (it reconnects by itself), or fails after `ms`. */
export function redisReady(client: Redis, ms = PROBE_TIMEOUT_MS): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  if (client.status === "wait" || client.status === "end") void client.connect().catch(() => {});
  return new Promise((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      client.off("ready", onReady);
      reject(new ProbeTimeoutError("Redis", ms));
    }, ms);
    timer.unref();
    client.once("ready", onReady);
  });
}

/** Ends the probe connections (tests, and a process that is stopping). */
export async function closeProbes(): Promise<void> {
  const { pool, redis } = probes;
  probes.pool = undefined;
  probes.redis = undefined;
  await Promise.all([pool?.end().catch(() => {}), redis?.quit().catch(() => redis.disconnect())]);
}
