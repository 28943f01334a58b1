// /docs/publish followed literally (issue 18 §5): its files written as shown, its commands read
// from the page and run in bash with the project's commands on PATH; only the server's URL and the
// token (made on the Tokens page in the browser) are filled in.
import { expect, test } from "playwright/test";
import { EXAMPLE_DIR, EXAMPLE_OUTPUT } from "../lib/docs/guides";
import { removeTempDirs } from "../test/helpers/temp-dir";
import { signUp } from "./helpers/people";
import { expectSkillPage, followPublishGuide } from "./helpers/publish-guide";
import { shell, type Shell } from "./helpers/shell";

let sh: Shell;

test.beforeAll(() => {
  sh = shell("e2e-docs-publish");
});

test.afterAll(async () => {
  await sh.stop();
  removeTempDirs();
});

test("Publish your first skill: scan passes, the sandbox prints the output, publish succeeds", async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, "docs-publish");
  const { slug, results } = await followPublishGuide(page, sh);
  const [scan, exec, publish] = results;

  expect(scan!.code, scan!.stdout + scan!.stderr).toBe(0);
  expect(scan!.stdout).toContain(`${EXAMPLE_DIR}: passed`);

  expect(exec!.code, exec!.stdout + exec!.stderr).toBe(0);
  expect(exec!.stdout).toContain(EXAMPLE_OUTPUT);
  expect(JSON.parse(exec!.stdout)).toMatchObject({ status: "ok", output: JSON.parse(EXAMPLE_OUTPUT), egress: [] });

  expect(publish!.code, publish!.stdout + publish!.stderr).toBe(0);
  expect(publish!.stdout).toContain(`✓ Published ${slug}@1.0.0`);

  await expectSkillPage(page, slug, "Title case");
  await expect(page.getByText("Capitalises the first letter of every word of a text.").first()).toBeVisible();
});
