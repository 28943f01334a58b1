// Issue 18 §6: installing a skill, topping up and approving a waiting step, by keyboard alone
// (Tab, Shift+Tab, Enter, Space and typing; no mouse click).
import { expect, test } from "playwright/test";
import { tabTo } from "./helpers/keyboard";
import { latestVersion, newAgent, seedCatalogue, signUp, url } from "./helpers/people";

test.beforeAll(() => {
  test.setTimeout(180_000);
  seedCatalogue();
});

test("install, top up and approve by keyboard alone", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, "keyboard");
  const slug = "text-tools";
  const version = await latestVersion(page.request, slug);

  // Install: from the top of the install page to its button, Enter.
  await page.goto(url(`/skills/${slug}/${version}/install`));
  const install = page.getByRole("button", { name: `Install ${slug} ${version}` });
  await tabTo(page, install);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard\/skills\?/);
  await expect(page.getByRole("status").filter({ hasText: `Installed ${slug} ${version}.` })).toBeVisible();
  await expect(page.locator(`li[data-slug="${slug}"]`)).toContainText("enabled");

  // An agent's call waits; the balance is zero, so the card offers "Top up and approve".
  const agent = await newAgent(page.request, "e2e keyboard agent");
  const step = await agent.call(`${slug}@${version}`, "slugify", { text: "By Keyboard" });
  expect(step.status).toBe("pending_approval");
  await page.goto(url("/dashboard/approvals"));
  const card = page.locator(`li[data-step-id="${step.id}"]`).filter({ has: page.getByTestId("step-cost") });
  await tabTo(page, card.getByRole("link", { name: "Top up and approve" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/balance\\?step=${step.id}$`));

  // Top up: type the amount, Tab to the button, Space.
  const amount = page.getByLabel("Amount");
  await tabTo(page, amount);
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("1");
  await page.keyboard.press("Tab");
  const topUp = page.locator("form").filter({ has: amount }).locator('button[type="submit"]');
  await expect(topUp).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("balance")).toHaveText("1.00");
  const back = page.getByTestId("return-to-step");
  await expect(back).toContainText("Your balance covers it now.");

  // Back to the step (Shift+Tab from the top-up button), then approve it with Enter.
  await tabTo(page, back.getByRole("link", { name: "Back to the step" }), { backwards: true });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/approvals/${step.id}$`));
  await tabTo(page, page.getByRole("button", { name: "Approve once" }));
  await page.keyboard.press("Enter");

  await expect
    .poll(async () => {
      const res = await page.request.get(url(`/api/v1/steps/${step.id}`), {
        headers: { authorization: `Bearer ${agent.token}` },
      });
      return ((await res.json()) as { status: string }).status;
    })
    .not.toBe("pending_approval");
  const { status } = (await (
    await page.request.get(url(`/api/v1/steps/${step.id}`), { headers: { authorization: `Bearer ${agent.token}` } })
  ).json()) as { status: string };
  expect(["queued", "running", "succeeded", "no_node"]).toContain(status);
});
