// The client IP behind rate limits: the TCP peer unless proxies are configured, and never what a
// client claims about itself.
import { afterEach, describe, expect, it, vi } from "vitest";

async function load(trusted: string) {
  vi.resetModules();
  vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
  vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
  vi.stubEnv("AUTH_SECRET", "x".repeat(32));
  vi.stubEnv("TRUSTED_PROXIES", trusted);
  const peer = await import("./peer-address");
  (globalThis as { openvibePeerHook?: boolean }).openvibePeerHook = true;
  const { clientIp } = await import("./client-ip");
  return (peerAddress: string, forwardedFor?: string) =>
    clientIp(
      new Headers({
        [peer.PEER_ADDRESS_HEADER]: peerAddress,
        ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
      }),
    );
}

afterEach(() => {
  vi.unstubAllEnvs();
  delete (globalThis as { openvibePeerHook?: boolean }).openvibePeerHook;
});

describe("clientIp", () => {
  it("is the TCP peer by default, whatever X-Forwarded-For says", async () => {
    const ip = await load("0");
    expect(ip("::ffff:10.1.2.3", "6.6.6.6")).toBe("10.1.2.3");
    expect(ip("2001:db8::1", "6.6.6.6, 7.7.7.7")).toBe("2001:db8::1");
  });

  it("believes exactly N hops from the right behind N proxies", async () => {
    const ip = await load("1");
    expect(ip("10.0.0.1", "6.6.6.6, 203.0.113.7")).toBe("203.0.113.7");
    expect(ip("10.0.0.1")).toBe("10.0.0.1");
    const two = await load("2");
    expect(two("10.0.0.1", "6.6.6.6, 203.0.113.7, 10.0.0.2")).toBe("203.0.113.7");
  });

  it("walks back only over listed proxy addresses", async () => {
    const ip = await load("10.0.0.1, 10.0.0.2");
    expect(ip("10.0.0.1", "6.6.6.6, 203.0.113.7, 10.0.0.2")).toBe("203.0.113.7");
    // A request straight from a client (not a listed proxy): its header is ignored.
    expect(ip("198.51.100.9", "6.6.6.6")).toBe("198.51.100.9");
  });

  it("turns anything that is not an address into one shared 'unknown' bucket", async () => {
    const ip = await load("1");
    expect(ip("10.0.0.1", "<script>, " + "9".repeat(5000))).toBe("unknown");
    const none = await load("0");
    delete (globalThis as { openvibePeerHook?: boolean }).openvibePeerHook;
    expect(none("1.2.3.4")).toBe("unknown");
  });
});
