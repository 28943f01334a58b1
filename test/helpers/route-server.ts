// Serves Next route handlers over a real local HTTP server, so a client program (a CLI, a Link)
// can be tested against the exact handler code without a Next build.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteTable = Array<{ method: string; pattern: string; handler: Handler }>;

export async function serveRoutes(routes: RouteTable): Promise<{ url: string; close(): Promise<void> }> {
  const compiled = routes.map((r) => ({
    ...r,
    regex: new RegExp("^" + r.pattern.replace(/\[(\w+)\]/g, "(?<$1>[^/]+)") + "$"),
  }));
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const match = compiled.find((r) => r.method === req.method && r.regex.test(url.pathname));
    if (!match) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end('{"error":{"code":"not_found","message":"no route"}}');
      return;
    }
    const params = { ...(match.regex.exec(url.pathname)?.groups ?? {}) };
    const body = await readBody(req);
    // As in Next: the request's signal aborts when its client hangs up before the answer.
    const hangUp = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) hangUp.abort();
    });
    const request = new Request(url, {
      method: req.method,
      signal: hangUp.signal,
      headers: Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined ? [] : [[k, String(v)] as [string, string]],
      ),
      body: body.length && req.method !== "GET" && req.method !== "HEAD" ? new Uint8Array(body) : undefined,
    });
    const response = await match.handler(request, { params: Promise.resolve(params) });
    if (hangUp.signal.aborted) return;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Long-polls and keep-alive sockets would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
