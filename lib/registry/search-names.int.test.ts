// Search by name against the seeded demo catalogue on the real PostgreSQL: for every demo skill a
// query equal to its slug ranks it first (through GET /api/v1/search), an author's handle ranks
// their skills first, a prefix of either matches, and the walk that pages many matches tier by
// tier (the path past the count cap) agrees with the ranked set, keyset page by page.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";

let env: IntegrationEnv;
let search: typeof import("./search");
let parse: typeof import("./browse-query").parseBrowseQuery;
let route: typeof import("@/app/api/v1/search/route");
let demo: { slug: string; author: string; failed: boolean }[];

type Answer = { status: number; body: { skills: { slug: string; author: string }[]; next: string | null } };

async function get(params: Record<string, string>): Promise<Answer> {
  const url = `http://localhost/api/v1/search?${new URLSearchParams(params).toString()}`;
  const res = await route.GET(new Request(url), { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  env = await setupIntegration("search-names");
  search = await import("./search");
  parse = (await import("./browse-query")).parseBrowseQuery;
  route = await import("@/app/api/v1/search/route");
  const { seedDemo, loadDemoBundles } = await import("../../scripts/demo/seed-helpers");
  await seedDemo();
  const bundles = await loadDemoBundles();
  const bySlug = new Map(bundles.map((b) => [b.document.slug, b]));
  demo = [...bySlug.values()].map((b) => ({
    slug: b.document.slug,
    author: b.meta.author,
    failed: b.meta.expected_scan === "failed",
  }));
}, 300_000);

afterAll(async () => {
  await (await import("./index")).scanQueue().close();
  await (await import("../events")).closeEvents();
  await env?.teardown();
});

describe("search by name", () => {
  it("for every demo skill, q=<slug> returns that skill first", async () => {
    expect(demo.length).toBeGreaterThanOrEqual(9);
    for (const skill of demo) {
      // A skill that failed its scan is listed only under "all" (never installable).
      const answer = await get(skill.failed ? { q: skill.slug, status: "all" } : { q: skill.slug });
      expect(answer.status).toBe(200);
      expect(answer.body.skills[0]?.slug, `q=${skill.slug}`).toBe(skill.slug);
      const all = await get({ q: skill.slug, status: "all", sort: "installs" });
      expect(all.body.skills.map((s) => s.slug)).toContain(skill.slug);
    }
  });

  it("an author's handle (with or without @) ranks their skills first", async () => {
    for (const q of ["mika", "@mika", "MIKA"]) {
      const answer = await get({ q, status: "all" });
      const mine = demo.filter((d) => d.author === "mika").length;
      expect(answer.body.skills.slice(0, mine).map((s) => s.author)).toEqual(Array(mine).fill("mika"));
    }
  });

  it("a prefix of a slug or a handle matches too", async () => {
    expect((await get({ q: "text-to" })).body.skills[0]?.slug).toBe("text-tools");
    expect((await get({ q: "release-no" })).body.skills[0]?.slug).toBe("release-notes-writer");
    const labs = await get({ q: "ovla", status: "all" });
    const theirs = demo.filter((d) => d.author === "ovlabs").map((d) => d.slug);
    expect(labs.body.skills.map((s) => s.slug)).toEqual(expect.arrayContaining(theirs));
    expect((await get({ q: "zz-no-such-skill" })).body.skills).toEqual([]);
  });

  it("the tier walk past the count cap pages the same skills in the same order, nothing twice", async () => {
    for (const q of ["text-tools", "mika", "un", "checklist"]) {
      for (const sort of ["relevance", "newest", "installs"] as const) {
        const ranked = await search.searchSkills(parse({ q, status: "all", sort }), { pageSize: 50 });
        const walked: string[] = [];
        let after: string | null = null;
        for (let page = 0; page < 20; page++) {
          const params: Record<string, string> = { q, status: "all", sort, ...(after ? { after } : {}) };
          const r = await search.searchSkills(parse(params), { pageSize: 1, countCap: 0 });
          walked.push(...r.skills.map((s) => s.slug));
          after = search.nextCursorParam(r);
          if (!after) break;
        }
        expect(walked, `${q} ${sort}`).toEqual(ranked.skills.map((s) => s.slug));
      }
    }
  });
});
