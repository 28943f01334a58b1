// A small in-memory stand-in for the Vercel Blob HTTP API, for tests that drive the real
// `@vercel/blob` client: PUT /?pathname= (put), GET ?url= (head), GET /?prefix= (list), POST
// /delete (del), and the private store host `<store>.private.blob.vercel-storage.com/<pathname>`
// (get). Only what the media store and backups use; behaviour copied from @vercel/blob 2.8's
// client (headers, error JSON).
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from "undici";

export type FakeBlob = {
  bytes: Buffer;
  contentType: string;
  access: "public" | "private";
  uploadedAt: Date;
  etag: string;
};

export type FakeRequest = { method: string; path: string; host: string; headers: IncomingMessage["headers"] };

export type FakeVercelBlob = {
  /** Value for BLOB_API_URL / VERCEL_BLOB_API_URL. */
  apiUrl: string;
  /** A read-write token in Vercel's shape (`vercel_blob_rw_<store>_<secret>`) that the fake accepts. */
  token: string;
  storeId: string;
  blobs: Map<string, FakeBlob>;
  requests: FakeRequest[];
  /** Replaces stored bytes without going through the API (simulates damage at rest). */
  tamper(pathname: string, bytes: Buffer): void;
  close(): Promise<void>;
};

const STORE_HOST = /^([a-z0-9]+)\.(public|private)\.blob\.vercel-storage\.com$/;

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, code: string, message: string) {
  sendJson(res, status, { error: { code, message } });
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts the fake and routes the client's reads of `*.blob.vercel-storage.com` to it (through
 * undici's global dispatcher, which `@vercel/blob`'s fetch uses); close() restores the routing.
 */
