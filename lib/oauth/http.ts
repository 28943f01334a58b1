// The OAuth endpoints' edge. OAuth clients read errors as RFC 6749 §5.2 says, `{ error,
// error_description }`, so these routes answer in that shape (the one exception to the site's
// error shape): an AppError `oauth.<error>` becomes `{ error: "<error>" }`. Bodies are bounded
// form or JSON; a repeated parameter is refused. Browsers' clients may call them from any origin
// (no cookie is involved), so they answer CORS for all.
import "server-only";
import { randomUUID } from "node:crypto";
import { config } from "../config/env.mjs";
import { AppError } from "../errors";
import { isStoreOutage } from "../errors/outage";
import { RateLimitGate } from "../http/rate-limit-gate";
import { RateLimitedError } from "../http/rate-limit";
import { log } from "../log";

export const OAUTH_BODY_MAX_BYTES = 16 * 1024;

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "600",
};

export function oauthJson(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      pragma: "no-cache",
      ...CORS_HEADERS,
      ...extra,
    },
  });
}

export const preflight = () => new Response(null, { status: 204, headers: CORS_HEADERS });

/** Wraps an OAuth endpoint: its AppErrors in RFC 6749 form, anything unexpected as `server_error`. */
export function oauthRoute(handler: (req: Request) => Promise<Response>) {
  return async (req: Request): Promise<Response> => {
    // Counted per client IP like any anonymous API request (a client authenticates with its own
    // credentials in the body, never a session).
    const gate = new RateLimitGate(req);
    try {
      await gate.before(false);
      return gate.decorate(await handler(req));
    } catch (err) {
      if (err instanceof RateLimitedError) {
        return gate.decorate(oauthJson({ error: "slow_down", error_description: err.message }, 429));
      }
      if (isStoreOutage(err)) {
        const retryAfter = String(config().RETRY_AFTER_S);
        const description = "The service is briefly unavailable: try again shortly.";
        return oauthJson({ error: "temporarily_unavailable", error_description: description }, 503, { "retry-after": retryAfter });
      }
      if (err instanceof AppError) {
        const error = err.code.startsWith("oauth.") ? err.code.slice("oauth.".length) : "invalid_request";
        const status = err.code.startsWith("oauth.") ? err.status : 400;
        const extra: Record<string, string> = error === "invalid_client" ? { "www-authenticate": 'Basic realm="OpenVibe Skills"' } : {};
        return oauthJson({ error, error_description: err.message }, status, extra);
      }
      const requestId = randomUUID();
      log.error("oauth endpoint failed", { requestId, path: new URL(req.url).pathname, err });
      return oauthJson({ error: "server_error", error_description: `Something went wrong on our side (request id ${requestId}).` }, 500);
    }
  };
}

export async function readBounded(req: Request): Promise<string> {
  if (Number(req.headers.get("content-length") ?? "0") > OAUTH_BODY_MAX_BYTES) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > OAUTH_BODY_MAX_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

const tooLarge = () => new AppError("oauth.invalid_request", `The request body is over ${OAUTH_BODY_MAX_BYTES} bytes.`);

/** An `application/x-www-form-urlencoded` body (what the token and revocation endpoints take). */
export async function readForm(req: Request): Promise<URLSearchParams> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(req.headers.get("content-type") ?? "")) {
    throw new AppError("oauth.invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  return new URLSearchParams(await readBounded(req));
}

export async function readJson(req: Request): Promise<unknown> {
  if (!/^application\/json\b/i.test(req.headers.get("content-type") ?? "")) {
    throw new AppError("oauth.invalid_client_metadata", "Send the client metadata as application/json.");
  }
  try {
    return JSON.parse(await readBounded(req));
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError("oauth.invalid_client_metadata", "The body is not valid JSON.");
  }
}

/** One parameter, at most once (RFC 6749 §3.1: parameters must not repeat). */
export function param(params: URLSearchParams, name: string, maxLength = 2_000): string | undefined {
  const all = params.getAll(name);
  if (all.length > 1) throw new AppError("oauth.invalid_request", `The parameter ${name} was sent more than once.`);
  const value = all[0];
  if (value === undefined || value === "") return undefined;
  if (value.length > maxLength) throw new AppError("oauth.invalid_request", `The parameter ${name} is over ${maxLength} characters.`);
  return value;
}
