// Browse and search against the real PostgreSQL: latest-version selection, full-text ranking,
// filters, sorts, paging and counts, plus the skill, author and dashboard loaders.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import type { NetPolicy } from "../contracts/types";

let env: IntegrationEnv;
let search: typeof import("./search");
let parse: typeof import("./browse-query").parseBrowseQuery;
let pages: typeof import("./skill-page");
let authors: typeof import("./authors");
let ada: { id: string };
let labs: { id: string };

type VersionSpec = {
  version: string;
  name?: string;
  summary?: string;
  instructions?: string;
  status?: "scanning" | "passed" | "flagged" | "failed";
  retired?: boolean;
  publishedDaysAgo?: number;
  tools?: { name: string; net: NetPolicy }[];
};

const DAY = 86_400_000;

async function skill(slug: string, ownerId: string, opts: { installs?: number; trust?: "first_party" | "community" }, versions: VersionSpec[]) {
  const { semverParts } = await import("./semver");
  const s = await env.db.skill.create({
    data: { slug, ownerId, installsCount: opts.installs ?? 0, trust: opts.trust ?? "community" },
  });
  for (const v of versions) {
    const runs = v.tools ? "sandbox" : "prompt";
    const name = v.name ?? `${slug} skill`;
    const summary = v.summary ?? `Summary of ${slug}.`;
    const instructions = v.instructions ?? `Instructions of ${slug}.`;
    const code = "process.stdin.pipe(process.stdout);\n";
    const document = {
      contract: "actor.skill@2",
      slug,
      version: v.version,
      name,
      summary,
      instructions,
      runs,
      resources: v.tools ? [{ name: "tools/main.js", media_type: "text/javascript", text: code }] : [],
      ...(v.tools
        ? {
            tools: v.tools.map((t) => ({
              name: t.name,
              description: `The ${t.name} tool.`,
              language: "javascript",
              entry: "tools/main.js",
              args: {
                type: "object",
                properties: { text: { type: "string", maxLength: 50 }, mode: { type: "string", enum: ["a", "b"] }, n: { type: "integer" } },
                required: ["text"],
                additionalProperties: false,
              },
              net: t.net,
              limits: { wall_ms: 7000, mem_bytes: 67108864 },
            })),
          }
        : {}),
      requires: { kinds: v.tools ? ["skill.run"] : [] },
      integrity: `sha256:${slug}-${v.version}`,
    };
    await env.db.skillVersion.create({
      data: {
        skillId: s.id,
        version: v.version,
        ...semverParts(v.version),
        contract: "actor.skill@2",
        document,
        integrity: document.integrity,
        runs,
        name,
        summary,
        instructions,
        status: v.status ?? "passed",
        publishedAt: new Date(Date.now() - (v.publishedDaysAgo ?? 1) * DAY),
        retiredAt: v.retired ? new Date() : null,
        listing: { create: { contract: runs === "sandbox" ? "actor.skill-listing@2" : "actor.skill-listing@1" } },
      },
    });
  }
  return s;
}

const slugs = (r: { skills: { slug: string }[] }) => r.skills.map((s) => s.slug);
const run = (params: Record<string, string> = {}) => search.searchSkills(parse(params));

