// Response headers and the Content-Security-Policy, page by page: every page, signed out and
// signed in, renders and hydrates without a single CSP violation; each carries a fresh nonce,
// frame-ancestors 'none' and the other security headers; and signing out really ends the session
// (a copy of the cookie taken before stops working).
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "playwright/test";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;
const PASSWORD = "correct horse battery staple";
const id = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

/** Watches a page for CSP violations, from the console and from the DOM event. */
async function watch(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/content security policy/i.test(m.text())) seen.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const w = window as unknown as { __csp?: string[] };
      (w.__csp ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return seen;
}

async function visit(page: Page, path: string, seen: string[], nonces: Set<string>) {
  const res = await page.goto(url(path));
  expect(res, path).not.toBeNull();
  expect(res!.status(), path).toBeLessThan(500);
  const headers = res!.headers();
  const csp = headers["content-security-policy"] ?? "";
  expect(csp, path).toContain("frame-ancestors 'none'");
  expect(csp, path).not.toContain("'unsafe-inline' 'strict-dynamic'");
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
  expect(nonce, `${path}: a nonce in script-src`).toBeTruthy();
  expect(nonces.has(nonce!), `${path}: a fresh nonce`).toBe(false);
  nonces.add(nonce!);
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'(;|$)/);
  expect(headers["x-content-type-options"], path).toBe("nosniff");
  expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"], path).toContain("camera=()");
  await page.waitForLoadState("networkidle");
  const fromDom = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
  expect([...seen, ...fromDom], `${path}: CSP violations`).toEqual([]);
  // Every inline script carries the nonce (the browser hides its value from the DOM); scripts that
  // Next's own runtime loads later are trusted through 'strict-dynamic'.
  const unnonced = await page.evaluate(() =>
    [...document.scripts].filter((s) => !s.src && !s.nonce).map((s) => s.text.slice(0, 40)),
  );
  expect(unnonced, `${path}: inline scripts without the nonce`).toEqual([]);
}

test("no page logs a CSP violation, signed out or in, and sign-out ends the session", async ({ page, context }) => {
  test.setTimeout(120_000);
  const seen = await watch(page);
  const nonces = new Set<string>();

  for (const path of ["/", "/signin", "/signup", "/publish", "/?q=zebra&status=all", "/no-such-page"])
    await visit(page, path, seen, nonces);

  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`CSP Person ${id}`);
  await page.getByLabel("Email").fill(`e2e-csp-${id}@example.test`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const me = (await (await page.request.get(url("/api/v1/me"))).json()) as { user: { handle: string } };

  const slug = `csp-check-${id}`;
  const doc = {
    contract: "actor.skill@2",
    slug,
    version: "1.0.0",
    name: "CSP check",
    summary: "A skill whose page must render without any CSP violation.",
    instructions:
      "# Hello\n\n<script>window.__pwned = 1</script>\n\n| a | b |\n|:-:|--|\n| 1 | [x](https://example.com) |",
    runs: "sandbox",
    resources: [
      { name: "tools/echo.js", media_type: "text/javascript" },
      { name: "docs/guide.md", media_type: "text/markdown" },
    ],
    tools: [
      {
        name: "echo",
        description: "Echoes its input.",
        language: "javascript",
        entry: "tools/echo.js",
        args: { type: "object", properties: { text: { type: "string", maxLength: 50, pattern: "^[a-z ]+$" } } },
      },
    ],
    requires: { kinds: ["skill.run"] },
  };
  const form = new FormData();
  form.append("file", new File([JSON.stringify(doc)], "skill.json"));
  form.append("file", new File(['process.stdin.on("data", (d) => process.stdout.write(d));\n'], "tools/echo.js"));
  form.append("file", new File(["## Guide\n\n*Read me* before `echo`.\n"], "docs/guide.md"));
  const published = await page.request.post(url("/api/v1/skills"), { multipart: form });
  expect(published.status(), await published.text()).toBe(201);
  expect(published.headers()["ratelimit-limit"]).toBeTruthy();

  for (const path of [
    "/",
    `/skills/${slug}`,
    `/skills/${slug}/1.0.0`,
    `/skills/${slug}/1.0.0/install`,
    `/authors/${me.user.handle}`,
    "/publish",
    "/dashboard",
    "/dashboard/skills",
    "/dashboard/authored",
    "/dashboard/approvals",
    "/dashboard/agents",
    "/dashboard/links",
    "/dashboard/balance",
    "/dashboard/tokens",
  ]) {
    await visit(page, path, seen, nonces);
  }
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  // The Markdown resource is rendered (stored at publish), not shown as source.
  await page.goto(url(`/skills/${slug}/1.0.0`));
  await page.getByText("docs/guide.md").click();
  await expect(page.locator("em", { hasText: "Read me" })).toBeVisible();

  const api = await page.request.get(url("/api/v1/search?q=csp"));
  expect(api.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");

  // Sign out in the page; a copy of the session cookie taken before must stop working.
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session).toBeTruthy();
  await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  const replay = await page.request.get(url("/api/v1/me"), {
    headers: { cookie: `${session!.name}=${session!.value}` },
  });
  expect(replay.status()).toBe(401);
  expect(seen).toEqual([]);
});
