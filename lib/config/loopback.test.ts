import { describe, expect, it } from "vitest";
import { isLoopbackHost, isLoopbackUrl } from "./loopback.mjs";

describe("isLoopbackHost", () => {
  it.each(["localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1"])(
    "%s stays on this machine",
    (host) => expect(isLoopbackHost(host)).toBe(true),
  );

  it.each([
    "0.0.0.0",
    "::",
    "192.168.1.10",
    "10.0.0.1",
    "example.com",
    "localhost.example.com",
    "128.0.0.1",
    "127.0.0.256",
    "",
  ])("%s does not", (host) => expect(isLoopbackHost(host)).toBe(false));
});

describe("isLoopbackUrl", () => {
  it("reads the URL's host", () => {
    expect(isLoopbackUrl("http://localhost:3000")).toBe(true);
    expect(isLoopbackUrl("http://[::1]:3000/x")).toBe(true);
    expect(isLoopbackUrl("https://skills.example.com")).toBe(false);
    expect(isLoopbackUrl("http://127.0.0.1.nip.io")).toBe(false);
    expect(isLoopbackUrl("not a url")).toBe(false);
  });
});
