// Installing skills and managing them (issue 6, parts 4 and 5): a passed skill installs after the
// page says what it asks for; a flagged one only after its findings are confirmed; a failed or
// retired one never; an upgrade shows the capability diff and drops the old "always allow"; a
// disabled skill's tools cannot be called; the audit shows what ran and exports as CSV.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type Page } from "playwright/test";
import { sandboxSkill } from "../test/helpers/install-fixtures";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;
const PASSWORD = "correct horse battery staple";

const uid = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

async function signUp(page: Page) {
  const id = uid();
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Installer ${id}`);
  await page.getByLabel("Email").fill(`e2e-install-${id}@example.test`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function latest(request: APIRequestContext, slug: string): Promise<string> {
  const res = await request.get(url(`/api/v1/skills/${slug}`));
  expect(res.status(), `${slug} is in the demo catalogue`).toBe(200);
  return ((await res.json()) as { latest: string }).latest;
}

/** An agent of the signed-in person, and a way for it to call a tool as an agent does. */
async function newAgent(page: Page, name: string) {
  const res = await page.request.post(url("/api/v1/agents"), { data: { name } });
  expect(res.status()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  return (skill: string, tool: string, input: unknown) =>
    page.request.post(url("/api/v1/steps"), {
      headers: { authorization: `Bearer ${token}` },
      data: { skill, tool, input },
    });
}

const banner = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const installed = (page: Page, slug: string) => page.locator(`li[data-slug="${slug}"]`);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // The test database starts empty: record the demo catalogue (idempotent) with this run's env.
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/seed.ts"], {
    cwd: process.cwd(),
    env: process.env,
    stdio: "pipe",
  });
});

test("a passed skill shows what it asks for in plain words and installs", async ({ page }) => {
  await signUp(page);
  // unit-convert 1.1.0 passed its scan (1.0.0 is retired); its author is a community author.
  const version = "1.1.0";
  await page.goto(url(`/skills/unit-convert/${version}/install`));

  await expect(page.getByRole("heading", { level: 1 })).toContainText("Install");
  await expect(page.getByRole("region", { name: "Who made it" })).toContainText("Community");
  const asks = page.getByRole("region", { name: "What it asks for" });
  await expect(asks).toContainText("Runs code in a sandbox on your machine or OpenVibe's");
  await expect(asks).toContainText("running a skill's code in a sandbox");
  const tools = asks.getByRole("list", { name: "Its tools" });
  await expect(tools).toContainText("convert");
  await expect(tools).toContainText("no internet");
  await expect(tools).toContainText(/up to [\d.]+ s and \d+ MiB per run/);
  await expect(page.getByRole("region", { name: "What the scan found" })).toContainText("Scan passed");

  await page.getByRole("button", { name: `Install unit-convert ${version}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/skills\?/);
  await expect(banner(page, `Installed unit-convert ${version}.`)).toBeVisible();
  const item = installed(page, "unit-convert");
  await expect(item).toContainText(`unit-convert@${version}`);
  await expect(item).toContainText("enabled");
  await expect(item).toContainText("Scan passed");

  // The install page now says it is installed instead of offering the button again.
  await page.goto(url(`/skills/unit-convert/${version}/install`));
  await expect(page.getByRole("region", { name: "Installed" })).toContainText("Manage it under My skills");
  await expect(page.getByRole("button", { name: /^Install unit-convert/ })).toHaveCount(0);
});

test("a flagged skill cannot be installed until its findings are confirmed", async ({ page }) => {
  await signUp(page);
  const version = await latest(page.request, "openvibe-status");
  await page.goto(url(`/skills/openvibe-status/${version}/install`));

  const scan = page.getByRole("region", { name: "What the scan found" });
  await expect(scan).toContainText("Flagged by the scan");
  const findings = scan.getByRole("list", { name: "Scan findings" }).getByRole("listitem");
  expect(await findings.count()).toBeGreaterThan(0);
  await expect(findings.first()).toContainText("service_status");
  await expect(page.getByRole("region", { name: "What it asks for" })).toContainText("OpenVibe sites only");

  const button = page.getByRole("button", { name: `Install openvibe-status ${version}` });
  await expect(button).toBeDisabled();
  // The server enforces it too: no acknowledgement, no install.
  const refused = await page.request.post(url("/api/v1/installs"), { data: { slug: "openvibe-status", version } });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ error: { code: "install.findings_ack_required" } });

  const ack = page.getByRole("checkbox", { name: /I have read the/ });
  await ack.check();
  await expect(button).toBeEnabled();
  await ack.uncheck();
  await expect(button).toBeDisabled();
  await ack.check();
  await button.click();

  await expect(page).toHaveURL(/\/dashboard\/skills\?/);
  await expect(banner(page, `Installed openvibe-status ${version}.`)).toBeVisible();
  await expect(installed(page, "openvibe-status")).toContainText("Flagged by the scan");
  const list = (await (await page.request.get(url("/api/v1/installs"))).json()) as {
    installs: { slug: string; findings_ack: string }[];
  };
  expect(list.installs.find((i) => i.slug === "openvibe-status")?.findings_ack).toMatch(/^sha256:[0-9a-f]{64}$/);
});

