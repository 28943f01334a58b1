// The pure and local pieces of provisioning; the services themselves are exercised by every
// `npm test` run (and its OV_FORCE_EMBEDDED=1 variant).
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import * as provision from "./provision.mjs";

const saved = process.env.AUTH_SECRET;
afterEach(() => {
  if (saved === undefined) delete process.env.AUTH_SECRET;
  else process.env.AUTH_SECRET = saved;
});

describe("databaseUrl", () => {
  it("points the admin URL at another database, keeping credentials, host and options", () => {
    expect(
      provision.databaseUrl("postgresql://postgres:pw@127.0.0.1:54329/postgres?sslmode=disable", "ov_test_1"),
    ).toBe("postgresql://postgres:pw@127.0.0.1:54329/ov_test_1?sslmode=disable");
  });
});

describe("createDatabase", () => {
  it("refuses a name that is not a plain identifier before touching the server", async () => {
    await expect(provision.createDatabase("postgresql://x@127.0.0.1:1/postgres", 'x"; drop')).rejects.toThrow(
      /invalid database name/,
    );
  });
});

describe("ensureAuthSecret", () => {
  it("takes AUTH_SECRET from the environment", () => {
    process.env.AUTH_SECRET = "a".repeat(40);
    expect(provision.ensureAuthSecret()).toBe("a".repeat(40));
  });

  it("refuses a short AUTH_SECRET with the fix in one line", () => {
    process.env.AUTH_SECRET = "short";
    expect(() => provision.ensureAuthSecret()).toThrow(/AUTH_SECRET must be at least 32 characters.*openssl rand/);
  });
});

describe("ports", () => {
  it("finds a free port and sees it taken once something listens there", async () => {
    const port: number = await provision.freePort();
    expect(await provision.portInUse(port)).toBe(false);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    try {
      expect(await provision.portInUse(port)).toBe(true);
    } finally {
      server.close();
    }
  });
});
