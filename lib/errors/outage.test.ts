// Which errors count as "a store is unavailable". The shapes are the ones Prisma 7's pg adapter,
// pg and ioredis throw (captured from real failures; outage.int.test.ts produces them for real).
import { describe, expect, it } from "vitest";
import { Prisma } from "../db/generated/client";
import { AppError } from "./index";
import { isStoreOutage, serviceUnavailable } from "./outage";

const known = (code: string, meta?: Record<string, unknown>, message = "Invalid invocation") =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: "7.10.0", meta });
const adapter = (cause: Record<string, unknown>) => ({ driverAdapterError: { name: "DriverAdapterError", cause } });
const socketError = (code: string) =>
  Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code, errno: -111, syscall: "connect" });

describe("isStoreOutage", () => {
  it.each([
    [
      "Prisma: cannot reach the server (P1001)",
      known("P1001", adapter({ kind: "DatabaseNotReachable", host: "127.0.0.1", port: 1 })),
    ],
    [
      "Prisma raw query on an unreachable server (P2010 + DatabaseNotReachable)",
      known("P2010", adapter({ kind: "DatabaseNotReachable" })),
    ],
    [
      "Prisma: statement timeout (P2010 + 57014)",
      known(
        "P2010",
        adapter({ kind: "postgres", code: "57014", message: "canceling statement due to statement timeout" }),
      ),
    ],
    ["Prisma: server shutting down (57P01)", known("P2010", adapter({ kind: "postgres", code: "57P01" }))],
    ["Prisma: too many connections", known("P2010", adapter({ kind: "TooManyConnections" }))],
    ["Prisma: connection reset", known("P2034", adapter({ kind: "ConnectionClosed" }))],
    ["Prisma: pool exhausted (P2024)", known("P2024")],
    [
      "Prisma: a transaction could not start in time (P2028)",
      known("P2028", {}, "Transaction API error: Unable to start a transaction in the given time."),
    ],
    [
      "pg: connect timeout",
      Object.assign(new Error("Connection terminated due to connection timeout"), {
        cause: new Error("Connection terminated unexpectedly"),
      }),
    ],
    ["pg: pool connect timeout", new Error("timeout exceeded when trying to connect")],
    ["pg: reply never came (query_timeout)", new Error("Query read timeout")],
    ["pg: raw SQLSTATE 08006", Object.assign(new Error("connection failure"), { code: "08006", severity: "FATAL" })],
    ["socket: ECONNREFUSED", socketError("ECONNREFUSED")],
    ["socket: ETIMEDOUT inside an AggregateError", new AggregateError([socketError("ETIMEDOUT")], "connect failed")],
    [
      "ioredis: MaxRetriesPerRequestError",
      Object.assign(new Error("Reached the max retries per request limit (which is 1)."), {
        name: "MaxRetriesPerRequestError",
      }),
    ],
    ["ioredis: command timeout", new Error("Command timed out")],
    ["ioredis: offline queue off", new Error("Stream isn't writeable and enableOfflineQueue options is false")],
    ["ioredis: closed", new Error("Connection is closed.")],
    [
      "lib/redis: deadline passed",
      Object.assign(new Error("the scan queue did not answer within 4000 ms"), { name: "RedisDeadlineError" }),
    ],
    ["wrapped one level down", new Error("publish failed", { cause: socketError("ECONNRESET") })],
  ])("%s", (_label, err) => {
    expect(isStoreOutage(err)).toBe(true);
  });

  it.each([
    ["a unique violation", known("P2002", { target: ["email"] })],
    ["a record that is not there", known("P2025")],
    [
      "P2028 for a transaction that ran too long (a bug, not an outage)",
      known(
        "P2028",
        {},
        "Transaction API error: Transaction already closed: A commit cannot be executed on an expired transaction.",
      ),
    ],
    ["a SQL error (42P01)", known("P2010", adapter({ kind: "postgres", code: "42P01" }))],
    ["a missing database (a configuration error)", known("P2010", adapter({ kind: "DatabaseDoesNotExist", db: "x" }))],
    [
      "a Redis reply error",
      Object.assign(new Error("WRONGTYPE Operation against a key holding the wrong kind of value"), {
        name: "ReplyError",
      }),
    ],
    ["a plain bug", new TypeError("Cannot read properties of undefined (reading 'id')")],
    [
      "an AppError, even one caused by a socket error",
      new AppError("media.storage_failed", "x", { cause: socketError("ECONNREFUSED") }),
    ],
    ["nothing", undefined],
    ["a string", "ECONNREFUSED"],
  ])("not %s", (_label, err) => {
    expect(isStoreOutage(err)).toBe(false);
  });

  it("survives a cause cycle", () => {
    const a = new Error("a") as Error & { cause?: unknown };
    const b = new Error("b", { cause: a });
    a.cause = b;
    expect(isStoreOutage(a)).toBe(false);
  });
});

describe("serviceUnavailable", () => {
  it("is a 503 with a stable code and says when to retry", () => {
    const err = serviceUnavailable(5);
    expect(err.status).toBe(503);
    expect(err.code).toBe("service.unavailable");
    expect(err.details).toEqual({ retry_after_s: 5 });
  });
});
