// The egress filter for `openvibe-only` and `public`: an HTTP proxy (CONNECT and absolute-form
// requests) on a unix socket outside the sandbox. It checks the host before resolving, resolves
// the name itself once, refuses every address that is not global unicast (addresses.ts) and
// connects to the exact address it checked, so a tool can neither pick the address nor rebind DNS.
import { lookup } from "node:dns/promises";
import http from "node:http";
import net from "node:net";
import { chmodSync } from "node:fs";
import type { EgressRecord } from "../../lib/protocol/egress";
import { classifyAddress, isAddressLiteral, type AddressVerdict } from "./addresses";
import { EgressRecorder, type Attempt } from "./egress-record";
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
/** How long the proxy waits for an upstream to accept; a tool's wall time bounds the rest. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Where a request goes: the one address the proxy checked, and the port. */
export type Destination = { address: string; port: number };

export class EgressRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Decides where a request may go: the one address to connect to, or a refusal with a reason. The
 * name is resolved once, here; the caller connects to the address returned and never looks the
 * name up again, so a second DNS answer (rebinding) is never used.
 */
export async function decideTarget(target: Target, options: ProxyOptions): Promise<Destination> {
  const host = target.host.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
  if (!ALLOWED_PORTS.has(target.port)) throw new EgressRefused("link.egress.port", `port ${target.port} is not 80 or 443`);
  const literal = isAddressLiteral(host);
  if (options.net === "openvibe-only") {
    if (literal) throw new EgressRefused("link.egress.ip_literal", "an address is not an allowed host");
    if (!hostAllowed(host, options.allowedHosts)) throw new EgressRefused("link.egress.host", `${host} is not allowed`);
  }
  const mapped = options.hosts?.[host];
  if (mapped) {
    const at = mapped.lastIndexOf(":");
    return { address: mapped.slice(0, at), port: Number(mapped.slice(at + 1)) };
  }
  if (literal) return { address: checked(host, host).address, port: target.port };
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(host);
  } catch {
    throw new EgressRefused("link.egress.dns", `${host} does not resolve`);
  }
  if (addresses.length === 0) throw new EgressRefused("link.egress.dns", `${host} does not resolve`);
  // One non-public answer refuses the name: a mixed answer is how DNS rebinding starts.
  const verdicts = addresses.map((address) => checked(host, address));
  return { address: verdicts[0]!.address, port: target.port };
}

/** The verdict on one address, or the refusal that says which range it is in. */
function checked(host: string, address: string): AddressVerdict {
  const verdict = classifyAddress(address);
  if (verdict.allowed) return verdict;
  const embedded = verdict.embeddedIPv4 ? `, carrying ${verdict.embeddedIPv4}` : "";
  const what = host === address ? host : `${host} resolves to ${address}, which`;
  throw new EgressRefused("link.egress.private", `${what} is not a global unicast address (${verdict.range}${embedded})`);
}

/** A lookup for sockets that only ever answers with the address already checked. */
function pinnedLookup(to: Destination): net.LookupFunction {
  const family = net.isIP(to.address);
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: to.address, family }]);
    else callback(null, to.address, family);
  };
}

async function systemResolve(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}

function parseAuthority(authority: string): Target | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!match) return null;
  return { host: match[1]!, port: Number(match[2]) };
}

export type EgressProxy = {
  socketPath: string;
  close(): Promise<void>;
  log: string[];
  /** Every connection the job tried so far (lib/protocol's EgressRecord). */
  record(): EgressRecord;
};

/** Starts a proxy for one job on `socketPath` (reachable from inside the sandbox only through the bind mount). */
export async function startProxy(socketPath: string, options: ProxyOptions): Promise<EgressProxy> {
  const log: string[] = [];
  const recorder = new EgressRecorder();
  const sockets = new Set<net.Socket>();
  const refuse = (res: http.ServerResponse | net.Socket, err: unknown, attempt: Attempt) => {
    const reason = err instanceof EgressRefused ? `${err.code}: ${err.message}` : "link.egress.failed";
    recorder.deny(attempt, err instanceof EgressRefused ? err.code : "link.egress.failed");
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
      return refuse(res, new EgressRefused("link.egress.request", "absolute URL required"), recorder.start("", 0));
    }
    const port = Number(url.port || 80);
    const attempt = recorder.start(url.hostname, port);
    if (url.protocol !== "http:") return refuse(res, new EgressRefused("link.egress.request", "only http:// in plain requests"), attempt);
    try {
      const to = await decideTarget({ host: url.hostname, port }, options);
      attempt.address = to.address;
      log.push(`http ${url.hostname} → ${to.address}:${to.port}`);
      // Bytes of the request and response bodies (headers are not counted for plain HTTP).
      req.on("data", (chunk: Buffer) => (attempt.bytesUp += chunk.length));
      res.on("close", () => recorder.end(attempt));
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: url.host };
      delete headers["proxy-connection"];
      delete headers["proxy-authorization"];
      const upstream = http.request(
        { host: to.address, port: to.port, lookup: pinnedLookup(to), timeout: CONNECT_TIMEOUT_MS, method: req.method, path: `${url.pathname}${url.search}`, headers, setHost: false },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.on("data", (chunk: Buffer) => (attempt.bytesDown += chunk.length));
          up.pipe(res);
        },
      );
      upstream.on("timeout", () => upstream.destroy(new Error("upstream timeout")));
      upstream.on("error", () => {
        recorder.fail(attempt, "link.egress.upstream_failed");
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      });
      req.pipe(upstream);
    } catch (err) {
      refuse(res, err, attempt);
    }
  });

  server.on("connect", async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url ?? "");
    if (!target) return refuse(client, new EgressRefused("link.egress.request", "CONNECT needs host:port"), recorder.start("", 0));
    const attempt = recorder.start(target.host.replace(/^\[|\]$/g, ""), target.port);
    try {
      const to = await decideTarget(target, options);
      attempt.address = to.address;
      log.push(`connect ${target.host} → ${to.address}:${to.port}`);
      const upstream = net.connect({ host: to.address, port: to.port, lookup: pinnedLookup(to), timeout: CONNECT_TIMEOUT_MS }, () => {
        upstream.setTimeout(0);
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        attempt.bytesUp += head.length;
        client.on("data", (chunk: Buffer) => (attempt.bytesUp += chunk.length));
        upstream.on("data", (chunk: Buffer) => (attempt.bytesDown += chunk.length));
        client.pipe(upstream);
        upstream.pipe(client);
      });
      sockets.add(upstream);
      upstream.on("timeout", () => {
        recorder.fail(attempt, "link.egress.upstream_timeout");
        upstream.destroy();
      });
      upstream.on("close", () => {
        sockets.delete(upstream);
        recorder.end(attempt);
      });
      upstream.on("error", () => {
        recorder.fail(attempt, "link.egress.upstream_failed");
        client.destroy();
      });
      client.on("close", () => upstream.destroy());
    } catch (err) {
      refuse(client, err, attempt);
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
    record: () => recorder.record(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