beforeAll(async () => {
  env = await setupIntegration("search");
  search = await import("./search");
  parse = (await import("./browse-query")).parseBrowseQuery;
  pages = await import("./skill-page");
  authors = await import("./authors");
  const { createUser } = await import("../auth/users");
  ada = await createUser({ email: "ada@example.test", name: "Ada", handle: "ada", password: null });
  labs = await createUser({ email: "labs@example.test", name: "Labs", handle: "labs", password: null });

  // Latest is by semver, not by date or text: 1.10.0 beats 1.9.0; a release beats its pre-release.
  await skill("semver-order", ada.id, { installs: 5 }, [
    { version: "1.9.0", name: "Old nine", publishedDaysAgo: 1 },
    { version: "1.10.0", name: "Ten wins", publishedDaysAgo: 5 },
    { version: "1.10.0-rc.1", name: "Release candidate", publishedDaysAgo: 0 },
    { version: "1.10.0-beta", name: "Beta of ten", publishedDaysAgo: 6 },
  ]);
  // The newest version is retired: the skill falls back to the one before.
  await skill("retired-newest", ada.id, { installs: 50 }, [
    { version: "1.0.0", name: "Still live", publishedDaysAgo: 10 },
    { version: "1.1.0", name: "Pulled back", retired: true, publishedDaysAgo: 2 },
  ]);
  await skill("all-retired", ada.id, {}, [{ version: "1.0.0", retired: true }]);
  // The latest version failed its scan: hidden unless the status filter asks for failed ones.
  await skill("failing-latest", ada.id, { installs: 900 }, [
    { version: "1.0.0", status: "passed" },
    { version: "1.1.0", status: "failed", tools: [{ name: "leak", net: "deny" }] },
  ]);
  await skill("scanning-one", labs.id, {}, [{ version: "0.1.0", status: "scanning" }]);
  // Ranking: a match in the name (weight A) outranks one in the instructions (weight C).
  await skill("kiwi-in-name", labs.id, { installs: 1, trust: "first_party" }, [
    { version: "1.0.0", name: "Kiwi sorter", summary: "Sorts fruit.", instructions: "Sort things." },
  ]);
  await skill("kiwi-in-instructions", labs.id, { installs: 1000 }, [
    { version: "1.0.0", name: "Fruit sorter", summary: "Sorts fruit.", instructions: "Works for a kiwi too." },
  ]);
  await skill("net-public", labs.id, { installs: 30, trust: "first_party" }, [
    { version: "1.0.0", name: "Weather fetch", status: "flagged", tools: [{ name: "fetch", net: "public" }, { name: "local", net: "deny" }] },
  ]);
  await skill("net-openvibe", ada.id, { installs: 20 }, [
    { version: "1.0.0", name: "Status check", tools: [{ name: "status", net: "openvibe-only" }] },
  ]);
  await skill("net-none", ada.id, { installs: 10 }, [{ version: "1.0.0", name: "Word count", tools: [{ name: "count", net: "deny" }] }]);
  // Enough plain skills to need a second page.
  for (let i = 0; i < 23; i++) {
    await skill(`filler-${String(i).padStart(2, "0")}`, labs.id, { installs: 0 }, [
      { version: "1.0.0", name: `Filler ${i}`, summary: "Padding for paging.", publishedDaysAgo: 100 + i },
    ]);
  }
}, 180_000);

afterAll(async () => {
  await env?.teardown();
});

