// A store outage answers `503 service.unavailable` with Retry-After, quickly, on real routes:
// PostgreSQL or Redis at a closed port, at a port that accepts connections and never answers,
// and PostgreSQL that takes longer than the statement timeout. Real errors from real clients.
import net from "node:net";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { generateLinkKeyPair, signRequest } from "../protocol";

// Generous against the bounds set below: this catches hangs, it does not measure speed.
const ANSWER_WITHIN_MS = 10_000;
const REAL_DATABASE = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const REAL_REDIS = process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0";

type Globals = {
  openvibeDb?: { $disconnect(): Promise<void> };
  openvibeRedis?: { disconnect(): void };
  openvibeEvents?: { sub: { disconnect(): void } };
};
const globals = globalThis as unknown as Globals;

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A port that accepts connections and never says a word (a hung server, a black-holed proxy). */
const silentSockets = new Set<net.Socket>();
const silent = net.createServer((socket) => silentSockets.add(socket));
async function silentPort(): Promise<number> {
  if (!silent.listening) await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  return (silent.address() as net.AddressInfo).port;
}

/** Fresh app modules (config, db, redis) under the given environment. */
async function appWith(env: Record<string, string>) {
  await dropClients();
  vi.resetModules();
  vi.stubEnv("AUTH_SECRET", "outage-test-secret-".padEnd(40, "x"));
  vi.stubEnv("LOG_LEVEL", "error");
  vi.stubEnv("DATABASE_URL", REAL_DATABASE);
  vi.stubEnv("REDIS_URL", REAL_REDIS);
  vi.stubEnv("REDIS_PREFIX", `test:outage:${process.pid}`);
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  return {
    search: await import("../../app/api/v1/search/route"),
    signup: await import("../../app/api/v1/auth/signup/route"),
    pair: await import("../../app/api/link/v1/pair/route"),
    http: await import("./route"),
    db: (await import("../db")).db,
    registry: await import("../registry/scan-queue"),
  };
}

async function dropClients() {
  const { openvibeDb, openvibeRedis, openvibeEvents } = globals;
  globals.openvibeDb = undefined;
  globals.openvibeRedis = undefined;
  globals.openvibeEvents = undefined;
  openvibeEvents?.sub.disconnect();
  (globalThis as { openvibeScanQueue?: unknown }).openvibeScanQueue = undefined;
  openvibeRedis?.disconnect();
  await openvibeDb?.$disconnect().catch(() => undefined);
}

afterEach(async () => {
  await dropClients();
  vi.unstubAllEnvs();
});

afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await new Promise((resolve) => (silent.listening ? silent.close(resolve) : resolve(undefined)));
});

/** Calls the route and checks it answered 503 service.unavailable with Retry-After, in bounded time. */
async function expectUnavailable(call: () => Promise<Response>) {
  const started = Date.now();
  const res = await call();
  const elapsed = Date.now() - started;
  const body = await res.json();
  expect({ status: res.status, code: body.error?.code }).toEqual({ status: 503, code: "service.unavailable" });
  expect(res.headers.get("retry-after")).toBe("5");
  expect(body.error.details).toEqual({ retry_after_s: 5 });
  expect(elapsed).toBeLessThan(ANSWER_WITHIN_MS);
  return body;
}

const searchRequest = () => new Request("http://localhost/api/v1/search?q=csv");
const signupRequest = () =>
  new Request("http://localhost/api/v1/auth/signup", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      email: `outage-${Date.now()}@example.test`,
      name: "Outage",
      password: "a long enough password 1",
    }),
  });

function pairRequest() {
  const key = generateLinkKeyPair();
  const path = "/api/link/v1/pair";
  const body = JSON.stringify({ code: "ABCD-EFGH-JK", name: "laptop" });
  const headers = signRequest({ linkId: key.publicKey, privateKeyPem: key.privateKeyPem, method: "POST", path, body });
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body,
    headers: { ...headers, "content-type": "application/json" },
  });
}

describe("PostgreSQL unavailable", () => {
  it("at a closed port: a public read and a write both answer 503 with Retry-After", async () => {
    const app = await appWith({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${await closedPort()}/openvibe` });
    await expectUnavailable(() => app.search.GET(searchRequest()));
    await expectUnavailable(() => app.signup.POST(signupRequest()));
  });

  it("at a port that never answers: the connect timeout ends the wait", async () => {
    const app = await appWith({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await silentPort()}/openvibe`,
      DB_CONNECT_TIMEOUT_MS: "500",
    });
    await expectUnavailable(() => app.search.GET(searchRequest()));
  });

  it("slower than the statement timeout: the statement is cancelled and the answer is 503", async () => {
    const app = await appWith({ DB_STATEMENT_TIMEOUT_MS: "300" });
    const slow = app.http.route({
      handler: async () => app.db.$queryRaw`select pg_sleep(5)`,
    });
    await expectUnavailable(() => slow(new Request("http://localhost/slow")));
    // The pool is still good for the next request.
    const quick = app.http.route({
      handler: async () => ({ rows: await app.db.$queryRaw<{ n: number }[]>`select 1 as n` }),
    });
    expect(await (await quick(new Request("http://localhost/quick"))).json()).toEqual({ rows: [{ n: 1 }] });
  });
});

describe("Redis unavailable", () => {
  it("at a closed port: a Link pairing (which records its nonce in Redis first) answers 503", async () => {
    const app = await appWith({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}/0` });
    await expectUnavailable(() => app.pair.POST(pairRequest()));
    // And again once the client is reconnecting in the background, not only on the first command.
    await expectUnavailable(() => app.pair.POST(pairRequest()));
  });

  it("at a port that never answers: the command timeout ends the wait", async () => {
    const app = await appWith({
      REDIS_URL: `redis://127.0.0.1:${await silentPort()}/0`,
      REDIS_CONNECT_TIMEOUT_MS: "300",
      REDIS_COMMAND_TIMEOUT_MS: "300",
    });
    await expectUnavailable(() => app.pair.POST(pairRequest()));
  });

  it("queueing on a Redis that is down fails within the deadline instead of waiting for it", async () => {
    const app = await appWith({
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}/0`,
      REDIS_CONNECT_TIMEOUT_MS: "300",
      REDIS_COMMAND_TIMEOUT_MS: "300",
    });
    const started = Date.now();
    const err = await app.registry.enqueueScan("v-outage").then(
      () => null,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
    const { isStoreOutage } = await import("../errors/outage");
    expect(isStoreOutage(err)).toBe(true);
    await app.registry.scanQueue().close();
  });

  it("a long-poll wait on Redis events still ends at its timeout", async () => {
    await appWith({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}/0` });
    const { waitFor } = await import("../events");
    const started = Date.now();
    expect(await waitFor(["step:outage"], 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
    const aborted = new AbortController();
    setTimeout(() => aborted.abort(), 100);
    expect(await waitFor(["step:outage"], 60_000, aborted.signal)).toBe(false);
    expect(Date.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
  });
});
