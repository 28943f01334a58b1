// Signed requests to the registry's Link API. Every request carries the Link's signature over
// method, path, timestamp, nonce and body sha256 (lib/protocol/signing.ts, shared with the
// server), and every answer is parsed with the protocol's schema before the Link acts on it.
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
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

/** Larger than any answer the Link API gives (a job's input is far smaller). */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

type Answer = { status: number; statusText: string; headers: IncomingHttpHeaders; body: Buffer };

/**
 * One request over node:http(s) with a kept-alive connection: a fraction of fetch's work per
 * request, which a Link makes several times a job.
 */
function request(
  url: URL,
  options: { method: string; headers: Record<string, string>; body: string; agent: http.Agent; signal?: AbortSignal },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === "https:" ? https.request : http.request;
    const headers = options.body ? { ...options.headers, "content-length": String(Buffer.byteLength(options.body)) } : options.headers;
    const req = send(url, { method: options.method, headers, agent: options.agent, signal: options.signal }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`the answer is over ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body || undefined);
  });
}

export function linkClient(server: string, linkId: string, privateKeyPem: string): LinkClient {
  const base = server.replace(/\/$/, "");
  // Idle kept-alive sockets do not hold the process open (Node unrefs them).
  const agent = base.startsWith("https:") ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  async function send(method: string, path: string, body: string, signal?: AbortSignal): Promise<Answer> {
    const headers: Record<string, string> = { ...signRequest({ linkId, privateKeyPem, method, path, body }) };
    if (body) headers["content-type"] = "application/json";
    try {
      return await request(new URL(base + path), { method, headers, body, agent, signal });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new Unreachable(`Cannot reach ${base}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  function fail(res: Answer): never {
    let body: unknown = null;
    try {
      body = JSON.parse(res.body.toString("utf8"));
    } catch {
      // Not JSON (a proxy's error page): the status says enough.
    }
    const parsed = errorBodySchema.safeParse(body);
    const retryAfter = Number(res.headers["retry-after"]);
    throw new ServerError(
      parsed.success ? parsed.data.error.code : `http.${res.status}`,
      parsed.success ? parsed.data.error.message : `${base} answered ${res.status} ${res.statusText}`,
      res.status,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  const ok = (res: Answer) => res.status >= 200 && res.status < 300;
  return {
    async json(schema, method, path, body, signal) {
      const res = await send(method, path, body === undefined ? "" : JSON.stringify(body), signal);
      if (!ok(res)) return fail(res);
      let answer: unknown;
      try {
        answer = JSON.parse(res.body.toString("utf8"));
      } catch {
        answer = undefined;
      }
      const parsed = schema.safeParse(answer);
      if (!parsed.success) {
        throw new LinkError("link.protocol_invalid", `${base}${path} answered something that is not the protocol's: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"} ${i.message}`).join("; ")}`);
      }
      return parsed.data;
    },
    async bytes(path, signal) {
      const res = await send("GET", path, "", signal);
      if (!ok(res)) return fail(res);
      return new Uint8Array(res.body);
    },
  };
}
