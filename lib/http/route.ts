// The wrapper every route handler goes through: request id, authentication, body/query parsing
// and error mapping to the one JSON error shape. Handlers stay thin and call one lib/ function.
import { randomUUID } from "node:crypto";
import { z, ZodError, type ZodType } from "zod";
import { config } from "../config/env.mjs";
import { AppError, errorBody, notFound } from "../errors";
import { isStoreOutage, serviceUnavailable } from "../errors/outage";
import { log } from "../log";
import { withRequestMetrics } from "../metrics/http";
import { RateLimitGate, type RouteRateLimit } from "./rate-limit-gate";

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

type Ctx<Principal, Body, Query> = {
  req: Request;
  /** The body as read once (only when `body` or `rawBody` is set). */
  rawBody: string;
  requestId: string;
  principal: Principal;
  body: Body;
  query: Query;
  params: Record<string, string>;
  /** The request's Idempotency-Key on an `idempotent` route (null without one). */
  idempotencyKey: string | null;
};

type RouteOptions<Principal, Body, Query, Answer> = {
  /** Resolves who is asking, or throws an AppError (401/404). Omit for public routes. */
  auth?: (req: Request, rawBody: string) => Promise<Principal>;
  body?: ZodType<Body>;
  /** Read the body before authenticating (signed requests cover the body's bytes). */
  rawBody?: boolean;
  query?: ZodType<Query>;
  maxBodyBytes?: number;
  /** A limit on top of the per-caller one (lib/config/rate-limits.ts), e.g. "publish". */
  rateLimit?: RouteRateLimit;
  /** Takes an `Idempotency-Key` (lib/http/idempotency.ts): the same request twice is done once. */
  idempotent?: true;
  /**
   * Whether an answer did work the server handed out (a poll that hands over jobs, a job's first
   * result): such a request is not counted against its caller's limit (its point goes back).
   */
  uncountedIf?: (answer: Answer) => boolean;
  handler: (ctx: Ctx<Principal, Body, Query>) => Promise<Answer>;
};

type NextRouteContext = { params: Promise<Record<string, string | string[]> | undefined> };

export function route<Principal = undefined, Body = undefined, Query = undefined, Answer = unknown>(
  options: RouteOptions<Principal, Body, Query, Answer>,
) {
  return withRequestMetrics(async (req: Request, context?: NextRouteContext): Promise<Response> => {
    // Rate limits first (before the body is read); every answer carries their headers.
    const gate = new RateLimitGate(req, options.rateLimit);
    return gate.decorate(await handle(req, context, gate));
  });

  async function handle(req: Request, context: NextRouteContext | undefined, gate: RateLimitGate): Promise<Response> {
    const requestId = req.headers.get("x-request-id")?.slice(0, 64) || randomUUID();
    try {
      // The IP's check runs while the body is read and the credentials checked (one round trip
      // less for every call); its 429 still wins over whatever those found.
      const before = gate.before(Boolean(options.auth));
      before.catch(() => undefined);
      let rawBody: string;
      let principal: Principal;
      try {
        rawBody = options.body || options.rawBody ? await readBodyText(req, options) : "";
        principal = options.auth
          ? await gate.authenticate(() => options.auth!(req, rawBody))
          : (undefined as Principal);
      } catch (err) {
        await before;
        throw err;
      }
      await before;
      const body = options.body ? options.body.parse(parseJson(rawBody)) : (undefined as Body);
      const query = options.query
        ? options.query.parse(Object.fromEntries(new URL(req.url).searchParams))
        : (undefined as Query);
      const rawParams = (context ? await context.params : undefined) ?? {};
      const params = Object.fromEntries(
        Object.entries(rawParams).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      // No record is named with a NUL or 2 000 characters; PostgreSQL would refuse the NUL with a 500.
      if (Object.values(params).some((v) => v.includes("\u0000") || v.length > 2000)) throw notFound();
      const run = async (idempotencyKey: string | null) => {
        const result = await options.handler({
          req,
          rawBody,
          requestId,
          principal,
          body,
          query,
          params,
          idempotencyKey,
        });
        if (options.uncountedIf?.(result)) gate.refund();
        return result instanceof Response ? result : json(result ?? { ok: true }, 200, requestId);
      };
      if (!options.idempotent) return await run(null);
      const { idempotent } = await idempotency();
      return await idempotent(req, principal, options.body ? rawBody : null, run);
    } catch (err) {
      return errorResponse(err, requestId, req);
    }
  }
}

let idempotencyModule: Promise<typeof import("./idempotency")> | undefined;
/** Loaded only by routes that take a key (it needs the database, this wrapper does not), once. */
const idempotency = () => (idempotencyModule ??= import("./idempotency"));

/** The JSON text of an answer, BigInt values (ledger amounts) as decimal strings. */
export function answerText(data: unknown): string {
  try {
    // Most answers hold no BigInt: without a replacer V8 takes its fast path (about 4 % of a
    // trivial authenticated request's CPU went to the replacer).
    return JSON.stringify(data);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return JSON.stringify(data, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  }
}

export function json(data: unknown, status = 200, requestId?: string): Response {
  return new Response(answerText(data), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      ...(requestId ? { "x-request-id": requestId } : {}),
    },
  });
}

