// SKILL.md in the browser (issue 16): a real Agent Skills folder (anthropics/skills, unchanged) is
// chosen on /publish, which asks for the version it does not state, publishes it as a prompt skill
// whose page says "Imported from SKILL.md", and "Download SKILL.md folder" gives back its bytes.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "playwright/test";
import { readArchive } from "../lib/registry/archive";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (p: string) => `${BASE}${p}`;
const FIXTURE = path.resolve("test/fixtures/agent-skills/webapp-testing");

test("an Agent Skills folder publishes from /publish with a version, and downloads byte for byte", async ({ page }) => {
  test.setTimeout(90_000);
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Skills author ${id}`);
  await page.getByLabel("Email").fill(`e2e-skillmd-${id}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto(url("/publish"));
  await page.getByTestId("folder-input").setInputFiles(FIXTURE);
  const alert = page.getByRole("main").getByRole("alert").filter({ hasText: "cannot be published yet" });
  await expect(alert).toContainText("skill_md.version_required");
  await expect(alert).toContainText("OpenVibe never guesses one");
  await page.getByLabel("Version to publish this SKILL.md folder as").fill("1.0.0");
  await page.getByRole("button", { name: "Check with this version" }).click();
  await expect(page.getByRole("heading", { name: "Ready: webapp-testing@1.0.0" })).toBeVisible();
  await expect(page.getByText("Imported from SKILL.md: it publishes as a prompt skill")).toBeVisible();
  await page.getByRole("button", { name: "Publish webapp-testing@1.0.0" }).click();
  await page.getByRole("status").filter({ hasText: "Published" }).getByRole("link", { name: "Open the skill page" }).click();

  await expect(page).toHaveURL(/\/skills\/webapp-testing\/1\.0\.0$/);
  await expect(page.getByText("Imported from SKILL.md (an Agent Skills folder).")).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download SKILL.md folder" }).click()]);
  expect(download.suggestedFilename()).toBe("webapp-testing-1.0.0.zip");
  const files = await readArchive(readFileSync(await download.path()));
  for (const name of ["SKILL.md", "LICENSE.txt", "scripts/with_server.py", "examples/console_logging.py"]) {
    expect(files.get(name)?.equals(readFileSync(path.join(FIXTURE, name))), name).toBe(true);
  }
});
