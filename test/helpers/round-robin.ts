// A load balancer with no session affinity: each HTTP request goes to the next backend in turn,
// streamed both ways. MCP tests put two web processes behind it, so consecutive requests of one
// session land on different processes.
import { createServer, request as httpRequest, type Server } from "node:http";

export type RoundRobin = {
  url: string;
  hits: number[];
  /** Every request in order: which backend took it. */
  log: { backend: number; method: string; path: string }[];
  close(): Promise<void>;
};

export async function roundRobin(port: number, backends: string[]): Promise<RoundRobin> {
  const hits = backends.map(() => 0);
  const log: RoundRobin["log"] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const i = next++ % backends.length;
    hits[i]! += 1;
    log.push({ backend: i, method: req.method ?? "", path: req.url ?? "" });
    const target = new URL(req.url ?? "/", backends[i]);
    const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    log,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
