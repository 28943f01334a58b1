// Top-ups through the payment provider interface, against the real PostgreSQL and the route
// handler itself: caps, idempotency (a retried request never adds twice, even concurrently), a
// declined payment adds nothing, and someone else's key is their own.
import { sessionToken } from "../../test/helpers/session-cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import type { Payment, PaymentProvider } from "./payments";

const BASE = "http://localhost:3998";
const SECRET = "integration-secret-".padEnd(40, "x");
const UNIT = 1_000_000n;

let env: IntegrationEnv;
let payments: typeof import("./payments");
let ledger: typeof import("./ledger");
let topUpsRoute: typeof import("@/app/api/v1/balance/top-ups/route");
let balanceRoute: typeof import("@/app/api/v1/balance/route");
let cookieName: string;

type Person = { id: string; cookie: string };

async function person(label: string): Promise<Person> {
  const { createUser } = await import("../auth/users");
  const u = await createUser({
    email: `${label}-${Math.random().toString(36).slice(2)}@example.test`,
    name: label,
    password: null,
  });
  return { id: u.id, cookie: `${cookieName}=${await sessionToken(u.id, SECRET)}` };
}

const post = (p: Person | null, body: unknown, headers: Record<string, string> = {}) =>
  topUpsRoute.POST(
    new Request(`${BASE}/api/v1/balance/top-ups`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(p ? { cookie: p.cookie } : {}), ...headers },
      body: JSON.stringify(body),
    }),
  );

const topupRows = (userId: string) => env.db.ledgerEntry.findMany({ where: { userId, kind: "topup" } });

class DecliningProvider implements PaymentProvider {
  readonly name = "declining";
  async createPayment(p: { userId: string; amountMicros: bigint; idempotencyKey: string }): Promise<Payment> {
    return {
      id: `decl_${p.idempotencyKey}`,
      provider: this.name,
      userId: p.userId,
      amountMicros: p.amountMicros,
      status: "pending",
    };
  }
  async confirm(payment: Payment): Promise<Payment> {
    return { ...payment, status: "failed" };
  }
}

beforeAll(async () => {
  env = await setupIntegration("payments");
  payments = await import("./payments");
  ledger = await import("./ledger");
  topUpsRoute = await import("@/app/api/v1/balance/top-ups/route");
  balanceRoute = await import("@/app/api/v1/balance/route");
  cookieName = (await import("../auth")).sessionCookieName();
}, 120_000);

afterAll(async () => env?.teardown());

