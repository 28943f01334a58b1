// The store timeouts in lib/config: defaults that bound every wait, and a bad value named with its fix.
import { describe, expect, it } from "vitest";
import { parseConfig } from "./env.mjs";

const base = {
  DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/openvibe",
  REDIS_URL: "redis://127.0.0.1:6379/0",
  AUTH_SECRET: "x".repeat(32),
};

describe("store timeouts", () => {
  it("default to bounded values", () => {
    expect(parseConfig(base)).toMatchObject({
      DB_POOL_MAX: 10,
      DB_CONNECT_TIMEOUT_MS: 5_000,
      DB_STATEMENT_TIMEOUT_MS: 20_000,
      REDIS_CONNECT_TIMEOUT_MS: 2_000,
      REDIS_COMMAND_TIMEOUT_MS: 2_000,
      RETRY_AFTER_S: 5,
    });
  });

  it("take whole numbers from the environment", () => {
    expect(parseConfig({ ...base, DB_STATEMENT_TIMEOUT_MS: "300", RETRY_AFTER_S: "2" })).toMatchObject({
      DB_STATEMENT_TIMEOUT_MS: 300,
      RETRY_AFTER_S: 2,
    });
  });

  it("refuse what would not bound anything, naming the variable", () => {
    expect(() => parseConfig({ ...base, DB_CONNECT_TIMEOUT_MS: "0" })).toThrow(
      /DB_CONNECT_TIMEOUT_MS must be at least 100/,
    );
    expect(() => parseConfig({ ...base, REDIS_COMMAND_TIMEOUT_MS: "soon" })).toThrow(
      /REDIS_COMMAND_TIMEOUT_MS must be a whole number/,
    );
    expect(() => parseConfig({ ...base, DB_POOL_MAX: "1.5" })).toThrow(/DB_POOL_MAX must be a whole number/);
  });
});
