// The egress filter's decisions, and the proxy itself over its unix socket.
import http from "node:http";
import net from "node:net";

import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostAllowed } from "./policy";
import { decideTarget, isNonPublicAddress, startProxy, type EgressProxy, type ProxyOptions } from "./proxy";
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

  it("classifies addresses", () => {
    for (const a of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.0.1", "169.254.169.254", "100.64.1.1", "0.0.0.0", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "64:ff9b::a00:1", "not-an-ip"]) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"]) expect(isNonPublicAddress(a), a).toBe(false);
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
