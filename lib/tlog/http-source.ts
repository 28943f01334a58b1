// The registry over HTTP as a LogSource: each answer read with a size cap and a timeout, and its
// shape checked before anything uses it. Errors say what failed and what to do. No Prisma, no Next:
// the CLI and the Link use it as is.
import { z } from "zod";
import { decodeBase64 } from "./note";
import type { LogSource } from "./verify-version";

const TIMEOUT_MS = 20_000;
const KIB = 1024;

const hashes = z.array(z.string().max(64)).max(128);
const schemas = {
  key: z.object({ vkey: z.string().min(1).max(512) }),
  inclusion: z.object({ leaf_index: z.number().int(), tree_size: z.number().int(), hashes }),
  consistency: z.object({ from: z.number().int(), to: z.number().int(), hashes }),
  versionEntries: z.object({
    entries: z.array(z.object({ index: z.number().int().min(0), data: z.string().max(4 * KIB) })).max(16),
  }),
  entries: z.object({
    entries: z
      .array(z.object({ index: z.number().int().min(0), data: z.string().max(4 * KIB), leaf_hash: z.string().max(64) }))
      .max(1024),
  }),
};

export class SourceError extends Error {
  constructor(
    message: string,
    /** The server was unreachable or answered 5xx/429: the same request may well work in a moment. */
    readonly transient = false,
  ) {
    super(message);
    this.name = "SourceError";
  }
}

export function httpLogSource(server: string, fetchImpl: typeof fetch = fetch): LogSource {
  const base = server.replace(/\/+$/, "");
  const enc = encodeURIComponent;

  async function get(path: string, maxBytes: number): Promise<Uint8Array> {
    let res: Response;
    try {
      res = await fetchImpl(`${base}${path}`, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause?.message;
      throw new SourceError(
        `could not reach ${base}${path}: ${(err as Error).message}${cause ? ` (${cause})` : ""}. Is the server running? Check --server.`,
        true,
      );
    }
    const body = await readCapped(res, maxBytes, path);
    if (!res.ok) {
      let code = `http.${res.status}`;
      let message = res.statusText;
      try {
        const parsed = JSON.parse(Buffer.from(body).toString("utf8")) as {
          error?: { code?: string; message?: string; details?: { reason?: unknown } };
        };
        const reason = parsed.error?.details?.reason;
        code = (parsed.error?.code ?? code) + (typeof reason === "string" ? ` (${reason.slice(0, 64)})` : "");
        message = parsed.error?.message ?? message;
      } catch {
        // Not the registry's JSON error shape: keep the status.
      }
      throw new SourceError(
        `${path} answered ${res.status} ${code}: ${message}`,
        res.status >= 500 || res.status === 429,
      );
    }
    return body;
  }

  async function getJson<T>(path: string, maxBytes: number, schema: z.ZodType<T>): Promise<T> {
    const body = await get(path, maxBytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(body).toString("utf8"));
    } catch {
      throw new SourceError(`${path} did not answer JSON`);
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success)
      throw new SourceError(`${path} answered an unexpected shape: ${checked.error.issues[0]?.message}`);
    return checked.data;
  }

  const decodeHashes = (list: string[], path: string) =>
    list.map((h) => {
      const bytes = decodeBase64(h);
      if (!bytes || bytes.length !== 32)
        throw new SourceError(`${path} answered a hash that is not 32 bytes of base64`);
      return bytes;
    });

  return {
    key: async () => (await getJson("/api/v1/log/key", 4 * KIB, schemas.key)).vkey,
    checkpoint: () => get("/api/v1/log/checkpoint", 16 * KIB),
    consistency: async (from, to) => {
      const path = `/api/v1/log/proof/consistency?from=${from}&to=${to}`;
      const r = await getJson(path, 16 * KIB, schemas.consistency);
      if (r.from !== from || r.to !== to) throw new SourceError(`${path} answered a proof for other sizes`);
      return decodeHashes(r.hashes, path);
    },
    inclusion: async (index, size) => {
      const path = `/api/v1/log/proof/inclusion?leaf=${index}&size=${size}`;
      const r = await getJson(path, 16 * KIB, schemas.inclusion);
      if (r.leaf_index !== index || r.tree_size !== size)
        throw new SourceError(`${path} answered a proof for another entry`);
      return decodeHashes(r.hashes, path);
    },
    versionEntries: async (slug, version) =>
      (await getJson(`/api/v1/log/versions/${enc(slug)}/${enc(version)}`, 64 * KIB, schemas.versionEntries)).entries,
    entries: async (start, end) => {
      const path = `/api/v1/log/entries?start=${start}&end=${end}`;
      const page = await getJson(path, 1024 * KIB, schemas.entries);
      return page.entries.map((e) => ({
        index: e.index,
        data: e.data,
        leafHash: decodeHashes([e.leaf_hash], path)[0]!,
      }));
    },
    listing: (slug, version) => getJson(`/api/v1/skills/${enc(slug)}/${enc(version)}/listing`, 1024 * KIB, z.unknown()),
    document: (slug, version) => getJson(`/api/v1/skills/${enc(slug)}/${enc(version)}`, 4096 * KIB, z.unknown()),
    code: (slug, version, sha256) => get(`/api/v1/skills/${enc(slug)}/${enc(version)}/code/${enc(sha256)}`, 128 * KIB),
  };
}

async function readCapped(res: Response, maxBytes: number, path: string): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new SourceError(`${path} answered more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
