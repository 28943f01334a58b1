// "Publish your first skill" followed as written: the files the page shows in a folder named as it
// says, then each of its commands in a shell, with its placeholders filled in.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "playwright/test";
import { EXAMPLE_DIR, exampleSkillFiles } from "../../lib/docs/guides";
import { createToken } from "./dashboard";
import { fill, GUIDE_SERVER, readGuide } from "./guide-page";
import { uid, url } from "./people";
import type { Shell } from "./shell";

/** The token placeholder of the publish command: a personal API token (`ovp_…`). */
export const TOKEN_PLACEHOLDER = "ovp_…";

/**
 * Follows /docs/publish in `sh` as the signed-in person of `page`. The slug in skill.json is made
 * unique (`exampleSkillFiles(slug)`), so the guide can be followed by many people against one
 * server; no command names the slug, so the commands need no other change.
 */
export async function followPublishGuide(page: Page, sh: Shell) {
  const steps = await readGuide(page, "publish");
  const slug = `title-case-${uid()}`;
  const files = exampleSkillFiles(slug);
  for (const [name, text] of Object.entries(files)) {
    await expect(page.locator(`pre[data-file="${name}"]`)).toHaveText(exampleSkillFiles()[name]!);
    const file = path.join(sh.cwd, EXAMPLE_DIR, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const token = await createToken(page, "publishing", ["skills:publish"]);
  const base = url("").replace(/\/$/, "");
  const results = [];
  for (const step of steps) {
    const command = step.command.includes(GUIDE_SERVER)
      ? fill(step.command, { [GUIDE_SERVER]: base, [TOKEN_PLACEHOLDER]: token })
      : step.command;
    results.push({ step: step.title, ...(await sh.run(command)) });
  }
  return { slug, results };
}

/** Waits until the skill's page shows it (its scan passes on the server's workers). */
export async function expectSkillPage(page: Page, slug: string, name: string) {
  await expect
    .poll(
      async () => {
        const res = await page.goto(url(`/skills/${slug}`));
        return res?.status() === 200 && (await page.getByRole("heading", { level: 1 }).textContent());
      },
      { timeout: 60_000 },
    )
    .toContain(name);
}
