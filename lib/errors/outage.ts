// Recognises "a store is down or overloaded" among the errors PostgreSQL (through Prisma's pg
// adapter or pg itself) and Redis (ioredis, BullMQ) throw, so the route wrapper answers
// `503 service.unavailable` with Retry-After instead of 500. Recognition is by the shapes those
// libraries document (error codes, class names, the driver-adapter error kinds), never by
// importing them, so this module stays light.
import { AppError } from "./index";

/** Prisma codes for "cannot reach / timed out / pool exhausted". P2028 only when a transaction could not start. */
const PRISMA_OUTAGE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** Kinds the driver adapter gives socket and capacity failures (@prisma/driver-adapter-utils). */
const ADAPTER_OUTAGE_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
]);
/** Socket errors of Node's net/dns layer. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** Messages of node-postgres (pg, pg-pool) when the connection or the reply is lost. */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /^Client has encountered a connection error and is not queryable/,
  /^Cannot use a pool after calling end/,
];
/** Messages of ioredis for a command that could not be delivered (it throws plain Errors for these). */
const REDIS_MESSAGES = [
  /^Command timed out/,
  /^Connection is closed\./,
  /^Stream isn't writeable and enableOfflineQueue options is false/,
  /^Reached the max retries per request limit/,
];
const REDIS_NAMES = new Set(["MaxRetriesPerRequestError", "RedisDeadlineError", "ConnectionClosedError"]);

type Inspectable = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  meta?: unknown;
  cause?: unknown;
  errors?: unknown;
};

/** True when err (or anything in its cause chain) says PostgreSQL or Redis is unavailable right now. */
export function isStoreOutage(err: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length) {
    const e = queue.shift();
    if (!e || typeof e !== "object" || seen.has(e) || seen.size > 16) continue;
    seen.add(e);
    // An AppError already says what it is (and its status), whatever caused it.
    if ((e as Inspectable).name === "AppError") continue;
    if (isOutageItself(e as Inspectable)) return true;
    const { cause, errors, meta } = e as Inspectable;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
    if (meta && typeof meta === "object") queue.push((meta as { driverAdapterError?: unknown }).driverAdapterError);
  }
  return false;
}

function isOutageItself(e: Inspectable): boolean {
  const name = typeof e.name === "string" ? e.name : "";
  const code = typeof e.code === "string" ? e.code : "";
  const message = typeof e.message === "string" ? e.message : "";
  if (name.startsWith("PrismaClient")) {
    if (name === "PrismaClientInitializationError") return true;
    if (PRISMA_OUTAGE_CODES.has(code)) return true;
    if (code === "P2028" && message.includes("Unable to start a transaction in the given time")) return true;
    return false; // a driver adapter error inside is looked at through meta
  }
  if (name === "DriverAdapterError" || isAdapterCause(e)) return adapterKindIsOutage(e.cause ?? e);
  if (SOCKET_CODES.has(code)) return true;
  if (isPostgresOutageState(code)) return true;
  if (REDIS_NAMES.has(name)) return true;
  return [...PG_MESSAGES, ...REDIS_MESSAGES].some((re) => re.test(message));
}

/** A driver-adapter error's cause: `{ kind, code?, ... }`. */
function isAdapterCause(e: Inspectable): boolean {
  return typeof (e as { kind?: unknown }).kind === "string";
}

function adapterKindIsOutage(cause: unknown): boolean {
  if (!cause || typeof cause !== "object") return false;
  const { kind, code } = cause as { kind?: unknown; code?: unknown };
  if (typeof kind === "string" && ADAPTER_OUTAGE_KINDS.has(kind)) return true;
  return kind === "postgres" && typeof code === "string" && isPostgresOutageState(code);
}

/**
 * SQLSTATEs that mean "not now" rather than "not this": connection exceptions (08…), insufficient
 * resources (53…), operator intervention / shutdown (57P0x), a statement or lock that timed out.
 */
function isPostgresOutageState(code: string): boolean {
  if (!/^[0-9A-Z]{5}$/.test(code)) return false;
  return (
    code.startsWith("08") || code.startsWith("53") || /^57P0[1-4]$/.test(code) || code === "57014" || code === "55P03"
  );
}

/** The answer to an outage: 503 with the seconds after which to try again. */
export function serviceUnavailable(retryAfterSeconds: number, cause?: unknown): AppError {
  return new AppError("service.unavailable", "The service is briefly unavailable. Try again in a few seconds.", {
    details: { retry_after_s: retryAfterSeconds },
    cause,
  });
}