async function readBodyText(req: Request, options: { body?: unknown; maxBodyBytes?: number }): Promise<string> {
  const maxBytes = options.maxBodyBytes ?? MAX_JSON_BODY_BYTES;
  const type = req.headers.get("content-type") ?? "";
  if (options.body && req.body && !/^application\/json\b/i.test(type)) {
    throw new AppError("request.unsupported_media_type", "Send the body as JSON with content-type application/json.");
  }
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  return readCapped(req, maxBytes);
}

function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("request.invalid_json", "The request body is not valid JSON.");
  }
  if (hasNul(value)) {
    throw new AppError("request.invalid", "Text in the request may not contain NUL characters (\\u0000).");
  }
  return value;
}

/** Whether any string (or key) in a parsed JSON value holds a NUL; iterative, so depth cannot overflow. */
function hasNul(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === "string") {
      if (v.includes("\u0000")) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v && typeof v === "object") {
      for (const [k, child] of Object.entries(v)) {
        if (k.includes("\u0000")) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

async function readCapped(req: Request, maxBytes: number): Promise<string> {
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(maxBytes: number) {
  return new AppError("request.too_large", `The request body is over ${maxBytes} bytes.`);
}

/** Zod issues as `{ path, message }` with dotted JSON paths, for 422 details. */
export function zodDetails(err: ZodError) {
  return err.issues.map((i) => ({ path: i.path.length ? "/" + i.path.join("/") : "/", message: i.message }));
}

function errorResponse(thrown: unknown, requestId: string, req: Request): Response {
  let err = thrown;
  // PostgreSQL or Redis is down or overloaded: "try again shortly", never a 500 or a hang.
  if (isStoreOutage(err)) {
    log.warn("store unavailable", { requestId, method: req.method, path: new URL(req.url).pathname, err });
    err = serviceUnavailable(config().RETRY_AFTER_S, err);
  }
  if (err instanceof AppError) {
    const res = json(errorBody(err), err.status, requestId);
    if (err.status === 503) res.headers.set("retry-after", String(config().RETRY_AFTER_S));
    return res;
  }
  if (err instanceof ZodError) {
    const appErr = new AppError("request.invalid", "The request is not valid: see details.", {
      details: zodDetails(err),
    });
    return json(errorBody(appErr), appErr.status, requestId);
  }
  log.error("unhandled error", { requestId, method: req.method, path: new URL(req.url).pathname, err });
  const internal = new AppError(
    "internal",
    "Something went wrong on our side. Try again; if it persists, quote the request id.",
  );
  return json(errorBody(internal, requestId), 500, requestId);
}

export { z };
