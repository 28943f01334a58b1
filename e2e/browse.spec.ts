// Browse journeys: a person searches, opens a card and reads the skill page (tools in plain words,
// findings, pinned code, cost, versions); hostile instructions render inert; filters, empty and
// error states; the author page and the author's dashboard with retiring a version.
// Each test publishes its own skills (unique slugs) through the API as a freshly signed-up person.
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "playwright/test";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (path: string) => `${BASE}${path}`;
const PASSWORD = "correct horse battery staple";

function uniqueId() {
  return `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;
}

async function signUp(page: Page, id: string) {
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`Browse Author ${id}`);
  await page.getByLabel("Email").fill(`e2e-browse-${id}@example.test`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const me = await page.request.get(url("/api/v1/me"));
  return ((await me.json()) as { user: { handle: string } }).user.handle;
}

const HOSTILE_INSTRUCTIONS = [
  "# Zebra tally",
  "",
  "Counts *stripes* and **bold _nested_ words**. Read [the guide](https://example.com/guide).",
  "",
  '<script>window.__pwned = "script"</script>',
  "",
  '<img src="x" onerror="window.__pwned = \'img\'">',
  "",
  "[click for prizes](javascript:window.__pwned='link')",
  "",
  "| field | meaning |",
  "|---|---|",
  "| `count` | how many |",
].join("\n");

function bundle(slug: string, version: string, word: string, net: "deny" | "public" = "deny") {
  const doc = {
    contract: "actor.skill@2",
    slug,
    version,
    name: `Zebra tally ${word}`,
    summary: `Counts the stripes of a ${word} zebra in a short text.`,
    instructions: HOSTILE_INSTRUCTIONS,
    runs: "sandbox",
    resources: [{ name: "tools/tally.js", media_type: "text/javascript" }],
    tools: [
      {
        name: "tally",
        description: "Counts how many times each word appears.",
        language: "javascript",
        entry: "tools/tally.js",
        args: {
          type: "object",
          properties: { text: { type: "string", maxLength: 200 } },
          required: ["text"],
          additionalProperties: false,
        },
        net,
        limits: { wall_ms: 4000, mem_bytes: 67108864 },
      },
    ],
    requires: { kinds: ["skill.run"] },
  };
  const code = [
    '"use strict";',
    "let raw = \"\";",
    "process.stdin.setEncoding(\"utf8\");",
    "process.stdin.on(\"data\", (chunk) => { raw += chunk; });",
    "process.stdin.on(\"end\", () => {",
    "  const { text } = JSON.parse(raw);",
    "  const counts = {};",
    "  for (const w of String(text).split(/\\s+/).filter(Boolean)) counts[w] = (counts[w] || 0) + 1;",
    "  process.stdout.write(JSON.stringify(counts));",
    "});",
    "",
  ].join("\n");
  return { "skill.json": JSON.stringify(doc, null, 2), "tools/tally.js": code };
}

async function publish(page: Page, files: Record<string, string>) {
  const form = new FormData();
  for (const [path, text] of Object.entries(files)) form.append("file", new File([text], path));
  const res = await page.request.post(url("/api/v1/skills"), { multipart: form });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { slug: string; version: string };
}

/** The scan's verdict so far (the scan worker may still be reading the code). */
async function scanStatus(page: Page, slug: string, version: string): Promise<string | undefined> {
  const res = await page.request.get(url(`/api/v1/skills/${slug}`));
  const body = (await res.json()) as { versions: { version: string; status: string }[] };
  return body.versions.find((v) => v.version === version)?.status;
}

// Searches ask for every scan status: a just-published skill may still be scanning, and the default
// list shows only passed and flagged ones (tested in lib/registry/search.int.test.ts).
test("search → card → skill page: plain-words net, findings, pinned code, cost, versions, and inert instructions", async ({ page }) => {
  const id = uniqueId();
  const word = `quagga${id}`;
  const slug = `zebra-${id}`;
  const handle = await signUp(page, id);
  await publish(page, bundle(slug, "1.0.0", word));
  await publish(page, bundle(slug, "1.1.0", word));

  await page.goto(url("/"));
  await page.getByLabel("Words", { exact: true }).fill(word);
  await page.getByLabel("Scan", { exact: true }).selectOption("all");
  await page.getByRole("button", { name: "Show skills" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${word}(&|$)`));
  await expect(page.getByRole("heading", { name: "1 skill found" })).toBeVisible();

  const card = page.getByRole("article", { name: new RegExp(`Zebra tally ${word}`) });
  await expect(card).toContainText(`${slug}@1.1.0`);
  await expect(card).toContainText("Runs code in a sandbox on your machine or OpenVibe's");
  await expect(card).toContainText("tally");
  await expect(card).toContainText("no internet");
  await expect(card).toContainText(`@${handle}`);
  await expect(card).toContainText("Community");
  await expect(card).toContainText("0 installs");
  await expect(card).toContainText(/Scan passed|Flagged by the scan|Scan in progress/);

  await card.getByRole("link", { name: `Zebra tally ${word}` }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/${slug}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Zebra tally ${word}`);
  await expect(page.getByRole("heading", { name: "Runs code in a sandbox on your machine or OpenVibe's" })).toBeVisible();

  const tool = page.getByRole("region", { name: "tally", exact: true });
  await expect(tool).toContainText("Counts how many times each word appears.");
  await expect(tool).toContainText("no internet");
  await expect(tool).toContainText("up to 4 s and 64 MiB per run");
  await expect(tool).toContainText("at most 0.004");
  await expect(tool.getByRole("table", { name: "Arguments of tally" })).toContainText("at most 200 characters");

  await expect(page.getByRole("heading", { name: "Integrity" })).toBeVisible();
  await expect(page.getByText(/^sha256:[0-9a-f]{64}$/)).toBeVisible();
  await expect(page.getByText(/Pinned sha256/)).toContainText("exactly what the scan reads");
  await expect(page.getByLabel("Code of tools/tally.js")).toContainText("process.stdout.write");

  // The install page belongs to another part; the link to it is this page's job, once the scan allows.
  if ((await scanStatus(page, slug, "1.1.0")) === "scanning") {
    await expect(page.getByText("Installing opens when the scan has finished.")).toBeVisible();
  } else {
    await expect(page.getByRole("link", { name: "Install 1.1.0" })).toHaveAttribute("href", `/skills/${slug}/1.1.0/install`);
  }

  // Hostile instructions: shown as text, nothing ran, links marked external.
  const instructions = page.getByRole("region", { name: "Instructions", exact: true });
  await expect(instructions).toContainText('<script>window.__pwned = "script"</script>');
  await expect(instructions).toContainText("<img src=\"x\"");
  await expect(instructions.locator("script, img, iframe")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
  await expect(instructions.locator('a[href^="javascript:"]')).toHaveCount(0);
  await expect(instructions.getByText("click for prizes")).toBeVisible();
  const guide = instructions.getByRole("link", { name: /the guide/ });
  await expect(guide).toHaveAttribute("href", "https://example.com/guide");
  await expect(guide).toHaveAttribute("target", "_blank");
  await expect(guide).toHaveAttribute("rel", "noopener noreferrer nofollow ugc");
  await expect(guide).toContainText("↗");
  await expect(instructions.locator("strong em")).toHaveText("nested");
  await expect(instructions.getByRole("table")).toContainText("how many");

  // Versions with dates and status; an older version has its own page.
  const versions = page.getByRole("table").filter({ hasText: "Published" });
  await expect(versions).toContainText("1.1.0");
  await versions.getByRole("link", { name: "1.0.0" }).click();
  await expect(page).toHaveURL(new RegExp(`/skills/${slug}/1.0.0$`));
  await expect(page.getByText("A newer version exists")).toBeVisible();
});

test("filters narrow the list, an unreadable filter shows the error state, and no match shows the empty state", async ({ page }) => {
  const id = uniqueId();
  const word = `okapi${id}`;
  await signUp(page, id);
  await publish(page, bundle(`okapi-local-${id}`, "1.0.0", word, "deny"));
  await publish(page, bundle(`okapi-web-${id}`, "1.0.0", word, "public"));

  await page.goto(url(`/?q=${word}&status=all`));
  await expect(page.getByRole("heading", { name: "2 skills found" })).toBeVisible();
  await page.getByLabel("Network use").selectOption("public");
  await page.getByRole("button", { name: "Show skills" }).click();
  await expect(page).toHaveURL(/net=public/);
  await expect(page.getByRole("heading", { name: "1 skill found" })).toBeVisible();
  await expect(page.getByRole("article")).toContainText("the internet");
  await expect(page.getByRole("article")).toContainText(`okapi-web-${id}`);

  await page.goto(url(`/?q=${word}&status=everything&page=0`));
  const alert = page.getByRole("main").getByRole("alert");
  await expect(alert).toContainText("could not be read");
  await expect(alert).toContainText("status");
  await expect(alert).toContainText("page");

  await page.goto(url(`/?q=zzznothing${id}`));
  await expect(page.getByText("No published skill matches that search.")).toBeVisible();

  // The same search as JSON, and the same refusal with its stable code.
  const api = await page.request.get(url(`/api/v1/search?q=${word}&status=all&net=public`));
  expect(api.status()).toBe(200);
  expect(await api.json()).toMatchObject({
    total: 1,
    skills: [{ slug: `okapi-web-${id}`, tools: [{ name: "tally", net: "public" }] }],
  });
  const bad = await page.request.get(url(`/api/v1/search?sort=random`));
  expect(bad.status()).toBe(422);
  expect(await bad.json()).toMatchObject({ error: { code: "search.invalid_query", details: [{ path: "/sort" }] } });
});

test("author page lists the author's skills; the dashboard shows each version's verdict and retires one", async ({ page }) => {
  const id = uniqueId();
  const word = `tapir${id}`;
  const slug = `tapir-${id}`;
  const handle = await signUp(page, id);
  await publish(page, bundle(slug, "1.0.0", word));
  await publish(page, bundle(slug, "1.1.0", word));

  await page.goto(url(`/authors/${handle}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Browse Author ${id}`);
  await expect(page.getByRole("article", { name: new RegExp(word) })).toContainText(`${slug}@1.1.0`);

  await page.goto(url("/dashboard/authored"));
  const entry = page.locator("li.panel", { hasText: slug });
  await expect(entry).toContainText("1.1.0");
  await expect(entry).toContainText(/Scan passed|Flagged by the scan|Scan in progress/);
  await entry.getByRole("button", { name: `Retire ${slug}@1.1.0` }).click();
  await entry.getByRole("button", { name: "Yes, retire" }).click();
  await expect(page.getByRole("status")).toContainText(`${slug}@1.1.0 is retired.`);
  await expect(entry.getByText("Retired", { exact: true })).toBeVisible();

  // The skill falls back to 1.0.0 everywhere; the retired version stays readable, marked.
  await page.goto(url(`/authors/${handle}`));
  await expect(page.getByRole("article", { name: new RegExp(word) })).toContainText(`${slug}@1.0.0`);
  await page.goto(url(`/skills/${slug}/1.1.0`));
  await expect(page.getByRole("note")).toContainText("This version was retired");
  await expect(page.getByRole("link", { name: "Install 1.1.0" })).toHaveCount(0);
});

test("browse and skill page fit 375 px, work by keyboard with visible focus, and do not shift on load", async ({ page }) => {
  const id = uniqueId();
  const slug = `narrow-${id}`;
  await signUp(page, id);
  await publish(page, bundle(slug, "1.0.0", `narrow${id}`));
  await page.setViewportSize({ width: 375, height: 740 });

  for (const path of [`/?q=narrow${id}&status=all`, `/skills/${slug}`]) {
    await page.goto(url(path));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
              if (!e.hadRecentInput) total += e.value;
            }
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(total), 500);
        }),
    );
    expect(shift, path).toBeLessThan(0.01);
  }

  await page.goto(url(`/?q=narrow${id}&status=all`));
  const link = page.getByRole("link", { name: `Zebra tally narrow${id}` });
  for (let i = 0; i < 40 && !(await link.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(link).toBeFocused();
  const outline = await link.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe("none");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/skills/${slug}$`));
});
