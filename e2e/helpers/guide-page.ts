// A guide under /docs as its reader sees it: its steps read from the rendered page (and checked
// against lib/docs/guides.ts, which the page renders), and its placeholders filled in.
import { expect, type Page } from "playwright/test";
import { GUIDES, type Step } from "../../lib/docs/guides";
import { url } from "./people";

/** The server every guide's commands name; a reader puts their own there. */
export const GUIDE_SERVER = "https://openvibe.example";

export async function readGuide(page: Page, slug: string): Promise<Step[]> {
  await page.goto(url(`/docs/${slug}`));
  const items = page.locator("main ol > li");
  const steps: Step[] = [];
  for (const item of await items.all()) {
    steps.push({
      title: (await item.locator("h2").textContent()) ?? "",
      text: (await item.locator("p").textContent()) ?? "",
      command: (await item.locator("pre[data-command] code").textContent()) ?? "",
    });
  }
  expect(steps).toEqual(GUIDES.find((g) => g.slug === slug)?.steps);
  return steps;
}

/** The command with each placeholder replaced (every occurrence); a missing one fails the test. */
export function fill(command: string, values: Record<string, string>): string {
  let filled = command;
  for (const [placeholder, value] of Object.entries(values)) {
    expect(command, `the command shows ${placeholder}`).toContain(placeholder);
    filled = filled.replaceAll(placeholder, value);
  }
  return filled;
}

/** The one name a step's text quotes, e.g. the button it says to choose. */
export function quoted(text: string): string {
  const match = /“([^”]+)”/.exec(text);
  expect(match, `a quoted name in: ${text}`).not.toBeNull();
  return match![1]!;
}