test("a failed skill is never installable, and neither is a retired version", async ({ page }) => {
  await signUp(page);
  const version = await latest(page.request, "machine-info");
  await page.goto(url(`/skills/machine-info/${version}/install`));
  const blocked = page.getByRole("region", { name: "This version cannot be installed" });
  await expect(blocked).toContainText("failed the registry's scan");
  await expect(blocked).toContainText("can never be installed");
  await expect(page.getByRole("region", { name: "What the scan found" })).toContainText("Not allowed");
  await expect(page.getByRole("button", { name: /Install machine-info/ })).toHaveCount(0);
  const refused = await page.request.post(url("/api/v1/installs"), { data: { slug: "machine-info", version } });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ error: { code: "install.scan_failed" } });

  await page.goto(url("/skills/unit-convert/1.0.0/install"));
  const retired = page.getByRole("region", { name: "This version cannot be installed" });
  await expect(retired).toContainText("retired");
  await expect(retired.getByRole("link", { name: "See 1.1.0 instead" })).toHaveAttribute(
    "href",
    "/skills/unit-convert/1.1.0/install",
  );
  await expect(page.getByRole("button", { name: /Install unit-convert/ })).toHaveCount(0);
  const retiredRefused = await page.request.post(url("/api/v1/installs"), {
    data: { slug: "unit-convert", version: "1.0.0" },
  });
  expect(retiredRefused.status()).toBe(409);
  expect(await retiredRefused.json()).toMatchObject({ error: { code: "install.version_retired" } });
});

test("an upgrade shows the capability diff and drops the old version's always-allow", async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const slug = `e2e-echo-${uid()}`;
  const tokenRes = await page.request.post(url("/api/v1/tokens"), { data: { name: "e2e publish" } });
  expect(tokenRes.status()).toBe(201);
  const { secret } = (await tokenRes.json()) as { secret: string };
  const versions = [
    sandboxSkill({ slug, version: "1.0.0", tools: [{ name: "echo", wall_ms: 5000 }] }),
    sandboxSkill({
      slug,
      version: "1.1.0",
      tools: [{ name: "echo", net: "public", wall_ms: 20_000 }, { name: "shout" }],
      kinds: ["notes.write"],
    }),
  ];
  for (const doc of versions) {
    const res = await page.request.post(url("/api/v1/skills"), {
      headers: { authorization: `Bearer ${secret}` },
      data: doc,
    });
    expect(res.status(), await res.text()).toBe(201);
  }
  // The scan worker scans each new version; installing waits for it.
  for (const v of ["1.0.0", "1.1.0"]) {
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(url(`/api/v1/skills/${slug}/${v}/listing`))).json()) as { status: string })
            .status,
        {
          timeout: 60_000,
        },
      )
      .toBe("passed");
  }

  await page.goto(url(`/skills/${slug}/1.0.0/install`));
  await page.getByRole("button", { name: `Install ${slug} 1.0.0` }).click();
  await expect(banner(page, `Installed ${slug} 1.0.0.`)).toBeVisible();

  // An agent calls the tool and the person answers "always allow" for this version's tool.
  const call = await newAgent(page, "E2E upgrade agent");
  const stepRes = await call(`${slug}@1.0.0`, "echo", { text: "hi" });
  expect(stepRes.status(), await stepRes.text()).toBe(201);
  const step = (await stepRes.json()) as { id: string; status: string };
  expect(step.status).toBe("pending_approval");
  await page.request.post(url(`/api/v1/steps/${step.id}/decision`), { data: { decision: "always" } });
  await page.goto(url("/dashboard/skills"));
  const grants = page.getByRole("region", { name: "Always allowed" });
  await expect(grants).toContainText(`${slug}@1.0.0`);
  await expect(grants).toContainText("echo");

  await page.goto(url(`/skills/${slug}/1.1.0/install`));
  const diff = page.getByRole("region", { name: "What changes from 1.0.0 to 1.1.0" });
  await expect(diff).toContainText("gives the skill more than you approved before");
  await expect(diff).toContainText(/Tools added\s*shout: no internet/);
  await expect(diff).toContainText(/Network widened\s*echo: no internet → the internet/);
  await expect(diff).toContainText(/Limits raised\s*echo: time per run 5 s → 20 s/);
  await expect(diff).toContainText(/Kinds added\s*notes\.write/);
  await expect(diff).toContainText("Your “always allow” for echo on 1.0.0 will be dropped.");

  await page.getByRole("button", { name: `Upgrade to ${slug} 1.1.0` }).click();
  await expect(page).toHaveURL(/\/dashboard\/skills\?/);
  await expect(banner(page, `Upgraded to ${slug} 1.1.0. 1 “always allow” grant of 1.0.0 dropped`)).toBeVisible();
  await expect(installed(page, slug)).toContainText(`${slug}@1.1.0`);
  await expect(page.getByRole("region", { name: "Always allowed" })).toContainText("No tool runs without asking you.");
  const left = (await (await page.request.get(url("/api/v1/grants"))).json()) as { grants: unknown[] };
  expect(left.grants).toEqual([]);

  // The new version asks again: the same call waits for the person instead of running.
  const again = await call(`${slug}@1.1.0`, "echo", { text: "hi" });
  expect(again.status()).toBe(201);
  expect(((await again.json()) as { status: string }).status).toBe("pending_approval");
  const old = await call(`${slug}@1.0.0`, "echo", { text: "hi" });
  expect(old.status()).toBe(409);
  expect(await old.json()).toMatchObject({ error: { code: "step.skill_not_installed" } });
});

