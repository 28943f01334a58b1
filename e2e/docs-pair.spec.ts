// /docs/pair followed literally (issue 18 §5): the pairing code from the button the page names on
// the Links page, then each command in bash with the code and the server's URL filled in; the
// Links page lists the machine by the name the command gives it, online with its runner on.
import { expect, test } from "playwright/test";
import { removeTempDirs } from "../test/helpers/temp-dir";
import { followPairGuide } from "./helpers/pair-guide";
import { signUp, url } from "./helpers/people";
import { shell, type Shell } from "./helpers/shell";

let sh: Shell;

test.beforeAll(() => {
  sh = shell("e2e-docs-pair");
});

test.afterAll(async () => {
  await sh.stop();
  removeTempDirs();
});

test("Pair a Link: the Links page then lists my-laptop, online, its skill runner on", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "docs-pair");
  const { results } = await followPairGuide(page, sh);
  for (const r of results) expect(r.code, `${r.step}: ${r.stdout}${r.stderr}`).toBe(0);

  await page.goto(url("/dashboard/links"));
  const row = page.locator("li[data-link-id]").filter({ hasText: "my-laptop" });
  await expect(row).toHaveCount(1);
  await expect(async () => {
    await page.reload();
    await expect(row).toContainText("online", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(row.locator("dd").nth(1)).toHaveText("on");
});
