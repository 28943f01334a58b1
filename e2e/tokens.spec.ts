// Scoped personal API tokens from the tokens page: a token made with only `installs` ticked
// installs a skill, is refused the agents API naming the scope it lacks, and can never make tokens.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test } from "playwright/test";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // The test database starts empty: record the demo catalogue (idempotent) with this run's env.
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts"], {
    cwd: process.cwd(),
    env: process.env,
    stdio: "pipe",
  });
});

test("a token with only `installs` installs a skill and is refused agents and token-making", async ({
  page,
  request,
}) => {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Scoped ${id}`);
  await page.getByLabel("Email").fill(`e2e-scoped-${id}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(url("/dashboard/tokens"));
  await page.getByLabel("Name").fill("installer");
  await page.getByRole("checkbox", { name: /skills:read/ }).uncheck();
  await page.getByRole("checkbox", { name: /skills:publish/ }).uncheck();
  await page.getByRole("checkbox", { name: /^installs/ }).check();
  await page.getByLabel("Expires").selectOption("30");
  await page.getByRole("button", { name: "Create token" }).click();
  const secretBox = page.getByLabel("New token");
  await expect(secretBox).toHaveValue(/^ovp_[A-Za-z0-9_-]{43}$/);
  const secret = await secretBox.inputValue();
  await expect(page.getByLabel("Scopes of installer")).toHaveText("installs");

  const headers = { authorization: `Bearer ${secret}` };
  const skill = await request.get(url("/api/v1/skills/text-tools"));
  expect(skill.status(), "text-tools is in the demo catalogue").toBe(200);
  const { latest } = (await skill.json()) as { latest: string };
  const installed = await request.post(url("/api/v1/installs"), {
    headers,
    data: { slug: "text-tools", version: latest },
  });
  expect(installed.status()).toBe(201);

  const agents = await request.get(url("/api/v1/agents"), { headers });
  expect(agents.status()).toBe(403);
  expect(await agents.json()).toMatchObject({ error: { code: "auth.scope_missing", details: { scope: "agents" } } });

  const minted = await request.post(url("/api/v1/tokens"), { headers, data: { name: "child", scopes: ["agents"] } });
  expect(minted.status()).toBe(403);
  expect(await minted.json()).toMatchObject({ error: { code: "auth.session_required" } });

  await page.reload();
  await expect(page.locator(".token", { hasText: "installer" })).toContainText("expires");
  await expect(page.getByLabel("Scopes of installer")).toHaveText("installs");
});