test("disable stops tool calls at once; the audit shows what ran and exports as CSV", async ({ page }) => {
  await signUp(page);
  const version = await latest(page.request, "text-tools");
  const res = await page.request.post(url("/api/v1/installs"), { data: { slug: "text-tools", version } });
  expect(res.status()).toBe(201);
  const agentName = `Audit agent ${uid()}`;
  const call = await newAgent(page, agentName);
  const first = await call(`text-tools@${version}`, "slugify", { text: "Hello there" });
  expect(first.status(), await first.text()).toBe(201);

  await page.goto(url("/dashboard/skills"));
  const item = installed(page, "text-tools");
  await expect(item).toContainText("enabled");
  await item.getByRole("button", { name: "Disable text-tools" }).click();
  await expect(banner(page, "text-tools is disabled: its tools cannot be called from now on.")).toBeVisible();
  await expect(item).toContainText("disabled");
  await expect(item).toContainText("its tools cannot be called");

  const refused = await call(`text-tools@${version}`, "slugify", { text: "Hello again" });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({ error: { code: "step.skill_disabled" } });

  await page.reload();
  await expect(installed(page, "text-tools")).toContainText("disabled");
  await installed(page, "text-tools").getByRole("button", { name: "Enable text-tools" }).click();
  await expect(installed(page, "text-tools")).toContainText("enabled");
  expect((await call(`text-tools@${version}`, "slugify", { text: "Back" })).status()).toBe(201);

  // The audit: which tool of which skill ran, for which agent.
  await page.reload();
  const audit = page.getByRole("region", { name: "Audit: what your skills ran" });
  await expect(audit.getByRole("table", { name: /Tools that ran in the last 7 days/ })).toContainText(
    `text-tools@${version}`,
  );
  const runs = audit.getByRole("table", { name: "Every run, newest first" });
  await expect(runs.getByRole("row").filter({ hasText: agentName })).toHaveCount(2);
  await audit.getByLabel("Days").fill("1");
  await audit.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/dashboard\/skills\?days=1$/);
  await expect(audit.getByRole("table", { name: /Tools that ran in the last 1 day$/ })).toContainText("slugify");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    audit.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^openvibe-skills-audit-1d-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile(await download.path(), "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines[0]).toBe("time_utc,skill,version,tool,agent,status,exit,wall_ms,net,step_id,hosts");
  expect(lines.slice(1).filter((l) => l.includes(`,text-tools,${version},slugify,${agentName},`))).toHaveLength(2);

  // Uninstall: gone from the list, and the agent's calls are refused.
  await installed(page, "text-tools").getByRole("button", { name: "Uninstall text-tools" }).click();
  await page.getByRole("button", { name: "Yes, uninstall" }).click();
  await expect(installed(page, "text-tools")).toHaveCount(0);
  const gone = await call(`text-tools@${version}`, "slugify", { text: "Gone" });
  expect(await gone.json()).toMatchObject({ error: { code: "step.skill_not_installed" } });
});

test("someone else's install answers 404", async ({ page, browser }) => {
  await signUp(page);
  const version = await latest(page.request, "json-shape-check");
  const res = await page.request.post(url("/api/v1/installs"), { data: { slug: "json-shape-check", version } });
  const { install } = (await res.json()) as { install: { id: string } };

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signUp(otherPage);
  const peek = await otherPage.request.get(url(`/api/v1/installs/${install.id}`));
  expect(peek.status()).toBe(404);
  const change = await otherPage.request.patch(url(`/api/v1/installs/${install.id}`), { data: { enabled: false } });
  expect(change.status()).toBe(404);
  await other.close();
  const mine = (await (await page.request.get(url(`/api/v1/installs/${install.id}`))).json()) as {
    install: { enabled: boolean };
  };
  expect(mine.install.enabled).toBe(true);
});
