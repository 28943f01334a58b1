// Issue 18 with a real `openvibe-link run` process: the install page and the skill card say per
// tool what one call can cost and what the scan found; with a zero balance the approval card offers
// "Top up and approve" before anything fails, the top-up leads back to the same waiting step, and
// after it the step is approved and runs; /dashboard/runs then lists the run with its machine and
// cost, filters it, and fits 375 px.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "playwright/test";
import { sandboxSkill } from "../test/helpers/install-fixtures";
import { removeTempDirs, tempDir } from "../test/helpers/temp-dir";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (p: string) => `${BASE}${p}`;
const LINK_BIN = path.resolve("link/bin/openvibe-link.mjs");
const uid = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

let linkHome: string;
let link: ChildProcess | undefined;
const linkEnv = () =>
  ({
    PATH: process.env.PATH ?? "",
    TMPDIR: process.env.TMPDIR,
    OPENVIBE_LINK_HOME: linkHome,
  }) as unknown as NodeJS.ProcessEnv;

function linkCli(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LINK_BIN, ...args], { env: linkEnv() });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function signUp(page: Page) {
  const id = uid();
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Consent ${id}`);
  await page.getByLabel("Email").fill(`e2e-consent-${id}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function publish(page: Page, token: string, doc: ReturnType<typeof sandboxSkill>) {
  const res = await page.request.post(url("/api/v1/skills"), {
    headers: { authorization: `Bearer ${token}` },
    data: doc,
  });
  expect(res.status(), await res.text()).toBe(201);
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(url(`/api/v1/skills/${doc.slug}/${doc.version}/listing`))).json()) as {
            status: string;
          }
        ).status,
      { timeout: 60_000 },
    )
    .toBe("passed");
}

test.beforeAll(() => {
  linkHome = tempDir("e2e-consent-link");
});

test.afterAll(async () => {
  if (link && link.exitCode === null && link.signalCode === null) {
    const exited = new Promise((resolve) => link!.once("exit", resolve));
    link.kill("SIGTERM");
    await exited;
  }
  removeTempDirs();
});

