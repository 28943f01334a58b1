// Proves the browser harness end to end: a production build answers and renders its layout.
import { expect, test } from "playwright/test";

test("the home page loads and shows the site header", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  const header = page.getByRole("banner");
  await expect(header).toBeVisible();
  await expect(header.getByRole("link", { name: "OpenVibe Skills" })).toBeVisible();
  await expect(page).toHaveTitle(/OpenVibe Skills/);
});