describe("topUp (lib)", () => {
  it("adds a confirmed payment once; the same key again adds nothing and answers the same balance", async () => {
    const p = await person("once");
    const first = await payments.topUp(p.id, { amountMicros: 5n * UNIT, idempotencyKey: "key-once-0001" });
    expect(first).toMatchObject({ created: true, amountMicros: 5n * UNIT, balanceMicros: 5n * UNIT });
    expect(first.paymentId).toMatch(/^demo_[0-9a-f]{32}$/);
    const again = await payments.topUp(p.id, { amountMicros: 5n * UNIT, idempotencyKey: "key-once-0001" });
    expect(again).toMatchObject({ created: false, paymentId: first.paymentId, balanceMicros: 5n * UNIT });
    expect(await ledger.balanceOf(p.id)).toBe(5n * UNIT);
    const rows = await topupRows(p.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.idempotencyKey).toBe(`topup:${first.paymentId}`);
  });

  it("never adds twice when the same request arrives many times at once", async () => {
    const p = await person("race");
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        payments.topUp(p.id, { amountMicros: 2n * UNIT, idempotencyKey: "key-race-0001" }),
      ),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await ledger.balanceOf(p.id)).toBe(2n * UNIT);
    expect(await topupRows(p.id)).toHaveLength(1);
  });

  it("refuses the same key for a different amount, and keeps different keys apart", async () => {
    const p = await person("conflict");
    await payments.topUp(p.id, { amountMicros: 3n * UNIT, idempotencyKey: "key-conf-0001" });
    await expect(
      payments.topUp(p.id, { amountMicros: 4n * UNIT, idempotencyKey: "key-conf-0001" }),
    ).rejects.toMatchObject({
      code: "billing.idempotency_conflict",
      status: 409,
    });
    await payments.topUp(p.id, { amountMicros: 4n * UNIT, idempotencyKey: "key-conf-0002" });
    expect(await ledger.balanceOf(p.id)).toBe(7n * UNIT);
  });

  it("gives another person's identical key its own payment", async () => {
    const a = await person("a");
    const b = await person("b");
    const ra = await payments.topUp(a.id, { amountMicros: 1n * UNIT, idempotencyKey: "key-shared-01" });
    const rb = await payments.topUp(b.id, { amountMicros: 9n * UNIT, idempotencyKey: "key-shared-01" });
    expect(rb.created).toBe(true);
    expect(rb.paymentId).not.toBe(ra.paymentId);
    expect(await ledger.balanceOf(a.id)).toBe(1n * UNIT);
    expect(await ledger.balanceOf(b.id)).toBe(9n * UNIT);
  });

  it("keeps a top-up within 1-1000 units and needs a usable key", async () => {
    const p = await person("caps");
    for (const amountMicros of [0n, UNIT - 1n, 1_000n * UNIT + 1n]) {
      await expect(
        payments.topUp(p.id, { amountMicros, idempotencyKey: `key-caps-${amountMicros}` }),
      ).rejects.toMatchObject({
        code: "billing.top_up_invalid",
      });
    }
    await expect(payments.topUp(p.id, { amountMicros: UNIT, idempotencyKey: "short" })).rejects.toMatchObject({
      code: "billing.top_up_invalid",
    });
    await expect(
      payments.topUp(p.id, { amountMicros: UNIT, idempotencyKey: "bad key with spaces" }),
    ).rejects.toMatchObject({
      code: "billing.top_up_invalid",
    });
    await payments.topUp(p.id, { amountMicros: UNIT, idempotencyKey: "key-caps-min" });
    await payments.topUp(p.id, { amountMicros: 1_000n * UNIT, idempotencyKey: "key-caps-max" });
    expect(await ledger.balanceOf(p.id)).toBe(1_001n * UNIT);
  });

  it("adds nothing when the provider does not confirm the payment", async () => {
    const p = await person("declined");
    await expect(
      payments.topUp(p.id, { amountMicros: 5n * UNIT, idempotencyKey: "key-decl-0001" }, new DecliningProvider()),
    ).rejects.toMatchObject({ code: "billing.payment_failed", status: 402 });
    expect(await ledger.balanceOf(p.id)).toBe(0n);
    expect(await topupRows(p.id)).toHaveLength(0);
  });
});

describe("POST /api/v1/balance/top-ups", () => {
  it("answers 201 with the new balance, then 200 for the retried request, and the ledger shows one entry", async () => {
    const p = await person("route");
    const first = await post(p, { amount_micros: "12500000", idempotency_key: "route-key-0001" });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ created: true, balance_micros: "12500000", balance: "12.50" });
    const retry = await post(p, { amount_micros: "12500000", idempotency_key: "route-key-0001" });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({ created: false, balance_micros: "12500000" });

    const res = await balanceRoute.GET(new Request(`${BASE}/api/v1/balance`, { headers: { cookie: p.cookie } }), {
      params: Promise.resolve({}),
    });
    const body = await res.json();
    expect(body.balance_micros).toBe("12500000");
    expect(body.ledger.entries).toHaveLength(1);
    expect(body.ledger.entries[0]).toMatchObject({ kind: "topup", amount_micros: "12500000", amount: "12.50" });
  });

  it("refuses bad amounts with stable codes, strangers with 401 and other sites with 403", async () => {
    const p = await person("route-bad");
    const over = await post(p, { amount_micros: "1000000001", idempotency_key: "route-key-0002" });
    expect(over.status).toBe(422);
    expect((await over.json()).error.code).toBe("billing.top_up_invalid");
    const notNumber = await post(p, { amount_micros: "5.5", idempotency_key: "route-key-0003" });
    expect((await notNumber.json()).error.code).toBe("request.invalid");
    const anonymous = await post(null, { amount_micros: "5000000", idempotency_key: "route-key-0004" });
    expect(anonymous.status).toBe(401);
    const crossSite = await post(
      p,
      { amount_micros: "5000000", idempotency_key: "route-key-0005" },
      { origin: "https://evil.example" },
    );
    expect(crossSite.status).toBe(403);
    expect(await ledger.balanceOf(p.id)).toBe(0n);
  });
});
