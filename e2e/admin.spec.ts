// OpenVibe's pool from the operator's side: /admin does not exist for a person (404); once the
// admin command line makes them an operator they see the machines that offer themselves and
// approve one. And the person's own choice, per project, whether runs may use the pool.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "playwright/test";
import { generateLinkKeyPair, signRequest, type LinkKeyPair } from "../lib/protocol/signing";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;

async function signUp(page: Page) {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
  const email = `e2e-admin-${id}@example.test`;
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`E2E Admin ${id}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

function signedPost(request: APIRequestContext, path: string, key: LinkKeyPair, linkId: string, body: unknown) {
  const text = JSON.stringify(body);
  const headers = signRequest({ linkId, privateKeyPem: key.privateKeyPem, method: "POST", path, body: text });
  return request.post(url(path), { data: text, headers: { ...headers, "content-type": "application/json" } });
}

test("admin: a 404 for a person; an operator approves a machine for OpenVibe's pool", async ({ page }) => {
  const email = await signUp(page);
  const notFound = await page.goto(url("/admin"));
  expect(notFound?.status()).toBe(404);

  // A machine of this person that offers itself to the pool (openvibe-link run --pool).
  const { code } = (await (await page.request.post(url("/api/v1/links/pairing-codes"))).json()) as { code: string };
  const key = generateLinkKeyPair();
  const paired = await signedPost(page.request, "/api/link/v1/pair", key, key.publicKey, { code, name: "pool box" });
  const { link_id: linkId } = (await paired.json()) as { link_id: string };
  const beat = await signedPost(page.request, "/api/link/v1/heartbeat", key, linkId, { runner: "on", runner_epoch: 1, pool: true });
  expect(await beat.json()).toMatchObject({ pool: true, pool_approved: false });

  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/admin.ts", "operator", "add", email], {
    cwd: process.cwd(),
    env: process.env,
  });
  await page.goto(url("/admin"));
  await expect(page.getByRole("heading", { name: "Admin: OpenVibe pool" })).toBeVisible();
  const row = page.locator(`li[data-link-id="${linkId}"]`);
  await expect(row).toContainText("not approved");
  await row.getByRole("button", { name: "Approve pool box as a pool machine" }).click();
  await expect(page.getByRole("status").filter({ hasText: "pool box is now an OpenVibe pool machine." })).toBeVisible();
  await page.reload();
  await expect(row).toContainText("approved");
  const again = await signedPost(page.request, "/api/link/v1/heartbeat", key, linkId, { runner: "on", runner_epoch: 1, pool: true });
  expect(await again.json()).toMatchObject({ pool_approved: true });
});

test("links: a project's runs may use OpenVibe's pool by default, and the person can refuse it", async ({ page }) => {
  await signUp(page);
  await page.goto(url("/dashboard/links"));
  const choice = page.getByRole("checkbox", { name: /may use OpenVibe's pool/ });
  await expect(choice).toBeChecked();
  await choice.uncheck();
  await expect(page.getByRole("status").filter({ hasText: "now run only on your own Links" })).toBeVisible();
  await page.reload();
  await expect(choice).not.toBeChecked();
});