describe("searchSkills", () => {
  it("lists each skill once, as its latest non-retired version by semver precedence", async () => {
    const r = await run({ status: "all", q: "" });
    const bySlug = new Map(r.skills.map((s) => [s.slug, s]));
    expect(r.skills.length).toBe(20);
    const all = [...r.skills, ...(await run({ status: "all", page: "2" })).skills];
    expect(new Set(all.map((s) => s.slug)).size).toBe(all.length);
    expect(all.find((s) => s.slug === "semver-order")?.version).toBe("1.10.0");
    expect(all.find((s) => s.slug === "retired-newest")?.version).toBe("1.0.0");
    expect(all.some((s) => s.slug === "all-retired")).toBe(false);
    expect(bySlug.get("failing-latest")?.status).toBe("failed");
  });

  it("shows passed and flagged by default; failed and scanning only when the status filter asks", async () => {
    const def = [...slugs(await run()), ...slugs(await run({ page: "2" }))];
    expect(def).toContain("net-public"); // flagged
    expect(def).not.toContain("failing-latest");
    expect(def).not.toContain("scanning-one");
    expect(slugs(await run({ status: "failed" }))).toEqual(["failing-latest"]);
    expect(slugs(await run({ status: "scanning" }))).toEqual(["scanning-one"]);
    expect(slugs(await run({ status: "flagged" }))).toEqual(["net-public"]);
  });

  it("ranks full-text matches: name (A) above instructions (C), whatever the installs", async () => {
    const r = await run({ q: "kiwi" });
    expect(slugs(r)).toEqual(["kiwi-in-name", "kiwi-in-instructions"]);
    expect(r.total).toBe(2);
    // Stemming (english): "sorting" finds "sorter" and "sorts".
    expect(slugs(await run({ q: "sorting" })).sort()).toEqual(["kiwi-in-instructions", "kiwi-in-name"]);
    // websearch syntax: exclusion and quoted phrases.
    expect(slugs(await run({ q: "fruit -kiwi" }))).toEqual([]);
    expect(slugs(await run({ q: '"kiwi sorter"' }))).toEqual(["kiwi-in-name"]);
    // Only the latest version is searched: the retired 1.1.0's name no longer finds the skill.
    expect(slugs(await run({ q: "pulled" }))).toEqual([]);
    expect(slugs(await run({ q: "live" }))).toEqual(["retired-newest"]);
  });

  it("treats search words as data, never as SQL or tsquery syntax errors", async () => {
    for (const q of ["'; drop table \"Skill\"; --", "a & | ! ( ) :*", "\\", "\"unclosed"]) {
      await expect(run({ q })).resolves.toMatchObject({ skills: expect.any(Array) });
    }
    expect(await env.db.skill.count()).toBeGreaterThan(0);
  });

  it("filters by kind, widest network use and trust", async () => {
    expect(slugs(await run({ net: "public" }))).toEqual(["net-public"]);
    expect(slugs(await run({ net: "openvibe-only" }))).toEqual(["net-openvibe"]);
    const none = [...slugs(await run({ net: "none" })), ...slugs(await run({ net: "none", page: "2" }))];
    expect(none).toContain("net-none");
    expect(none).toContain("kiwi-in-name"); // a prompt skill uses no network
    expect(none).not.toContain("net-public");
    expect(slugs(await run({ runs: "sandbox", sort: "installs" }))).toEqual(["net-public", "net-openvibe", "net-none"]);
    expect(slugs(await run({ trust: "first_party", sort: "installs" }))).toEqual(["net-public", "kiwi-in-name"]);
  });

  it("sorts by installs, by newest, and by installs when there are no words", async () => {
    expect(slugs(await run({ sort: "installs" })).slice(0, 3)).toEqual(["kiwi-in-instructions", "retired-newest", "net-public"]);
    // Ties on the day: the one created last is the newest.
    expect(slugs(await run({ sort: "newest" }))[0]).toBe("net-none");
    expect(slugs(await run()).slice(0, 2)).toEqual(["kiwi-in-instructions", "retired-newest"]);
  });

  it("pages with a total and a page count, and an empty page past the end", async () => {
    const first = await run();
    // 33 skills, less all-retired (nothing live), failing-latest (failed) and scanning-one.
    expect(first.total).toBe(30);
    expect(first.pages).toBe(2);
    const second = await run({ page: "2" });
    expect(second.skills.length).toBe(first.total - 20);
    expect(new Set([...slugs(first), ...slugs(second)]).size).toBe(first.total);
    const past = await run({ page: "3" });
    expect(past.skills).toEqual([]);
    expect(past.total).toBe(first.total);
    expect(first.totalCapped).toBe(false);
  });

  it("stops counting at the cap and says so", async () => {
    const r = await search.searchSkills(parse({}), { pageSize: 3, countCap: 7 });
    expect(r.skills).toHaveLength(3);
    expect(r).toMatchObject({ total: 7, totalCapped: true, pages: 3 });
    const exact = await search.searchSkills(parse({ q: "kiwi" }), { pageSize: 1, countCap: 7 });
    expect(exact).toMatchObject({ total: 2, totalCapped: false, pages: 2 });
  });

  it("puts each tool's net on the card and scopes to one author", async () => {
    const [card] = (await run({ net: "public" })).skills;
    expect(card).toMatchObject({
      slug: "net-public",
      author: { handle: "labs", name: "Labs" },
      trust: "first_party",
      installs: 30,
      status: "flagged",
      runs: "sandbox",
      tools: [
        { name: "fetch", net: "public" },
        { name: "local", net: "deny" },
      ],
    });
    // A search with words reads the same card (its extras by a statement of their own).
    const [found] = (await run({ q: "net-public" })).skills;
    expect(found).toEqual(card);
    const mine = await search.searchSkills(parse({ status: "all" }), { ownerId: ada.id, pageSize: 50 });
    expect(slugs(mine).sort()).toEqual(["failing-latest", "net-none", "net-openvibe", "retired-newest", "semver-order"]);
  });
});

