// The egress filter's decisions, and the proxy itself over its unix socket.
import diagnostics from "node:diagnostics_channel";
import http from "node:http";
import net from "node:net";

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostAllowed } from "./policy";
import { decideTarget, startProxy, type EgressProxy, type ProxyOptions } from "./proxy";
import { removeTempDir, tempDir } from "../../test/helpers/temp-dir";

const openvibeOnly: ProxyOptions = {
  net: "openvibe-only",
  allowedHosts: ["openvibe.services", "*.openvibe.services"],
  resolve: async (host) => ({ "openvibe.services": ["93.184.216.34"], "api.openvibe.services": ["93.184.216.35"], "rebind.openvibe.services": ["93.184.216.36", "10.0.0.5"] })[host] ?? [],
};
const publicNet: ProxyOptions = { ...openvibeOnly, net: "public", allowedHosts: ["*"], resolve: async (host) => (host === "lan.example" ? ["192.168.1.10"] : host === "v6meta.example" ? ["fd00:ec2::254"] : ["93.184.216.34"]) };

describe("the egress decision", () => {
  it("matches exact names and subdomain wildcards, never look-alikes", () => {
    const list = ["openvibe.services", "*.openvibe.services"];
    expect(hostAllowed("openvibe.services", list)).toBe(true);
    expect(hostAllowed("API.openvibe.services.", list)).toBe(true);
    expect(hostAllowed("evilopenvibe.services", list)).toBe(false);
    expect(hostAllowed("openvibe.services.evil.com", list)).toBe(false);
    expect(hostAllowed("x.example", ["api.openvibe.test"])).toBe(false);
  });

  it("under openvibe-only connects allowlisted names to the address it resolved itself", async () => {
    expect(await decideTarget({ host: "api.openvibe.services", port: 443 }, openvibeOnly)).toEqual({ address: "93.184.216.35", port: 443 });
  });

  it.each([
    [{ host: "example.com", port: 443 }, "link.egress.host"],
    [{ host: "93.184.216.34", port: 443 }, "link.egress.ip_literal"],
    [{ host: "openvibe.services", port: 22 }, "link.egress.port"],
    [{ host: "rebind.openvibe.services", port: 443 }, "link.egress.private"],
    [{ host: "nx.openvibe.services", port: 443 }, "link.egress.dns"],
  ])("under openvibe-only refuses %j (%s)", async (target, code) => {
    await expect(decideTarget(target, openvibeOnly)).rejects.toMatchObject({ code });
  });

  it.each([
    [{ host: "127.0.0.1", port: 80 }],
    [{ host: "[::1]", port: 443 }],
    [{ host: "169.254.169.254", port: 80 }],
    [{ host: "100.64.0.1", port: 80 }],
    [{ host: "[::ffff:10.0.0.1]", port: 80 }],
    [{ host: "lan.example", port: 443 }],
    [{ host: "v6meta.example", port: 80 }],
  ])("under public refuses the Link's own, private and metadata addresses: %j", async (target) => {
    await expect(decideTarget(target, publicNet)).rejects.toMatchObject({ code: "link.egress.private" });
  });

  it.each([
    ["0x7f.1"],
    ["2130706433"],
    ["[::ffff:127.0.0.1]"],
    ["[::127.0.0.1]"],
    ["[64:ff9b::a9fe:a9fe]"],
    ["[2002:a00:1::]"],
    ["[fe80::1%25eth0]"],
  ])("under public refuses the address literal %s in whatever form it hides a private address", async (host) => {
    await expect(decideTarget({ host, port: 443 }, publicNet)).rejects.toMatchObject({ code: "link.egress.private" });
  });

  it("under public connects an address literal to its canonical form, and a name to the address it checked", async () => {
    expect(await decideTarget({ host: "[2606:4700:4700:0:0:0:0:1111]", port: 443 }, publicNet)).toEqual({ address: "2606:4700:4700::1111", port: 443 });
    expect(await decideTarget({ host: "example.org", port: 80 }, publicNet)).toEqual({ address: "93.184.216.34", port: 80 });
  });

  it("says which range refused a name and what IPv4 address it carries", async () => {
    const options: ProxyOptions = { ...publicNet, resolve: async () => ["93.184.216.34", "2002:7f00:1::1"] };
    await expect(decideTarget({ host: "mixed.example", port: 443 }, options)).rejects.toThrow(/mixed\.example resolves to 2002:7f00:1::1, which is not a global unicast address \(6to4, carrying 127\.0\.0\.1\)/);
  });
});

