// @ts-check
// The one place that reads process.env. Every variable is validated at start-up (next.config.mjs,
// workers, scripts) and a bad one is named together with the fix. Documented in .env.example.
import { z } from "zod";

/** @param {string} what @param {string} example */
const url = (what, example) =>
  z.string({ error: `is missing: set it to ${what}, e.g. ${example}` }).refine((v) => {
    try {
      return Boolean(new URL(v));
    } catch {
      return false;
    }
  }, `must be a URL, e.g. ${example}`);

/** An integer from the environment within [min, max]. @param {number} min @param {number} max */
const bounded = (min, max) =>
  z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: url("your PostgreSQL URL", "postgresql://postgres@127.0.0.1:5432/openvibe").refine(
      (v) => /^postgres(ql)?:/.test(v),
      "must be a postgresql:// URL",
    ),
    REDIS_URL: url("your Redis URL", "redis://127.0.0.1:6379/0").refine(
      (v) => /^rediss?:/.test(v),
      "must be a redis:// URL",
    ),
    REDIS_PREFIX: z
      .string()
      .regex(/^[a-z0-9:_-]{1,64}$/i, "must be 1-64 letters, digits, ':', '_' or '-'")
      .default("ov"),
    APP_URL: url("the site's public base URL", "http://localhost:3000").default("http://localhost:3000"),
    AUTH_SECRET: z
      .string({ error: "is missing: set it to 32+ random characters, e.g. `openssl rand -hex 32`" })
      .min(32, "must be at least 32 characters: generate one with `openssl rand -hex 32`"),
    GITHUB_ID: z.string().min(1).optional(),
    GITHUB_SECRET: z.string().min(1).optional(),
    DATA_DIR: z.string().min(1).default(".data"),
    BLOB_READ_WRITE_TOKEN: z.string().min(1).optional(),
    BLOB_API_URL: url("the Vercel Blob API base URL (only for a self-hosted or test endpoint)", "http://127.0.0.1:9000")
      .optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
    METRICS_TOKEN: z
      .string()
      .min(32, "must be at least 32 characters: generate one with `openssl rand -hex 32`")
      .optional(),
    HEALTH_MAX_QUEUE_LAG_MS: z.coerce
      .number({ error: "must be a number of milliseconds, e.g. 60000" })
      .int()
      .min(1000, "must be at least 1000 (1 s)")
      .default(60_000),
    WORKER_DRAIN_MS: z.coerce
      .number({ error: "must be a number of milliseconds, e.g. 25000" })
      .int()
      .min(0)
      .max(600_000, "must be at most 600000 (10 minutes)")
      .default(25_000),
    PG_BIN_DIR: z.string().min(1).optional(),
    // Bounds that keep a request from hanging on a store that is down (answered 503, see lib/errors/outage.ts).
    DB_POOL_MAX: bounded(1, 100).default(10),
    DB_CONNECT_TIMEOUT_MS: bounded(100, 60_000).default(5_000),
    DB_STATEMENT_TIMEOUT_MS: bounded(100, 600_000).default(20_000),
    REDIS_CONNECT_TIMEOUT_MS: bounded(100, 60_000).default(2_000),
    REDIS_COMMAND_TIMEOUT_MS: bounded(100, 60_000).default(2_000),
    RETRY_AFTER_S: bounded(1, 3_600).default(5),
    TRUSTED_PROXIES: z
      .string()
      .max(2000)
      .regex(
        /^(?:\d{1,2}|[0-9a-fA-F.:]{2,45}(?:\s*,\s*[0-9a-fA-F.:]{2,45}){0,31})$/,
        "must be a number of proxy hops (e.g. 1) or a comma-separated list of proxy IP addresses",
      )
      .default("0"),
    RATE_LIMIT_SCALE: z.coerce
      .number({ error: "must be a number" })
      .min(1, "must be at least 1 (it only ever raises the limits)")
      .max(1000, "must be at most 1000")
      .default(1),
    TLOG_SIGNING_KEY: z
      .string()
      .regex(/^PRIVATE\+KEY\+[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/, "must be a note signer key: PRIVATE+KEY+<name>+<id>+<key> (npm run tlog:keygen)")
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (Boolean(v.GITHUB_ID) !== Boolean(v.GITHUB_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [v.GITHUB_ID ? "GITHUB_SECRET" : "GITHUB_ID"],
        message: "GitHub sign-in needs both GITHUB_ID and GITHUB_SECRET: set the other one or unset both",
      });
    }
  });

/** @typedef {z.infer<typeof schema>} Config */

export class ConfigError extends Error {}

/**
 * Parses an environment (process.env by default) into the typed config, or throws a ConfigError
 * whose message names each bad variable and how to fix it.
 * @param {Record<string, string | undefined>} [source]
 * @returns {Config}
 */
export function parseConfig(source = process.env) {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(environment)"} ${i.message}`);
  throw new ConfigError(
    `OpenVibe cannot start: the environment is not valid.\n${lines.join("\n")}\nSee .env.example for every variable.`,
  );
}

/** @type {Config | undefined} */
let cached;

/** The validated config of this process (parsed once). */
export function config() {
  cached ??= parseConfig();
  return cached;
}
