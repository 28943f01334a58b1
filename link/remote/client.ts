// Signed requests to the registry's Link API. Every request carries the Link's signature over
// method, path, timestamp, nonce and body sha256 (lib/links/signing.ts, shared with the server).
import { signRequest } from "../../lib/links/signing";
import { LinkError } from "../errors";

export class ServerError extends LinkError {
  constructor(
    code: string,
    message: string,
    readonly status: number,
  ) {
    super(code, message);
  }
}

/** The server could not be reached at all (down, restarting, network): worth retrying. */
export class Unreachable extends Error {}

export type LinkClient = {
  json<T>(method: "GET" | "POST", path: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  bytes(path: string): Promise<Uint8Array>;
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
      throw new Unreachable(`Cannot reach ${base}: ${(err as Error).message}`);
    }
  }
  async function fail(res: Response): Promise<never> {
    const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    if (res.status >= 500 && !body?.error) throw new Unreachable(`${base} answered ${res.status}`);
    throw new ServerError(body?.error?.code ?? `http.${res.status}`, body?.error?.message ?? res.statusText, res.status);
  }
  return {
    async json<T>(method: "GET" | "POST", path: string, body?: unknown, signal?: AbortSignal) {
      const res = await send(method, path, body === undefined ? "" : JSON.stringify(body), signal);
      if (!res.ok) return fail(res);
      return (await res.json()) as T;
    },
    async bytes(path: string) {
      const res = await send("GET", path, "");
      if (!res.ok) return fail(res);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}
