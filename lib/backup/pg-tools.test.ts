import { describe, expect, it } from "vitest";
import { libpqTarget } from "./pg-run";
import { candidateDirs, parseToolVersion } from "./pg-tools";

describe("parseToolVersion", () => {
  it.each([
    ["pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n", { major: 15, version: "15.20" }],
    ["pg_dump (PostgreSQL) 18.1\n", { major: 18, version: "18.1" }],
    ["pg_restore (PostgreSQL) 17beta2\n", { major: 17, version: "17" }],
    ["something else\n", null],
  ])("%j", (output, expected) => {
    expect(parseToolVersion(output)).toEqual(expected);
  });
});

describe("candidateDirs", () => {
  it("tries PG_BIN_DIR first, then Debian's folder of the server's major, and PATH last", () => {
    const dirs = candidateDirs({ binDir: "/opt/pg/bin", serverMajor: 42, envPath: "/nowhere" });
    expect(dirs[0]).toBe("/opt/pg/bin");
    expect(dirs[1]).toBe("/usr/lib/postgresql/42/bin");
    expect(new Set(dirs).size).toBe(dirs.length);
  });
});

describe("libpqTarget", () => {
  it("takes the password out of the URL and drops Prisma's own parameters", () => {
    const t = libpqTarget(
      "postgresql://app:s%40cret@db.example:5432/openvibe?schema=public&sslmode=require&connection_limit=5",
    );
    expect(t.password).toBe("s@cret");
    expect(t.url).toBe("postgresql://app@db.example:5432/openvibe?sslmode=require");
  });

  it("leaves a URL without a password as it is", () => {
    expect(libpqTarget("postgresql://postgres@127.0.0.1:5432/x")).toEqual({
      url: "postgresql://postgres@127.0.0.1:5432/x",
    });
  });
});
