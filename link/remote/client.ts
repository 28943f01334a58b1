// Signed requests to the registry's Link API. Every request carries the Link's signature over
// method, path, timestamp, nonce and body sha256 (lib/protocol/signing.ts, shared with the
// server), and every answer is parsed with the protocol's schema before the Link acts on it.
import type { z } from "zod";
import { errorBodySchema, isJobGoneCode, signRequest } from "../../lib/protocol";
import { LinkError } from "../errors";

/** The server answered with an error (its stable code, its HTTP status). */
export class ServerError extends LinkError {
  constructor(
    code: string,
    message: string,
    readonly status: number,
    /** Seconds the server asked to wait (Retry-After), when it said. */
    readonly retryAfterS: number | null = null,
  ) {
    super(code, message);
  }

  /** Worth trying again: the server is down, overloaded or restarting. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429 || this.status === 408;
  }

  /** The server says this job is gone for this Link: stop sending anything about it. */
  get jobGone(): boolean {
    return this.status >= 400 && this.status < 500 && isJobGoneCode(this.code);
  }
}

/** The server could not be reached at all (down, restarting, network): worth retrying. */
export class Unreachable extends Error {}

export type LinkClient = {
  json<S extends z.ZodType>(schema: S, method: "GET" | "POST", path: string, body?: unknown, signal?: AbortSignal): Promise<z.output<S>>;
  bytes(path: string, signal?: AbortSignal): Promise<Uint8Array>;
};

export function linkClient(server: string, linkId: string, privateKeyPem: string): LinkClient {
  const base = server.replace(/\/$/, "");
  async function send(method: string, path: string, body: string, signal?: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { ...signRequest({ linkId, privateKeyPem, method, path, body }) };
    if (body) headers["content-type"] = "application/json";
    try {
      return await fetch(base + path, { method, headers, body: body || undefined, signal });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new Unreachable(`Cannot reach ${base}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  async function fail(res: Response): Promise<never> {
    const text = await res.text().catch(() => "");
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's error page): the status says enough.
    }
    const parsed = errorBodySchema.safeParse(body);
    const retryAfter = Number(res.headers.get("retry-after"));
    throw new ServerError(
      parsed.success ? parsed.data.error.code : `http.${res.status}`,
      parsed.success ? parsed.data.error.message : `${base} answered ${res.status} ${res.statusText}`,
      res.status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  return {
    async json(schema, method, path, body, signal) {
      const res = await send(method, path, body === undefined ? "" : JSON.stringify(body), signal);
      if (!res.ok) return fail(res);
      const parsed = schema.safeParse(await res.json().catch(() => undefined));
      if (!parsed.success) {
        throw new LinkError("link.protocol_invalid", `${base}${path} answered something that is not the protocol's: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"} ${i.message}`).join("; ")}`);
      }
      return parsed.data;
    },
    async bytes(path, signal) {
      const res = await send("GET", path, "", signal);
      if (!res.ok) return fail(res);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}
