// Issue 18 §6: every page of app/ (signed out and signed in, at desktop width and at 375 px) has
// no serious or critical axe violation, and at 375 px no horizontal scroll.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type BrowserContext, type Page } from "playwright/test";
import { generateLinkKeyPair } from "../lib/protocol/signing";
import { pageUrls } from "./helpers/app-pages";
import { latestVersion, makeOperator, newAgent, seedCatalogue, signedPost, signUp, url } from "./helpers/people";

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
type Pages = ReturnType<typeof pageUrls>;

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const BLOCKING = new Set(["serious", "critical"]);
const WIDTHS = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "375 px", viewport: { width: 375, height: 800 } },
];

let signedIn: StorageState;
let pages: Pages;

/** A person with something on every page: an install, a balance, a run, a waiting step, an OAuth client. */
async function buildWorld(page: Page): Promise<Pages> {
  const email = await signUp(page, "a11y");
  makeOperator(email);
  const r = page.request;
  const slug = "text-tools";
  const version = await latestVersion(r, slug);
  expect((await r.post(url("/api/v1/installs"), { data: { slug, version } })).status()).toBe(201);
  const topUp = { amount_micros: "5000000", idempotency_key: `e2e-a11y-${Date.now()}` };
  expect((await r.post(url("/api/v1/balance/top-ups"), { data: topUp })).status()).toBe(201);
  await r.post(url("/api/v1/tokens"), { data: { name: "e2e a11y" } });

  const { code } = (await (await r.post(url("/api/v1/links/pairing-codes"))).json()) as { code: string };
  const key = generateLinkKeyPair();
  const paired = await signedPost(r, "/api/link/v1/pair", key, key.publicKey, { code, name: "e2e a11y box" });
  const { link_id: linkId } = (await paired.json()) as { link_id: string };
  const beat = { runner: "on", runner_epoch: 1, pool: false };
  expect((await signedPost(r, "/api/link/v1/heartbeat", key, linkId, beat)).status()).toBe(200);

  const agent = await newAgent(r, "e2e a11y agent");
  const ran = await agent.call(`${slug}@${version}`, "slugify", { text: "Hello there" });
  const decided = await r.post(url(`/api/v1/steps/${ran.id}/decision`), { data: { decision: "once" } });
  const { job } = (await decided.json()) as { job: { id: string } | null };
  expect(job).not.toBeNull();
  const waiting = await agent.call(`${slug}@${version}`, "slugify", { text: "Still waiting" });
  expect(waiting.status).toBe("pending_approval");

  const me = (await (await r.get(url("/api/v1/me"))).json()) as { user: { handle: string } };
  const reg = await r.post(url("/oauth/register"), {
    data: { client_name: "A11y client", redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" },
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const oauth = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: "http://127.0.0.1:9/cb",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "s1",
  });

  const skill = { slug, version };
  return pageUrls(
    {
      "/skills/[slug]": skill,
      "/skills/[slug]/[version]": skill,
      "/skills/[slug]/[version]/install": skill,
      "/authors/[handle]": { handle: me.user.handle },
      "/dashboard/approvals/[id]": { id: waiting.id },
      "/dashboard/runs/[id]": { id: job!.id },
      "/docs/[guide]": { guide: "publish" },
    },
    { "/oauth/authorize": oauth.toString() },
  );
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  seedCatalogue();
  const context = await browser.newContext();
  pages = await buildWorld(await context.newPage());
  signedIn = await context.storageState();
  await context.close();
});

async function check(browser: Browser, storageState: StorageState | undefined, width: (typeof WIDTHS)[number]) {
  const context = await browser.newContext({ storageState, viewport: width.viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  for (const { path } of pages) {
    const res = await page.goto(url(path));
    expect(res?.status(), path).toBeLessThan(500);
    await page.waitForLoadState("load");
    const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    for (const v of violations.filter((v) => BLOCKING.has(v.impact ?? ""))) {
      const where = v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ")}`)
        .join(" | ");
      problems.push(`${path} [${v.impact}] ${v.id}: ${v.help} — ${where}`);
    }
    if (width.viewport.width === 375) {
      const { scroll, client } = await page.evaluate(() => {
        const el = document.scrollingElement ?? document.documentElement;
        return { scroll: el.scrollWidth, client: el.clientWidth };
      });
      if (scroll > client) problems.push(`${path} scrolls sideways at 375 px: ${scroll} > ${client}`);
    }
  }
  await context.close();
  expect(problems, problems.join("\n")).toEqual([]);
}

test("the page list covers every page of app/", () => {
  const patterns = pages.map((p) => p.pattern);
  for (const must of ["/", "/dashboard/approvals/[id]", "/dashboard/balance", "/skills/[slug]/[version]/install"])
    expect(patterns).toContain(must);
  expect(pages.every((p) => !p.path.includes("["))).toBe(true);
});

for (const width of WIDTHS) {
  test(`signed out, ${width.name}: no serious or critical axe violation${width.viewport.width === 375 ? ", no sideways scroll" : ""}`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    await check(browser, undefined, width);
  });

  test(`signed in, ${width.name}: no serious or critical axe violation${width.viewport.width === 375 ? ", no sideways scroll" : ""}`, async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    await check(browser, signedIn, width);
  });
}
