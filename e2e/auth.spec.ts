// The first journey: sign up, sign out and in again, see the dashboard, make an API token
// (shown once), use it, revoke it (refused at once), sign out.
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "playwright/test";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;
const PASSWORD = "correct horse battery staple";

function newPerson() {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  return { name: `E2E Person ${id}`, email: `e2e-${id}@example.test` };
}

async function signUp(page: Page, person: { name: string; email: string }) {
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(person.name);
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
}

test("a person signs up, signs in, creates a token that is shown once, revokes it and signs out", async ({ page, request }) => {
  const person = newPerson();

  await page.goto(url("/dashboard"));
  await expect(page).toHaveURL(/\/signin\?next=%2Fdashboard$/);

  await signUp(page, person);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hello, ${person.name}`);
  await expect(page.getByRole("banner")).toContainText(person.name);
  await signOut(page);

  await page.goto(url("/signin"));
  await page.getByLabel("Email").fill(person.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("do not match");

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Hello, ${person.name}`);
  await expect(page.getByRole("region", { name: "Your project" })).toContainText("Default");

  await page.getByRole("link", { name: "Manage tokens" }).click();
  await expect(page).toHaveURL(/\/dashboard\/tokens$/);
  await expect(page.getByText("You have no tokens yet.")).toBeVisible();
  await page.getByLabel("Name").fill("e2e laptop");
  await page.getByRole("button", { name: "Create token" }).click();

  const secretBox = page.getByLabel("New token");
  await expect(secretBox).toHaveValue(/^ovp_[A-Za-z0-9_-]{43}$/);
  const secret = await secretBox.inputValue();
  await expect(page.getByRole("status")).toContainText("only time it is shown");
  await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();

  const asToken = await request.get(url("/api/v1/me"), { headers: { authorization: `Bearer ${secret}` } });
  expect(asToken.status()).toBe(200);
  expect(await asToken.json()).toMatchObject({ user: { email: person.email }, via: "token" });

  // Shown once: after a reload only the prefix is left.
  await page.reload();
  await expect(page.getByText(`ovp_${secret.slice(4, 12)}…`)).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  await page.getByRole("button", { name: "Revoke e2e laptop" }).click();
  await page.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.locator(".token", { hasText: "e2e laptop" })).toContainText("revoked");

  const afterRevoke = await request.get(url("/api/v1/me"), { headers: { authorization: `Bearer ${secret}` } });
  expect(afterRevoke.status()).toBe(401);
  expect(await afterRevoke.json()).toMatchObject({ error: { code: "auth.token_revoked" } });

  await signOut(page);
  await page.goto(url("/dashboard/tokens"));
  await expect(page).toHaveURL(/\/signin\?next=%2Fdashboard%2Ftokens$/);
});

test("sign-up shows the API's error inline when the email is taken", async ({ page }) => {
  const person = newPerson();
  await signUp(page, person);
  await expect(page).toHaveURL(/\/dashboard$/);
  await signOut(page);

  await signUp(page, { ...person, name: "Someone Else" });
  await expect(page.getByRole("main").getByRole("alert")).toContainText("already exists");
  await expect(page).toHaveURL(/\/signup$/);
});

test("the header works by keyboard and fits a 375 px screen", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(url("/"));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  const search = page.getByRole("searchbox", { name: "Search skills" });
  await search.focus();
  await search.fill("no-such-skill-anywhere");
  await search.press("Enter");
  await expect(page).toHaveURL(/\?q=no-such-skill-anywhere$/);
  await expect(page.getByText("No published skill matches that search.")).toBeVisible();
});
