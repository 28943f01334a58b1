// What a person does on the dashboard in the browser before a guide's command: make a token with
// chosen scopes, install a skill, top up, get a Link's pairing code, create an agent.
import { expect, type Page } from "playwright/test";
import { url } from "./people";

/** A personal API token made on the Tokens page with exactly `scopes` ticked; its secret, shown once. */
export async function createToken(page: Page, name: string, scopes: string[]): Promise<string> {
  await page.goto(url("/dashboard/tokens"));
  await page.getByLabel("Name").fill(name);
  for (const box of await page.getByRole("checkbox").all()) {
    const scope = await box.getAttribute("value");
    await box.setChecked(scopes.includes(scope ?? ""));
  }
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = page.getByLabel("New token");
  await expect(secret).toHaveValue(/^ovp_/);
  return secret.inputValue();
}

export async function installInBrowser(page: Page, slug: string, version: string) {
  await page.goto(url(`/skills/${slug}/${version}/install`));
  await page.getByRole("button", { name: `Install ${slug} ${version}` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Installed ${slug} ${version}.` })).toBeVisible();
}

export async function topUpInBrowser(page: Page, amount: string) {
  await page.goto(url("/dashboard/balance"));
  const field = page.getByLabel("Amount");
  await field.fill(amount);
  await page.locator("form").filter({ has: field }).locator('button[type="submit"]').click();
  await expect(page.getByTestId("balance")).toHaveText(Number(amount).toFixed(2));
}

/** The one-time code the Links page shows after choosing `button`. */
export async function pairingCode(page: Page, button: string): Promise<string> {
  await page.goto(url("/dashboard/links"));
  await page.getByRole("button", { name: button, exact: true }).click();
  const code = page.getByRole("status").filter({ hasText: "Your pairing code" }).locator("strong").first();
  await expect(code).toHaveText(/\S/);
  return (await code.textContent())!.trim();
}

/** An agent created on the Agents page; its token, shown once. */
export async function createAgent(page: Page, name: string): Promise<string> {
  await page.goto(url("/dashboard/agents"));
  await page.getByLabel("Agent name").fill(name);
  await page.getByRole("button", { name: "Create agent" }).click();
  const token = page.getByLabel("New agent token");
  await expect(token).toHaveValue(/^ova_/);
  return token.inputValue();
}