describe("the proxy on its socket", () => {
  let dir: string;
  let proxy: EgressProxy;
  let upstream: http.Server;
  let hits: string[] = [];

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      hits.push(`${req.headers.host} ${req.url}`);
      res.end("hello");
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
    const port = (upstream.address() as net.AddressInfo).port;
    dir = tempDir("proxy");
    proxy = await startProxy(path.join(dir, "proxy.sock"), { ...openvibeOnly, allowedHosts: ["api.openvibe.test"], hosts: { "api.openvibe.test": `127.0.0.1:${port}` } });
  });

  afterAll(async () => {
    await proxy.close();
    upstream.close();
    removeTempDir(dir);
  });

  const viaProxy = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(proxy.socketPath, () => socket.write(request));
      let text = "";
      socket.on("data", (d) => {
        text += d;
        if (text.includes("hello") || text.includes("403")) socket.end();
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });

  it("forwards a plain request to an allowlisted host, and refuses another", async () => {
    hits = [];
    expect(await viaProxy("GET http://api.openvibe.test/x HTTP/1.1\r\nHost: api.openvibe.test\r\nConnection: close\r\n\r\n")).toMatch(/200 OK[\s\S]*hello/);
    expect(await viaProxy("GET http://evil.test/x HTTP/1.1\r\nHost: evil.test\r\nConnection: close\r\n\r\n")).toMatch(/403[\s\S]*link.egress.host/);
    expect(hits).toEqual(["api.openvibe.test /x"]);
  });

  it("tunnels CONNECT only to allowed targets", async () => {
    hits = [];
    const tunnel = await viaProxy("CONNECT api.openvibe.test:80 HTTP/1.1\r\nHost: api.openvibe.test:80\r\n\r\nGET /t HTTP/1.1\r\nHost: api.openvibe.test\r\nConnection: close\r\n\r\n");
    expect(tunnel).toMatch(/200 Connection Established[\s\S]*hello/);
    expect(await viaProxy("CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n")).toMatch(/403[\s\S]*link.egress.ip_literal/);
    expect(hits).toEqual(["api.openvibe.test /t"]);
  });
});

describe("the proxy against DNS rebinding", () => {
  // A resolver that answers a public address first and the Link's loopback on every later lookup.
  let lookups: string[] = [];
  const rebinding: ProxyOptions = {
    net: "public",
    allowedHosts: ["*"],
    resolve: async (host) => {
      lookups.push(host);
      return lookups.length === 1 ? ["93.184.216.34"] : ["127.0.0.1"];
    },
  };
  let dir: string;
  let proxy: EgressProxy;
  /** Every outgoing connection this process attempts (the proxy's upstreams), stopped as soon as it starts. */
  let attempts: string[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: net.Socket };
    socket.once("connectionAttempt", (ip: string, port: number | undefined) => {
      // The test's own connections to the proxy's unix socket have no port.
      if (!port) return;
      attempts.push(`${ip}:${port}`);
      setImmediate(() => socket.destroy(new Error("stopped by the test")));
    });
  };

  beforeAll(async () => {
    dir = tempDir("proxy-rebind");
    proxy = await startProxy(path.join(dir, "proxy.sock"), rebinding);
    diagnostics.subscribe("net.client.socket", onSocket);
  });

  afterAll(async () => {
    diagnostics.unsubscribe("net.client.socket", onSocket);
    await proxy.close();
    removeTempDir(dir);
  });

  const send = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect(proxy.socketPath, () => socket.write(request));
      let text = "";
      socket.on("data", (d) => (text += d));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });

  it.each([
    ["CONNECT", "CONNECT rebind.example:443 HTTP/1.1\r\nHost: rebind.example:443\r\n\r\n"],
    ["a plain request", "GET http://rebind.example/ HTTP/1.1\r\nHost: rebind.example\r\nConnection: close\r\n\r\n"],
  ])("%s: looks the name up once and dials exactly the address it checked", async (_kind, request) => {
    lookups = [];
    attempts = [];
    const port = request.startsWith("CONNECT") ? 443 : 80;
    const answer = await send(request);
    expect(lookups).toEqual(["rebind.example"]);
    expect(attempts).toEqual([`93.184.216.34:${port}`]);
    expect(answer).not.toMatch(/200/);
    expect(proxy.log.at(-1)).toMatch(new RegExp(`rebind\\.example → 93\\.184\\.216\\.34:${port}`));
    // The next request is decided afresh: the rebound answer is refused, and nothing is dialled.
    attempts = [];
    expect(await send(request)).toMatch(/403[\s\S]*link\.egress\.private: rebind\.example resolves to 127\.0\.0\.1/);
    expect(lookups).toEqual(["rebind.example", "rebind.example"]);
    expect(attempts).toEqual([]);
  });
});
