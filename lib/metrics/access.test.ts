import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { checkMetricsAccess } from "./access";
import { isLoopbackAddress } from "./request-socket";

const TOKEN = "t".repeat(40);
const req = (headers: Record<string, string> = {}) => new Request("http://localhost/api/metrics", { headers });
const codeOf = (fn: () => void) => {
  try {
    fn();
    return "allowed";
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
};

describe("isLoopbackAddress", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.255.0.9", true],
    ["::1", true],
    ["::ffff:127.0.0.1", true],
    ["10.0.0.1", false],
    ["192.168.1.1", false],
    ["::ffff:10.0.0.1", false],
    ["::2", false],
    ["fe80::1", false],
    ["localhost", false],
    ["", false],
    [undefined, false],
  ])("%s → %s", (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });
});

describe("checkMetricsAccess", () => {
  it("without a token, allows a loopback socket and refuses any other, whatever X-Forwarded-For says", () => {
    expect(codeOf(() => checkMetricsAccess(req(), { token: undefined, socketAddress: "127.0.0.1" }))).toBe("allowed");
    expect(codeOf(() => checkMetricsAccess(req(), { token: undefined, socketAddress: "::1" }))).toBe("allowed");
    const forged = req({ "x-forwarded-for": "127.0.0.1", "x-real-ip": "127.0.0.1" });
    expect(codeOf(() => checkMetricsAccess(forged, { token: undefined, socketAddress: "203.0.113.7" }))).toBe(
      "metrics.local_only",
    );
    expect(codeOf(() => checkMetricsAccess(forged, { token: undefined, socketAddress: undefined }))).toBe(
      "metrics.local_only",
    );
  });

  it("with a token, requires it from everyone, loopback included", () => {
    const opts = (socketAddress: string) => ({ token: TOKEN, socketAddress });
    expect(codeOf(() => checkMetricsAccess(req(), opts("127.0.0.1")))).toBe("metrics.token_invalid");
    expect(codeOf(() => checkMetricsAccess(req({ authorization: `Bearer ${TOKEN}x` }), opts("127.0.0.1")))).toBe(
      "metrics.token_invalid",
    );
    expect(codeOf(() => checkMetricsAccess(req({ authorization: `Basic ${TOKEN}` }), opts("127.0.0.1")))).toBe(
      "metrics.token_invalid",
    );
    expect(codeOf(() => checkMetricsAccess(req({ authorization: `Bearer ${TOKEN}` }), opts("203.0.113.7")))).toBe(
      "allowed",
    );
    expect(codeOf(() => checkMetricsAccess(req({ authorization: `bearer ${TOKEN}` }), opts("127.0.0.1")))).toBe(
      "allowed",
    );
  });
});
