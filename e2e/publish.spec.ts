// The /publish page: sign-in required; choose a folder and see every error at once with its JSON
// path; fix it, check again, publish, and land on the skill page; the same with a .zip archive,
// chosen and dropped.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "playwright/test";
import { makeZip } from "../test/helpers/archives";
import { removeTempDirs, tempDir } from "../test/helpers/temp-dir";

test.afterAll(removeTempDirs);

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (p: string) => `${BASE}${p}`;
const PASSWORD = "correct horse battery staple";

const uniqueId = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

async function signUp(page: Page, id: string) {
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Publisher ${id}`);
  await page.getByLabel("Email").fill(`e2e-publish-${id}@example.test`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

const CODE = 'process.stdin.on("data", () => {});\nprocess.stdin.on("end", () => process.stdout.write("{}"));\n';

function document(slug: string, overrides: Record<string, unknown> = {}, tool: Record<string, unknown> = {}) {
  return {
    contract: "actor.skill@2",
    slug,
    version: "1.0.0",
    name: `Heron notes ${slug}`,
    summary: "Keeps short notes about herons.",
    instructions: "Call `noop` with nothing.",
    runs: "sandbox",
    resources: [{ name: "tools/noop.js", media_type: "text/javascript" }],
    tools: [
      {
        name: "noop",
        description: "Does nothing, safely.",
        language: "javascript",
        entry: "tools/noop.js",
        args: { type: "object", properties: {}, additionalProperties: false },
        net: "deny",
        limits: { wall_ms: 2000, mem_bytes: 33554432 },
        ...tool,
      },
    ],
    requires: { kinds: ["skill.run"] },
    ...overrides,
  };
}

/** A bundle folder on disk (inside a parent, as a person's folder would be), with a hidden file too. */
function folder(name: string, doc: object, withCode = true): string {
  const root = tempDir("e2e-publish");
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, "tools"), { recursive: true });
  writeFileSync(path.join(dir, "skill.json"), JSON.stringify(doc, null, 2));
  writeFileSync(path.join(dir, ".DS_Store"), "clutter");
  if (withCode) writeFileSync(path.join(dir, "tools", "noop.js"), CODE);
  return dir;
}

test("publishing needs a session: /publish sends a visitor to sign in and back", async ({ page }) => {
  await page.goto(url("/publish"));
  await expect(page).toHaveURL(/\/signin\?next=%2Fpublish$/);
});

test("a folder with many problems lists every one with its JSON path; the fixed folder publishes and links to its page", async ({ page }) => {
  const id = uniqueId();
  const slug = `heron-${id}`;
  await signUp(page, id);
  await page.getByRole("banner").getByRole("link", { name: "Publish" }).click();
  await expect(page).toHaveURL(/\/publish$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Publish a skill");

  const broken = folder(
    slug,
    document("Bad Slug!", { version: "1.0", requires: { kinds: [] } }, { net: "everywhere", limits: { wall_ms: 999999, mem_bytes: 33554432 } }),
    false,
  );
  await page.getByTestId("folder-input").setInputFiles(broken);
  const alert = page.getByRole("main").getByRole("alert").filter({ hasText: "cannot be published yet" });
  await expect(alert).toBeVisible();
  for (const p of ["/resources/0/name", "/slug", "/version", "/tools/0/net", "/tools/0/limits/wall_ms", "/requires/kinds"]) {
    await expect(alert.getByText(p, { exact: true })).toBeVisible();
  }
  await expect(alert).toContainText("no such file in the bundle");
  await expect(alert).toContainText("contract.kinds_mismatch");
  await expect(page.getByRole("button", { name: /^Publish / })).toHaveCount(0);

  await page.getByTestId("folder-input").setInputFiles(folder(slug, document(slug)));
  await expect(page.getByText(`Chosen: ${slug}/`)).toBeVisible();
  await expect(page.getByText("left out 1 hidden file")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Ready: ${slug}@1.0.0` })).toBeVisible();
  await expect(page.getByText(/Integrity sha256:[0-9a-f]{64}/)).toBeVisible();
  await page.getByRole("button", { name: `Publish ${slug}@1.0.0` }).click();

  const done = page.getByRole("status").filter({ hasText: "Published" });
  await expect(done).toContainText(`${slug}@1.0.0`);
  await done.getByRole("link", { name: "Open the skill page" }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/${slug}/1.0.0$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Heron notes ${slug}`);

  // Publishing the same content again is harmless and says so; different content under the
  // same version is refused with the API's message.
  await page.goto(url("/publish"));
  await page.getByTestId("folder-input").setInputFiles(folder(slug, document(slug)));
  await page.getByRole("button", { name: `Publish ${slug}@1.0.0` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Already published" })).toBeVisible();
  await page.getByRole("button", { name: "Publish another" }).click();
  await page.getByTestId("folder-input").setInputFiles(folder(slug, document(slug, { summary: "Changed after publishing." })));
  await expect(page.getByRole("heading", { name: `Ready: ${slug}@1.0.0` })).toBeVisible();
  await page.getByRole("button", { name: `Publish ${slug}@1.0.0` }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("already published with different content");
});

test("a .zip archive can be chosen or dropped, then published", async ({ page }) => {
  const id = uniqueId();
  const slug = `egret-${id}`;
  await signUp(page, id);
  await page.goto(url("/publish"));
  const zip = makeZip([
    { name: `${slug}/skill.json`, data: JSON.stringify(document(slug)) },
    { name: `${slug}/tools/noop.js`, data: CODE },
  ]);

  await page.getByTestId("archive-input").setInputFiles({ name: `${slug}.zip`, mimeType: "application/zip", buffer: zip });
  await expect(page.getByRole("heading", { name: `Ready: ${slug}@1.0.0` })).toBeVisible();
  await page.getByRole("button", { name: "Choose another" }).click();
  await expect(page.getByRole("heading", { name: /Ready:/ })).toHaveCount(0);

  // A drop of one archive file onto the drop zone.
  const drop = page.getByText("Drop the skill's folder, or a .zip or .tar.gz, here").locator("..");
  const dataTransfer = await page.evaluateHandle(
    ({ bytes, name }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name, { type: "application/zip" }));
      return dt;
    },
    { bytes: [...zip], name: `${slug}.zip` },
  );
  await drop.dispatchEvent("dragover", { dataTransfer });
  await drop.dispatchEvent("drop", { dataTransfer });
  await expect(page.getByText(`Chosen: ${slug}.zip`)).toBeVisible();
  await expect(page.getByRole("heading", { name: `Ready: ${slug}@1.0.0` })).toBeVisible();
  await page.getByRole("button", { name: `Publish ${slug}@1.0.0` }).click();
  await expect(page.getByRole("status").filter({ hasText: "Published" })).toContainText(`${slug}@1.0.0`);
});