export async function startFakeVercelBlob(): Promise<FakeVercelBlob> {
  const storeId = `fake${randomBytes(6).toString("hex")}`;
  const token = `vercel_blob_rw_${storeId}_${randomBytes(12).toString("hex")}`;
  const blobs = new Map<string, FakeBlob>();
  const requests: FakeRequest[] = [];
  let origin = "";

  const blobUrl = (pathname: string, access: string) =>
    `https://${storeId}.${access}.blob.vercel-storage.com/${pathname}`;
  const pathnameOf = (urlOrPathname: string) => {
    if (!/^https?:\/\//.test(urlOrPathname)) return urlOrPathname;
    const url = new URL(urlOrPathname);
    return decodeURIComponent(url.pathname.slice(1));
  };
  const describe = (pathname: string, blob: FakeBlob) => ({
    url: blobUrl(pathname, blob.access),
    downloadUrl: `${blobUrl(pathname, blob.access)}?download=1`,
    pathname,
    contentType: blob.contentType,
    contentDisposition: `attachment; filename="${pathname.split("/").pop()}"`,
    etag: blob.etag,
  });

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.headers.authorization !== `Bearer ${token}` || req.headers["x-vercel-blob-store-id"] !== storeId) {
      return sendError(res, 403, "forbidden", "Access denied, please provide a valid token for this resource.");
    }
    if (!req.headers["x-api-version"]) return sendError(res, 400, "bad_request", "Missing x-api-version header");
    const route = url.pathname.replace(/^\/api\/blob/, "") || "/";

    if (req.method === "PUT" && route === "/") {
      const pathname = url.searchParams.get("pathname");
      const access = req.headers["x-vercel-blob-access"];
      if (!pathname) return sendError(res, 400, "bad_request", "pathname is required");
      if (access !== "private" && access !== "public") return sendError(res, 400, "bad_request", "access is required");
      if (blobs.has(pathname) && req.headers["x-allow-overwrite"] !== "1") {
        return sendError(
          res,
          400,
          "bad_request",
          "This blob already exists, use `allowOverwrite: true` to overwrite it.",
        );
      }
      const bytes = await readBody(req);
      const blob: FakeBlob = {
        bytes,
        contentType: String(req.headers["x-content-type"] ?? "application/octet-stream"),
        access,
        uploadedAt: new Date(),
        etag: `"${createHash("md5").update(bytes).digest("hex")}"`,
      };
      blobs.set(pathname, blob);
      return sendJson(res, 200, describe(pathname, blob));
    }

    if (req.method === "GET" && route === "/" && url.searchParams.has("url")) {
      const pathname = pathnameOf(url.searchParams.get("url")!);
      const blob = blobs.get(pathname);
      if (!blob) return sendError(res, 404, "not_found", "The requested blob does not exist");
      return sendJson(res, 200, {
        ...describe(pathname, blob),
        size: blob.bytes.length,
        cacheControl: "public, max-age=2592000",
        uploadedAt: blob.uploadedAt.toISOString(),
      });
    }

    if (req.method === "GET" && route === "/") {
      // list(): pathnames in order, `limit` per page (1000 at most), the cursor is the last pathname.
      const prefix = url.searchParams.get("prefix") ?? "";
      const limit = Math.min(Number(url.searchParams.get("limit") ?? 1000) || 1000, 1000);
      const after = url.searchParams.get("cursor") ?? "";
      const names = [...blobs.keys()].filter((p) => p.startsWith(prefix) && p > after).sort();
      const page = names.slice(0, limit);
      const hasMore = names.length > limit;
      return sendJson(res, 200, {
        blobs: page.map((p) => ({
          ...describe(p, blobs.get(p)!),
          size: blobs.get(p)!.bytes.length,
          uploadedAt: blobs.get(p)!.uploadedAt.toISOString(),
        })),
        cursor: hasMore ? page[page.length - 1] : undefined,
        hasMore,
      });
    }

    if (req.method === "POST" && route === "/delete") {
      let urls: unknown;
      try {
        urls = (JSON.parse((await readBody(req)).toString("utf8")) as { urls?: unknown }).urls;
      } catch {
        return sendError(res, 400, "bad_request", "Invalid JSON body");
      }
      if (!Array.isArray(urls) || !urls.every((u) => typeof u === "string")) {
        return sendError(res, 400, "bad_request", "urls must be an array of strings");
      }
      for (const u of urls) blobs.delete(pathnameOf(u));
      return sendJson(res, 200, {});
    }

    return sendError(res, 400, "bad_request", `Unsupported request ${req.method} ${route}`);
  }

  function handleStore(req: IncomingMessage, res: ServerResponse, host: string, pathname: string) {
    const m = STORE_HOST.exec(host);
    if (!m || m[1] !== storeId) return sendError(res, 404, "store_not_found", "No such store");
    if (req.method !== "GET") return sendError(res, 405, "bad_request", "Only GET is served here");
    const blob = blobs.get(pathname);
    if (m[2] === "private" && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(403).end("Forbidden");
      return;
    }
    if (!blob || blob.access !== m[2]) {
      res.writeHead(404).end("Not Found");
      return;
    }
    res.writeHead(200, {
      "content-type": blob.contentType,
      "content-length": String(blob.bytes.length),
      etag: blob.etag,
      "last-modified": blob.uploadedAt.toUTCString(),
      "cache-control": "private, max-age=0",
    });
    res.end(blob.bytes);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const store = /^\/__store\/([^/]+)\/(.+)$/.exec(url.pathname);
    const host = store ? store[1]! : String(req.headers.host);
    requests.push({ method: req.method ?? "", path: req.url ?? "", host, headers: req.headers });
    if (store) return handleStore(req, res, host, decodeURIComponent(store[2]!));
    if (url.pathname.startsWith("/api/blob")) {
      return void handleApi(req, res, url).catch((err: unknown) =>
        sendError(res, 400, "bad_request", err instanceof Error ? err.message : String(err)),
      );
    }
    sendError(res, 404, "not_found", "Unknown path");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Reads go to the store's own host, not the API base; this sends them here instead.
  const previous = getGlobalDispatcher();
  const routed = new Agent().compose(
    (dispatch: Dispatcher["dispatch"]) => (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandlers) => {
      const target = new URL(String(opts.origin));
      if (!target.hostname.endsWith(".blob.vercel-storage.com")) return dispatch(opts, handler);
      return dispatch({ ...opts, origin, path: `/__store/${target.hostname}${opts.path}` }, handler);
    },
  );
  setGlobalDispatcher(routed);

  return {
    apiUrl: `${origin}/api/blob`,
    token,
    storeId,
    blobs,
    requests,
    tamper(pathname, bytes) {
      const blob = blobs.get(pathname);
      if (!blob) throw new Error(`No blob at ${pathname}`);
      blob.bytes = bytes;
    },
    async close() {
      setGlobalDispatcher(previous);
      await routed.close();
      await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
