// /docs/api (issue 18 §5): every operation of GET /api/v1/openapi.json is on the page, and a call
// made as the page describes it (its authentication, its required fields, its success status) works.
import { expect, test } from "playwright/test";
import { signUp, url } from "./helpers/people";

type Doc = { servers: { url: string }[]; paths: Record<string, Record<string, { operationId: string }>> };

test("the API reference shows every path and method of the OpenAPI document", async ({ page }) => {
  const doc = (await (await page.request.get(url("/api/v1/openapi.json"))).json()) as Doc;
  const prefix = new URL(doc.servers[0]!.url, url("/")).pathname.replace(/\/$/, "");
  await page.goto(url("/docs/api"));
  const headings = (await page.locator("article h3").allTextContents()).map((t) => t.replace(/\s+/g, " ").trim());
  const operations = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${prefix}${p}`),
  );
  expect(operations.length).toBeGreaterThan(20);
  expect(headings.sort()).toEqual(operations.sort());
});

test("POST /api/v1/tokens, made as the reference describes it, creates a token", async ({ page }) => {
  await signUp(page, "docs-api");
  await page.goto(url("/docs/api"));
  const op = page.locator("article").filter({ has: page.locator("h3", { hasText: /^POST\s+\/api\/v1\/tokens$/ }) });
  await expect(op).toContainText("Authentication: a signed-in session");
  const required = (await op.locator("tbody th").allTextContents()).filter((name) => !name.endsWith("?"));
  expect(required).toEqual(["name"]);
  const success = (await op.locator("li strong").allTextContents()).find((s) => s.startsWith("2"));
  expect(success).toBe("201");

  // The browser's session is the "signed-in session"; only the required field is sent.
  const res = await page.request.post(url("/api/v1/tokens"), { data: { name: "from the reference" } });
  expect(String(res.status()), await res.text()).toBe(success);
  expect(((await res.json()) as { secret: string }).secret).toMatch(/^ovp_/);
  await page.goto(url("/dashboard/tokens"));
  await expect(page.getByText("from the reference")).toBeVisible();
});
