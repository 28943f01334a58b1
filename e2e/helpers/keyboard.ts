// Moving through a page the way a keyboard user does: Tab (or Shift+Tab) until an element has focus.
import { expect, type Locator, type Page } from "playwright/test";

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab (Shift+Tab when `backwards`) until `target` has focus; fails when it never does. */
export async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
  }
  expect(await isFocused(target), `reached ${target} within ${max} key presses`).toBe(true);
}
