// The egress filter for `openvibe-only` and `public`: an HTTP proxy (CONNECT and absolute-form
// requests) on a unix socket outside the sandbox. It checks the host before resolving, resolves
// the name itself, refuses loopback/private/link-local/CGNAT/metadata addresses and connects to
// the exact address it checked, so a tool can neither pick the address nor rebind DNS.
import { lookup } from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import { chmodSync } from "node:fs";
import { hostAllowed, type NetPolicy } from "./policy";

export type Target = { host: string; port: number };

export type ProxyOptions = {
  net: Exclude<NetPolicy, "deny">;
  /** Hostname patterns for openvibe-only (exact names or `*.suffix`). */
  allowedHosts: readonly string[];
  /**
   * Operator-configured names: host → "address:port" used instead of DNS. Trusted configuration
   * (how tests map an allowlisted name to a local server), so the private-address rule is not applied.
   */
  hosts?: Readonly<Record<string, string>>;
  /** Resolver for names not in `hosts`; the system resolver by default. */
  resolve?: (host: string) => Promise<string[]>;
};

const ALLOWED_PORTS = new Set([80, 443]);

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) blocked.addSubnet(address, prefix, "ipv4");
for (const [address, prefix] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["2001:db8::", 32], ["100::", 64],
] as const) blocked.addSubnet(address, prefix, "ipv6");

/** True for any address a tool must never reach: the Link's own, its LAN, link-local and cloud metadata. */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const lower = address.toLowerCase();
    const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return isNonPublicAddress(mapped[1]!);
    if (/^::ffff:/.test(lower) || /^64:ff9b::/.test(lower)) return true;
    return blocked.check(address, "ipv6");
  }
  return blocked.check(address, "ipv4");
}

export class EgressRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Decides where a request may go: the one address to connect to, or a refusal with a reason. */
export async function decideTarget(target: Target, options: ProxyOptions): Promise<{ address: string; port: number }> {
  const host = target.host.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (!ALLOWED_PORTS.has(target.port)) throw new EgressRefused("link.egress.port", `port ${target.port} is not 80 or 443`);
  const literal = net.isIP(host) !== 0;
  if (options.net === "openvibe-only") {
    if (literal) throw new EgressRefused("link.egress.ip_literal", "an address is not an allowed host");
    if (!hostAllowed(host, options.allowedHosts)) throw new EgressRefused("link.egress.host", `${host} is not allowed`);
  }
  const mapped = options.hosts?.[host];
  if (mapped) {
    const at = mapped.lastIndexOf(":");
    return { address: mapped.slice(0, at), port: Number(mapped.slice(at + 1)) };
  }
  if (literal) {
    if (isNonPublicAddress(host)) throw new EgressRefused("link.egress.private", `${host} is not a public address`);
    return { address: host, port: target.port };
  }
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(host);
  } catch {
    throw new EgressRefused("link.egress.dns", `${host} does not resolve`);
  }
  if (addresses.length === 0) throw new EgressRefused("link.egress.dns", `${host} does not resolve`);
  // One non-public answer refuses the name: a mixed answer is how DNS rebinding starts.
  const bad = addresses.find(isNonPublicAddress);
  if (bad) throw new EgressRefused("link.egress.private", `${host} resolves to ${bad}, which is not public`);
  return { address: addresses[0]!, port: target.port };
}

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

function parseAuthority(authority: string): Target | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  return { host: match[1]!, port: Number(match[2]) };
}

export type EgressProxy = { socketPath: string; close(): Promise<void>; log: string[] };

/** Starts a proxy for one job on `socketPath` (reachable from inside the sandbox only through the bind mount). */
export async function startProxy(socketPath: string, options: ProxyOptions): Promise<EgressProxy> {
  const log: string[] = [];
  const sockets = new Set<net.Socket>();
  const refuse = (res: http.ServerResponse | net.Socket, err: unknown) => {
    const reason = err instanceof EgressRefused ? `${err.code}: ${err.message}` : "link.egress.failed";
    log.push(`refused ${reason}`);
    if (res instanceof net.Socket) {
      res.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${reason}\n`);
    } else {
      res.writeHead(403, { "content-type": "text/plain", connection: "close" }).end(`${reason}\n`);
    }
  };

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      return refuse(res, new EgressRefused("link.egress.request", "absolute URL required"));
    }
    if (url.protocol !== "http:") return refuse(res, new EgressRefused("link.egress.request", "only http:// in plain requests"));
    try {
      const to = await decideTarget({ host: url.hostname, port: Number(url.port || 80) }, options);
      log.push(`http ${url.hostname}`);
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: url.host };
      delete headers["proxy-connection"];
      delete headers["proxy-authorization"];
      const upstream = http.request(
        { host: to.address, port: to.port, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on("error", () => res.headersSent ? res.destroy() : res.writeHead(502).end());
      req.pipe(upstream);
    } catch (err) {
      refuse(res, err);
    }
  });

  server.on("connect", async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url ?? "");
    if (!target) return refuse(client, new EgressRefused("link.egress.request", "CONNECT needs host:port"));
    try {
      const to = await decideTarget(target, options);
      log.push(`connect ${target.host}`);
      const upstream = net.connect(to.port, to.address, () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        client.pipe(upstream);
        upstream.pipe(client);
      });
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.on("error", () => {
        client.destroy();
      });
      client.on("close", () => upstream.destroy());
    } catch (err) {
      refuse(client, err);
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  // The sandbox runs as another uid; the socket lives in the job's private folder.
  chmodSync(socketPath, 0o666);
  return {
    socketPath,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