test("cost before consent, top up and approve, and the run in the runs list", async ({ page }) => {
  test.setTimeout(240_000);
  await signUp(page);
  const slug = `e2e-consent-${uid()}`;
  const { secret } = (await (
    await page.request.post(url("/api/v1/tokens"), { data: { name: "e2e consent" } })
  ).json()) as {
    secret: string;
  };
  // 10 s cap: at most 10 started seconds at 0.0001 (own Link) or 0.001 (pool) a second.
  await publish(page, secret, sandboxSkill({ slug, version: "1.0.0", tools: [{ name: "echo", wall_ms: 10_000 }] }));

  // The skill card: one line per tool with its network and what the scan found.
  await page.goto(url(`/?q=${slug}&status=all`));
  const line = page.getByRole("list", { name: `Tools of Fixture ${slug}` }).locator('li[data-tool="echo"]');
  await expect(line).toContainText("echo");
  await expect(line).toContainText("no internet");
  await expect(line).toContainText("nothing found");

  // The install page: the most one call can cost, per tool.
  await page.goto(url(`/skills/${slug}/1.0.0/install`));
  await expect(page.locator('li[data-tool="echo"]').getByTestId("tool-cost")).toHaveText(
    "One call costs at most 0.001 on your own Link, 0.01 on the OpenVibe pool.",
  );
  const install = await page.request.post(url("/api/v1/installs"), { data: { slug, version: "1.0.0" } });
  expect([200, 201], await install.text()).toContain(install.status());

  // A real Link of this person, runner on.
  const pairing = (await (await page.request.post(url("/api/v1/links/pairing-codes"))).json()) as { code: string };
  const paired = await linkCli(["pair", pairing.code, "--server", BASE, "--name", "e2e consent machine"]);
  expect(paired.code, paired.out).toBe(0);
  expect((await linkCli(["skills", "on"])).code).toBe(0);
  link = spawn(process.execPath, [LINK_BIN, "run"], { env: linkEnv(), stdio: "ignore" });

  const { token } = (await (
    await page.request.post(url("/api/v1/agents"), { data: { name: "E2E consent agent" } })
  ).json()) as {
    token: string;
  };
  const res = await page.request.post(url("/api/v1/steps"), {
    headers: { authorization: `Bearer ${token}` },
    data: { skill: `${slug}@1.0.0`, tool: "echo", input: { text: "paid for" } },
  });
  expect(res.status(), await res.text()).toBe(201);
  const step = (await res.json()) as { id: string; status: string };
  expect(step.status).toBe("pending_approval");

  // Zero balance: the card says what it can cost, that the balance cannot cover it, and offers
  // "Top up and approve" instead of an "Approve" that would fail.
  await page.goto(url("/dashboard/approvals"));
  const card = page.locator(`li[data-step-id="${step.id}"]`).filter({ has: page.getByTestId("step-cost") });
  await expect(card.getByTestId("step-cost")).toHaveText("0.001 on your own Link, 0.01 on the OpenVibe pool");
  await expect(card.getByTestId("step-balance")).toHaveText("0.00");
  await expect(card.getByRole("note")).toContainText("cannot cover this run");
  await expect(card.getByRole("button", { name: "Approve once" })).toHaveCount(0);

  // By keyboard: to the top-up, which names the waiting step, and back.
  const topUpAndApprove = card.getByRole("link", { name: "Top up and approve" });
  await topUpAndApprove.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/balance\\?step=${step.id}$`));
  const back = page.getByTestId("return-to-step");
  await expect(back).toContainText(`${slug}@1.0.0 echo`);
  await expect(back).toContainText("Top up below");
  await page.getByLabel("Amount").fill("1");
  await page.getByLabel("Amount").press("Enter");
  await expect(page.getByTestId("balance")).toHaveText("1.00");
  await expect(back).toContainText("Your balance covers it now.");
  await back.getByRole("link", { name: "Back to the step" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/dashboard/approvals/${step.id}$`));

  // Still waiting; now it can be approved, and it runs on the Link.
  await expect(page.getByTestId("step-balance")).toHaveText("1.00");
  await page.getByRole("button", { name: "Approve once" }).click();
  const done = (await (
    await page.request.get(url(`/api/v1/steps/${step.id}?wait=25`), { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { status: string; message?: string };
  expect(done.status, done.message).toBe("succeeded");

  // The runs list: the run with its machine, status and cost; filters; 375 px.
  await page.goto(url("/dashboard"));
  await page.getByRole("link", { name: "Runs", exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/runs$/);
  const row = page.locator("tr[data-run-id]").first();
  await expect(row).toContainText(`${slug}@1.0.0`);
  await expect(row).toContainText("echo");
  await expect(row).toContainText("E2E consent agent");
  await expect(row.getByTestId("run-ran-on")).toHaveText("your Link e2e consent machine");
  await expect(row).toContainText("succeeded");
  await expect(row.locator('td[data-label="Cost"]')).toHaveText("0.0001");

  await page.getByLabel("Status", { exact: true }).selectOption("failed");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByText("No run matches these filters.")).toBeVisible();
  await page.getByLabel("Status", { exact: true }).selectOption("succeeded");
  await page.getByLabel("Skill", { exact: true }).selectOption(slug);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.locator("tr[data-run-id]")).toHaveCount(1);

  // Live: with the approvals page open, a new call appears and its run ends without a reload.
  await page.goto(url("/dashboard/approvals"));
  await expect(page.getByText("No step is waiting for you.")).toBeVisible();
  const again = await page.request.post(url("/api/v1/steps"), {
    headers: { authorization: `Bearer ${token}` },
    data: { skill: `${slug}@1.0.0`, tool: "echo", input: { text: "live" } },
  });
  expect(again.status(), await again.text()).toBe(201);
  const liveId = ((await again.json()) as { id: string }).id;
  const liveCard = page
    .locator(`li[data-step-id="${liveId}"]`)
    .filter({ has: page.getByRole("button", { name: "Approve once" }) });
  await expect(liveCard).toBeVisible();
  await liveCard.getByRole("button", { name: "Approve once" }).click();
  await expect(
    page.getByRole("region", { name: "Recent steps" }).locator(`li[data-step-id="${liveId}"]`),
  ).toContainText("succeeded", { timeout: 30_000 });

  await page.goto(url("/dashboard/runs?status=succeeded"));
  await expect(page.locator("tr[data-run-id]")).toHaveCount(2);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.locator("tr[data-run-id]")).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.locator("tr[data-run-id] a").first().click();
  await expect(page).toHaveURL(/\/dashboard\/runs\/job_/);
  await expect(page.getByTestId("ran-on")).toContainText("e2e consent machine");

  // Run again: a new step with the same input, waiting for approval like any call.
  await page.getByRole("button", { name: "Run again" }).click();
  await expect(page).toHaveURL(/\/dashboard\/approvals\/[^/]+$/);
  await expect(page.getByRole("button", { name: "Approve once" })).toBeVisible();
  await expect(page.getByTestId("step-cost")).toHaveText("0.001 on your own Link, 0.01 on the OpenVibe pool");
});
