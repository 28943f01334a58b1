// The person's dashboard for agents, Balance, Links, approvals and runs: an agent's token is shown
// once and works until revoked; a top-up changes the balance and the ledger (a retried request
// never adds twice); a pairing code comes with its command, a Link paired with it shows up, and
// once revoked its next signed request is refused.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "playwright/test";
import { generateLinkKeyPair, signRequest, type LinkKeyPair } from "../lib/protocol/signing";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;
const PASSWORD = "correct horse battery staple";

async function signUpFresh(page: Page) {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`E2E Dashboard ${id}`);
  await page.getByLabel("Email").fill(`e2e-dash-${id}@example.test`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A Link request signed with `key` as the Link (or, for pairing, as the new key itself). */
function signedPost(request: APIRequestContext, path: string, key: LinkKeyPair, linkId: string, body: unknown) {
  const text = JSON.stringify(body);
  const headers = signRequest({ linkId, privateKeyPem: key.privateKeyPem, method: "POST", path, body: text });
  return request.post(url(path), { data: text, headers: { ...headers, "content-type": "application/json" } });
}

test("agents: a new agent's token is shown once, works, and stops working when revoked", async ({ page, request }) => {
  await signUpFresh(page);
  await page.getByRole("link", { name: "Agents", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/agents$/);
  await expect(page.getByText("You have no agents yet.")).toBeVisible();

  await page.getByLabel("Agent name").fill("e2e research bot");
  await page.getByRole("button", { name: "Create agent" }).click();
  const tokenBox = page.getByLabel("New agent token");
  await expect(tokenBox).toHaveValue(/^ova_[A-Za-z0-9_-]{43}$/);
  const token = await tokenBox.inputValue();
  await expect(page.locator(".secret-panel")).toContainText("only time it is shown");
  await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();
  const row = page.locator("li[data-agent-id]", { hasText: "e2e research bot" });
  await expect(row).toContainText("Spent today: 0.00 of 1.00 per day");

  // The token is an agent's: it reaches the agent API (and is refused only for the bad skill name).
  const call = { skill: "not a skill", tool: "x", input: {} };
  const asAgent = await request.post(url("/api/v1/steps"), {
    data: call,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(asAgent.status()).toBe(422);
  expect(await asAgent.json()).toMatchObject({ error: { code: "step.skill_ref_invalid" } });

  // Shown once: after a reload only the prefix is left.
  await page.reload();
  await expect(page.getByText(`ova_${token.slice(4, 12)}…`)).toBeVisible();
  expect(await page.content()).not.toContain(token);

  await page.getByRole("button", { name: "Change allowance of e2e research bot" }).click();
  await page.getByLabel("Allowance per day for e2e research bot").fill("2.5");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("e2e research bot may now spend 2.50 per day on its own.")).toBeVisible();
  await expect(row).toContainText("of 2.50 per day");

  await page.getByRole("button", { name: "Revoke e2e research bot" }).click();
  await page.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(row).toContainText("revoked");
  const afterRevoke = await request.post(url("/api/v1/steps"), {
    data: call,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(afterRevoke.status()).toBe(401);
  expect(await afterRevoke.json()).toMatchObject({ error: { code: "auth.token_revoked" } });
});

test("balance: a top-up changes the balance and the ledger; the same request twice adds once", async ({ page }) => {
  await signUpFresh(page);
  await page.getByRole("link", { name: "Balance", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/balance$/);
  const balance = page.getByTestId("balance");
  await expect(balance).toHaveText("0.00");
  await expect(page.getByText("No entries yet. Top up to start.")).toBeVisible();
  await expect(page.getByRole("img", { name: /Spend per day by skill/ })).toBeVisible();

  await page.getByLabel("Amount").fill("12.5");
  await page.getByRole("button", { name: "Top up", exact: true }).click();
  await expect(page.getByText("Added 12.50. Your balance is now 12.50.")).toBeVisible();
  await expect(balance).toHaveText("12.50");
  const ledger = page.getByRole("region", { name: "Ledger entries" });
  await expect(ledger.locator("tr[data-kind=topup]")).toHaveCount(1);
  await expect(ledger.locator("tr[data-kind=topup]")).toContainText("+12.50");

  // The API with the page's session: a retried request with the same key never adds twice.
  const body = { amount_micros: "3000000", idempotency_key: `e2e-${randomBytes(6).toString("hex")}` };
  const first = await page.request.post(url("/api/v1/balance/top-ups"), { data: body });
  expect(first.status()).toBe(201);
  expect(await first.json()).toMatchObject({ created: true, balance: "15.50" });
  const retry = await page.request.post(url("/api/v1/balance/top-ups"), { data: body });
  expect(retry.status()).toBe(200);
  expect(await retry.json()).toMatchObject({ created: false, balance: "15.50" });
  const tooMuch = await page.request.post(url("/api/v1/balance/top-ups"), {
    data: { amount_micros: "1000000001", idempotency_key: `e2e-${randomBytes(6).toString("hex")}` },
  });
  expect(tooMuch.status()).toBe(422);
  expect(await tooMuch.json()).toMatchObject({ error: { code: "billing.top_up_invalid" } });

  await page.reload();
  await expect(balance).toHaveText("15.50");
  await expect(ledger.locator("tr[data-kind=topup]")).toHaveCount(2);

  await page.getByLabel("Kind").selectOption("refund");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/kind=refund/);
  await expect(page.getByText("No entries match these filters.")).toBeVisible();
  await expect(balance).toHaveText("15.50");

  const api = await page.request.get(url("/api/v1/balance?kind=topup"));
  expect(await api.json()).toMatchObject({ balance_micros: "15500000", ledger: { next_cursor: null } });

  // 375 px wide: nothing spills sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(url("/dashboard/balance"));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test("links: a pairing code comes with its command; a revoked Link's next request is refused", async ({
  page,
  request,
}) => {
  await signUpFresh(page);
  await page.getByRole("link", { name: "Links", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/links$/);
  await expect(page.getByText("You have no Links yet.")).toBeVisible();

  await page.getByRole("button", { name: "Pair a new Link" }).click();
  const code = (await page.locator("strong.mono").first().textContent())?.trim() ?? "";
  expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{2}$/);
  await expect(page.getByLabel("Pairing command")).toHaveValue(new RegExp(`openvibe-link pair ${code} --server `));
  await expect(page.getByText("openvibe-link skills on", { exact: true })).toBeVisible();
  await expect(page.getByText("openvibe-link run [--pool]", { exact: true })).toBeVisible();

  // The machine's side: pair with a fresh key (the request signed by that key), then a heartbeat.
  const key = generateLinkKeyPair();
  const paired = await signedPost(request, "/api/link/v1/pair", key, key.publicKey, { code, name: "e2e laptop" });
  expect(paired.status()).toBe(201);
  const { link_id: linkId } = (await paired.json()) as { link_id: string };
  const beat = await signedPost(request, "/api/link/v1/heartbeat", key, linkId, {
    runner: "on",
    runner_epoch: 1,
    pool: true,
  });
  expect(beat.status()).toBe(200);

  // The page watches for the new Link while the code is shown.
  const row = page.locator(`li[data-link-id="${linkId}"]`);
  await expect(row).toContainText("e2e laptop", { timeout: 15_000 });
  await page.reload();
  await expect(row).toContainText("online");
  await expect(row).toContainText("Skill runner");
  await expect(row.locator("dd").nth(1)).toHaveText("on");
  // Offered, but a person's own machine serves nobody else until OpenVibe approves it for the pool.
  await expect(row.locator("dd").nth(2)).toHaveText("offered; it serves only you until OpenVibe approves it");

  // The dashboard turns the runner off (never on); the machine's next report of "on" does not undo it.
  await page.getByRole("button", { name: "Turn runner off: e2e laptop" }).click();
  await expect(row.locator("dd").nth(1)).toContainText("turned off here");
  const again = await signedPost(request, "/api/link/v1/heartbeat", key, linkId, {
    runner: "on",
    runner_epoch: 1,
    pool: true,
  });
  expect(await again.json()).toMatchObject({ runner: "off" });

  await page.getByRole("button", { name: "Revoke e2e laptop" }).click();
  await page.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(row).toContainText("revoked");
  const refused = await signedPost(request, "/api/link/v1/heartbeat", key, linkId, {
    runner: "on",
    runner_epoch: 2,
    pool: true,
  });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: "link.revoked" } });
});

test.describe("with the demo catalogue", () => {
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // These tests call a published skill: record the demo catalogue (idempotent).
    execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts"], {
      cwd: process.cwd(),
      env: process.env,
      stdio: "pipe",
    });
  });

  test("approvals: an agent's request appears live, is denied or approved, and shows its outcome", async ({ page }) => {
    await signUpFresh(page);
    const skills = (await (await page.request.get(url("/api/v1/skills/text-tools"))).json()) as { latest: string };
    const ref = `text-tools@${skills.latest}`;
    expect(
      (
        await page.request.post(url("/api/v1/installs"), { data: { slug: "text-tools", version: skills.latest } })
      ).status(),
    ).toBe(201);
    const topUp = { amount_micros: "5000000", idempotency_key: `e2e-${randomBytes(6).toString("hex")}` };
    expect((await page.request.post(url("/api/v1/balance/top-ups"), { data: topUp })).status()).toBe(201);
    const made = await page.request.post(url("/api/v1/agents"), { data: { name: "e2e approver bot" } });
    const { token } = (await made.json()) as { token: string };
    const call = (text: string) =>
      page.request.post(url("/api/v1/steps"), {
        headers: { authorization: `Bearer ${token}` },
        data: { skill: ref, tool: "slugify", input: { text } },
      });

    await page.getByRole("link", { name: "Approvals", exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/approvals$/);
    await expect(page.getByText("No step is waiting for you.")).toBeVisible();

    // Asked after the page loaded: it appears without a reload.
    const first = (await (await call("Deny me please")).json()) as { id: string; status: string };
    const second = (await (await call("Approve me once")).json()) as { id: string };
    expect(first.status).toBe("pending_approval");
    const pending = page.getByRole("region", { name: /Waiting for you/ });
    const firstCard = pending.locator(`li[data-step-id="${first.id}"]`);
    await expect(firstCard).toBeVisible();
    await expect(firstCard).toContainText(`${ref} slugify`);
    await expect(firstCard).toContainText("running a skill's code in a sandbox");
    await expect(firstCard).toContainText("e2e approver bot");
    await expect(firstCard).toContainText("no internet");
    await expect(firstCard).toContainText('{"text":"Deny me please"}');

    await firstCard.getByRole("button", { name: "Deny" }).click();
    await expect(firstCard).toHaveCount(0);
    const recent = page.getByRole("region", { name: "Recent steps" });
    await expect(recent.locator(`li[data-step-id="${first.id}"]`)).toContainText("denied");

    await pending.locator(`li[data-step-id="${second.id}"]`).getByRole("button", { name: "Approve once" }).click();
    const outcome = recent.locator(`li[data-step-id="${second.id}"]`);
    // With no Link of this person online, the step says so and offers the person's own machine
    // (only a pool machine somewhere could take it instead).
    await expect(outcome).toContainText(/no machine to run it|approved, waiting for a machine|running|succeeded/);
    if (await outcome.getByText("no machine to run it").isVisible()) {
      await expect(outcome).toContainText("No Link can run this now");
      await outcome.getByRole("link", { name: "Run it on my machine" }).click();
      await expect(page).toHaveURL(/\/dashboard\/links$/);
    }
  });

  test("runs: the person sees their run's input as data; someone else (or no run) gets 404", async ({
    page,
    browser,
  }) => {
    await signUpFresh(page);
    const r = page.request;
    const { latest } = (await (await r.get(url("/api/v1/skills/text-tools"))).json()) as { latest: string };
    expect((await r.post(url("/api/v1/installs"), { data: { slug: "text-tools", version: latest } })).status()).toBe(
      201,
    );
    const topUp = { amount_micros: "5000000", idempotency_key: `e2e-${randomBytes(6).toString("hex")}` };
    expect((await r.post(url("/api/v1/balance/top-ups"), { data: topUp })).status()).toBe(201);
    const { token } = (await (await r.post(url("/api/v1/agents"), { data: { name: "e2e run bot" } })).json()) as {
      token: string;
    };
    // An own Link with the runner on, so the approved step becomes a queued run.
    const { code } = (await (await r.post(url("/api/v1/links/pairing-codes"))).json()) as { code: string };
    const key = generateLinkKeyPair();
    const paired = await signedPost(r, "/api/link/v1/pair", key, key.publicKey, { code, name: "e2e runner" });
    const { link_id: linkId } = (await paired.json()) as { link_id: string };
    const beat = { runner: "on", runner_epoch: 1, pool: false };
    expect((await signedPost(r, "/api/link/v1/heartbeat", key, linkId, beat)).status()).toBe(200);
    const input = { text: "<img src=x onerror=alert(1)> hi" };
    const step = await r.post(url("/api/v1/steps"), {
      headers: { authorization: `Bearer ${token}` },
      data: { skill: `text-tools@${latest}`, tool: "slugify", input },
    });
    const { id: stepId } = (await step.json()) as { id: string };
    const decided = await r.post(url(`/api/v1/steps/${stepId}/decision`), { data: { decision: "once" } });
    const { job } = (await decided.json()) as { job: { id: string } | null };
    expect(job).not.toBeNull();
    const runPath = `/dashboard/runs/${job?.id}`;

    const mine = await page.goto(url(runPath));
    expect(mine?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`text-tools@${latest} slugify`);
    await expect(page.getByLabel("Input as JSON")).toContainText('"text": "<img src=x onerror=alert(1)> hi"');
    await expect(page.locator("main img")).toHaveCount(0);
    await expect(page.getByRole("region", { name: "About this run" })).toContainText("e2e run bot");
    expect((await r.delete(url(`/api/v1/links/${linkId}`))).status()).toBe(200);

    const stranger = await browser.newPage();
    await signUpFresh(stranger);
    const theirs = await stranger.goto(url(runPath));
    expect(theirs?.status()).toBe(404);
    await expect(stranger.getByRole("heading", { name: "We could not find that run" })).toBeVisible();
    expect((await stranger.request.get(url(`/api/v1/runs/${job?.id}`))).status()).toBe(404);
    const none = await stranger.goto(url("/dashboard/runs/cl000000000000000000000000"));
    expect(none?.status()).toBe(404);
    await stranger.close();
  });
});