describe("parseBrowseQuery", () => {
  it("refuses unknown filters and bad pages with search.invalid_query, naming each", () => {
    try {
      parse({ status: "everything", page: "0", sort: "random" });
      expect.unreachable();
    } catch (err) {
      const e = err as { code: string; status: number; details: { path: string }[] };
      expect(e.code).toBe("search.invalid_query");
      expect(e.status).toBe(422);
      expect(e.details.map((d) => d.path).sort()).toEqual(["/page", "/sort", "/status"]);
    }
  });
});

describe("page loaders", () => {
  it("loads the latest live version by default, any version by name, and null for unknown ones", async () => {
    const latest = await pages.loadSkillPage("retired-newest");
    expect(latest?.version).toMatchObject({ version: "1.0.0", isLatest: true, retiredAt: null });
    expect(latest?.versions.map((v) => [v.version, Boolean(v.retiredAt)])).toEqual([
      ["1.1.0", true],
      ["1.0.0", false],
    ]);
    const retired = await pages.loadSkillPage("retired-newest", "1.1.0");
    expect(retired?.version.retiredAt).not.toBeNull();
    expect(retired?.latest).toBe("1.0.0");
    const allRetired = await pages.loadSkillPage("all-retired");
    expect(allRetired?.latest).toBeNull();
    expect(allRetired?.version.version).toBe("1.0.0");
    expect(await pages.loadSkillPage("retired-newest", "9.9.9")).toBeNull();
    expect(await pages.loadSkillPage("no-such-skill")).toBeNull();
  });

  it("describes tools in plain words with args, limits, the cost of one run and the pinned code", async () => {
    const page = await pages.loadSkillPage("net-public");
    expect(page?.sandboxLine).toBe("Runs code in a sandbox on your machine or OpenVibe's");
    const fetch = page?.tools.find((t) => t.name === "fetch");
    expect(fetch).toMatchObject({
      netWords: "the internet",
      limitsWords: "up to 7 s and 64 MiB per run",
      maxCost: "0.007",
      args: [
        { name: "text", type: "string", required: true, rules: ["at most 50 characters"] },
        { name: "mode", type: "string", required: false, rules: ['one of "a", "b"'] },
        { name: "n", type: "integer", required: false, rules: [] },
      ],
    });
    expect(page?.tools.find((t) => t.name === "local")?.netWords).toBe("no internet");
    expect(page?.resources).toEqual([
      expect.objectContaining({ name: "tools/main.js", isCode: true, text: "process.stdin.pipe(process.stdout);\n", pin: null }),
    ]);
    const prompt = await pages.loadSkillPage("kiwi-in-name");
    expect(prompt?.sandboxLine).toBeNull();
    expect(prompt?.tools).toEqual([]);
  });

  it("gives an author page and the author's dashboard list with every version", async () => {
    const page = await authors.loadAuthorPage("ada");
    expect(page?.name).toBe("Ada");
    expect(page?.result.skills.map((s) => s.slug).sort()).toEqual(["failing-latest", "net-none", "net-openvibe", "retired-newest", "semver-order"]);
    expect(await authors.loadAuthorPage("nobody-here")).toBeNull();
    const mine = await authors.listAuthored(ada.id);
    const semver = mine.find((s) => s.slug === "semver-order");
    expect(semver?.versions.map((v) => v.version)).toEqual(["1.10.0", "1.10.0-rc.1", "1.10.0-beta", "1.9.0"]);
    expect(mine.find((s) => s.slug === "retired-newest")?.versions[0]).toMatchObject({ version: "1.1.0", retiredAt: expect.any(String) });
  });
});
