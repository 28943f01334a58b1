// Serves Next route handlers over real local HTTP like route-server.ts, but streams each response
// as the handler produces it (Server-Sent Events for MCP) and cancels the handler's stream when the
// client goes away, as Next does. Also: the route table of everything an MCP test talks to.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteTable = Array<{ method: string; pattern: string; handler: Handler }>;

export async function serveStreaming(routes: RouteTable, port = 0): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const compiled = routes.map((r) => ({
    ...r,
    regex: new RegExp("^" + r.pattern.replace(/\./g, "\\.").replace(/\[(\w+)\]/g, "(?<$1>[^/]+)") + "$"),
  }));
  const inFlight = new Set<Promise<void>>();
  const server: Server = createServer((req, res) => {
    const handling = handle(req, res).finally(() => inFlight.delete(handling));
    inFlight.add(handling);
  });
  async function handle(req: IncomingMessage, res: import("node:http").ServerResponse) {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const match = compiled.find((r) => r.method === req.method && r.regex.test(url.pathname));
    if (!match) {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"code":"not_found","message":"no route"}}');
      return;
    }
    const body = await readBody(req);
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const request = new Request(url, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]])),
      body: body.length && req.method !== "GET" && req.method !== "HEAD" ? new Uint8Array(body) : undefined,
      signal: abort.signal,
    });
    let response: Response;
    try {
      response = await match.handler(request, { params: Promise.resolve({ ...(match.regex.exec(url.pathname)?.groups ?? {}) }) });
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
      return;
    }
    const headers: Record<string, string[]> = {};
    response.headers.forEach((v, k) => (headers[k] = [...(headers[k] ?? []), v]));
    res.writeHead(response.status, headers);
    if (!response.body) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    res.on("close", () => void reader.cancel().catch(() => undefined));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        res.write(Buffer.from(value));
      }
    } catch {
      // the client went away mid-stream
    }
    res.end();
  }
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    // Closing aborts every request's signal; wait for their handlers (long polls) to notice.
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((r) => setTimeout(r, 5_000))]);
    },
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Every route an MCP client, the OAuth flow and a real Link reach, imported from app/. */
export async function mcpRoutes(): Promise<RouteTable> {
  const r = (p: string) => import(p);
  const mcp = await r("../../app/api/mcp/route");
  const prm = await r("../../app/.well-known/oauth-protected-resource/route");
  const prmPath = await r("../../app/.well-known/oauth-protected-resource/api/mcp/route");
  const asm = await r("../../app/.well-known/oauth-authorization-server/route");
  const register = await r("../../app/oauth/register/route");
  const token = await r("../../app/oauth/token/route");
  const revoke = await r("../../app/oauth/revoke/route");
  const consent = await r("../../app/oauth/consent/route");
  const link = {
    pair: await r("../../app/api/link/v1/pair/route"),
    heartbeat: await r("../../app/api/link/v1/heartbeat/route"),
    poll: await r("../../app/api/link/v1/poll/route"),
    start: await r("../../app/api/link/v1/jobs/[id]/start/route"),
    result: await r("../../app/api/link/v1/jobs/[id]/result/route"),
    release: await r("../../app/api/link/v1/jobs/[id]/release/route"),
    inputs: await r("../../app/api/link/v1/jobs/[id]/inputs/[mediaId]/route"),
  };
  return [
    ...["GET", "POST", "DELETE", "OPTIONS"].map((method) => ({ method, pattern: "/api/mcp", handler: mcp[method] })),
    { method: "GET", pattern: "/.well-known/oauth-protected-resource", handler: prm.GET },
    { method: "GET", pattern: "/.well-known/oauth-protected-resource/api/mcp", handler: prmPath.GET },
    { method: "GET", pattern: "/.well-known/oauth-authorization-server", handler: asm.GET },
    { method: "POST", pattern: "/oauth/register", handler: register.POST },
    { method: "POST", pattern: "/oauth/token", handler: token.POST },
    { method: "POST", pattern: "/oauth/revoke", handler: revoke.POST },
    { method: "POST", pattern: "/oauth/consent", handler: consent.POST },
    { method: "POST", pattern: "/api/link/v1/pair", handler: link.pair.POST },
    { method: "POST", pattern: "/api/link/v1/heartbeat", handler: link.heartbeat.POST },
    { method: "POST", pattern: "/api/link/v1/poll", handler: link.poll.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/start", handler: link.start.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/result", handler: link.result.POST },
    { method: "POST", pattern: "/api/link/v1/jobs/[id]/release", handler: link.release.POST },
    { method: "GET", pattern: "/api/link/v1/jobs/[id]/inputs/[mediaId]", handler: link.inputs.GET },
    // What a Link checks a version against before its first run.
    ...(await (await import("./tlog-routes")).tlogRoutes()),
  ];
}
