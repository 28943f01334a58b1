// The Balance page's reading of its query string, against the real PostgreSQL: a bad filter is
// dropped and said, a stale cursor falls back on the first page, the usage window is one of the
// offered day counts, and the page links keep the filters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";

let env: IntegrationEnv;
let page: typeof import("./balance-page");
let me: string;

beforeAll(async () => {
  env = await setupIntegration("balance-page");
  page = await import("./balance-page");
  const { createUser } = await import("../auth");
  me = (await createUser({ email: "balance-page@example.test", name: "Me", password: null })).id;
  for (let i = 0; i < 30; i++) {
    await env.db.ledgerEntry.create({
      data: {
        userId: me,
        kind: "topup",
        amountMicros: 1_000_000n,
        idempotencyKey: `bp:${i}`,
        memo: `top-up ${i}`,
        createdAt: new Date(Date.UTC(2026, 2, 1, 0, i)),
      },
    });
  }
});

afterAll(async () => env?.teardown());

describe("loadBalancePage", () => {
  it("drops a bad filter and says so, showing everything", async () => {
    const view = await page.loadBalancePage(me, { kind: "gift" });
    expect(view.filterProblem).toMatch(/Showing everything instead\.$/);
    expect(view.ledger.entries).toHaveLength(25);
    expect(view.activeFilters).toEqual(["kind"]);
  });

  it("pages with filters kept, and falls back on the first page for a stale cursor", async () => {
    const first = await page.loadBalancePage(me, { kind: "topup", days: "30" });
    expect(first.days).toBe(30);
    expect(first.nextHref).toMatch(/^\/dashboard\/balance\?kind=topup&days=30&cursor=[^&#]+#ledger-title$/);
    const cursor = new URLSearchParams(first.nextHref!.split("?")[1]!.split("#")[0]).get("cursor")!;
    const second = await page.loadBalancePage(me, { kind: "topup", days: "30", cursor });
    expect(second.ledger.entries).toHaveLength(5);
    expect(second.firstHref).toBe("/dashboard/balance?kind=topup&days=30#ledger-title");
    const stale = await page.loadBalancePage(me, { kind: "topup", cursor: "not-a-cursor" });
    expect(stale.ledger.entries.map((e) => e.id)).toEqual(first.ledger.entries.map((e) => e.id));
  });

  it("keeps the usage window to the offered day counts, in whole UTC days", async () => {
    expect((await page.loadBalancePage(me, { days: "5" })).days).toBe(14);
    const view = await page.loadBalancePage(me, { days: "7" }, new Date("2026-03-10T15:00:00Z"));
    expect(view.days).toBe(7);
    expect(view.clearHref).toBe("/dashboard/balance?days=7");
    expect(page.balanceQuery({ kind: ["charge", "topup"], skill: "", days: "7" })).toEqual({
      kind: "charge",
      skill: undefined,
      days: "7",
    });
  });
});
