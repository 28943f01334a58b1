// The search table against the real PostgreSQL: its triggers keep one row per skill equal to the
// latest live version through publish, retire, scan verdicts, installs and deletes; keyset pages
// cover every match exactly once, also while skills are published between pages; and a match in
// the name outranks one in the summary, which outranks one in the instructions.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import type { BrowseQuery } from "./browse-query";

let env: IntegrationEnv;
let search: typeof import("./search");
let parse: typeof import("./browse-query").parseBrowseQuery;
let authorId: string;

const SKILLS = 240;

// The definition the table must match, written the slow way: the live version no other live
// version of the same skill outranks by semver precedence.
async function expectedLatest(): Promise<Map<string, string>> {
  const rows = await env.db.$queryRaw<{ skillId: string; id: string }[]>`
    SELECT v."skillId", v.id FROM "SkillVersion" v
    WHERE v."retiredAt" IS NULL AND NOT EXISTS (
      SELECT 1 FROM "SkillVersion" n
      WHERE n."skillId" = v."skillId" AND n."retiredAt" IS NULL AND n.id <> v.id
        AND (n."semverMajor", n."semverMinor", n."semverPatch", (n.prerelease IS NULL), coalesce(n.prerelease, ''))
          > (v."semverMajor", v."semverMinor", v."semverPatch", (v.prerelease IS NULL), coalesce(v.prerelease, '')))`;
  return new Map(rows.map((r) => [r.skillId, r.id]));
}

async function storedLatest(): Promise<Map<string, string>> {
  const rows = await env.db.skillLatest.findMany({ select: { skillId: true, versionId: true } });
  return new Map(rows.map((r) => [r.skillId, r.versionId]));
}

async function expectTableInStep() {
  const [stored, expected] = await Promise.all([storedLatest(), expectedLatest()]);
  expect(stored.size).toBe(expected.size);
  expect(Object.fromEntries(stored)).toEqual(Object.fromEntries(expected));
  // The copied columns match their sources.
  const drift = await env.db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM "SkillLatest" l
    JOIN "SkillVersion" v ON v.id = l."versionId" JOIN "Skill" s ON s.id = l."skillId"
    WHERE (l.slug, l."ownerId", l.trust, l."installsCount", l.version, l.name, l.summary, l.status, l.runs, l."publishedAt")
          IS DISTINCT FROM (s.slug, s."ownerId", s.trust, s."installsCount", v.version, v.name, v.summary, v.status, v.runs, v."publishedAt")
       OR l."searchVector" IS DISTINCT FROM v."searchVector" OR l."netReach" IS DISTINCT FROM v."netReach"`;
  expect(Number(drift[0]?.n)).toBe(0);
  // The card's extras match theirs: the owner, the audit, the findings per tool.
  const extrasDrift = await env.db.$queryRaw<{ n: bigint }[]>`
    SELECT count(*) AS n FROM "SkillLatest" l
    JOIN "SkillVersion" v ON v.id = l."versionId" JOIN "User" u ON u.id = l."ownerId"
    WHERE (l."authorHandle", l."authorName", l.asks, l."outsideScripts") IS DISTINCT FROM (u.handle, u.name, v.asks, v."outsideScripts")
       OR l."toolFindings" IS DISTINCT FROM (
            SELECT coalesce(jsonb_object_agg(c.tool, jsonb_build_object('fail', c.fail, 'flag', c.flag)), '{}'::jsonb)
            FROM (SELECT f.tool, count(*) FILTER (WHERE f.severity = 'fail') AS fail, count(*) FILTER (WHERE f.severity = 'flag') AS flag
                  FROM "ScanFinding" f JOIN "Listing" li ON li.id = f."listingId"
                  WHERE li."versionId" = v.id AND f.tool IS NOT NULL GROUP BY f.tool) c)`;
  expect(Number(extrasDrift[0]?.n)).toBe(0);
}

let nextVersion = 0;
async function publish(
  slug: string,
  opts: { name: string; summary: string; instructions: string; installs: number; daysAgo?: number },
) {
  const skill = await env.db.skill.upsert({
    where: { slug },
    create: { slug, ownerId: authorId, installsCount: opts.installs },
    update: {},
  });
  const version = `2.${nextVersion++}.0`;
  const { semverParts } = await import("./semver");
  const document = {
    contract: "actor.skill@2",
    slug,
    version,
    name: opts.name,
    summary: opts.summary,
    instructions: opts.instructions,
    runs: "prompt",
    resources: [],
    requires: { kinds: [] },
    integrity: `sha256:${slug}-${version}`,
  };
  await env.db.skillVersion.create({
    data: {
      skillId: skill.id,
      version,
      ...semverParts(version),
      contract: "actor.skill@2",
      document,
      integrity: document.integrity,
      runs: "prompt",
      name: opts.name,
      summary: opts.summary,
      instructions: opts.instructions,
      status: "passed",
      publishedAt: new Date(Date.now() - (opts.daysAgo ?? 0) * 86_400_000),
    },
  });
  return skill;
}

/** Every page of `params` by following `next`, and the cursors' count. */
// A small count cap sends searches with words down the index-walk path instead of the GIN one.
async function keysetPages(
  params: Record<string, string>,
  pageSize: number,
  between?: (page: number) => Promise<void>,
  countCap?: number,
) {
  const seen: string[] = [];
  let query: BrowseQuery = parse(params);
  for (let page = 1; page < 100; page++) {
    const r = await search.searchSkills(query, { pageSize, countCap });
    seen.push(...r.skills.map((s) => s.slug));
    if (!r.next) return { slugs: seen, pages: page };
    expect(r.skills).toHaveLength(pageSize);
    await between?.(page);
    query = { ...query, page: page + 1, after: r.next };
  }
  throw new Error("keyset paging did not end");
}

async function everything(params: Record<string, string>): Promise<string[]> {
  const r = await search.searchSkills(parse(params), { pageSize: 10_000, countCap: 10_000 });
  expect(r.next).toBeNull();
  return r.skills.map((s) => s.slug);
}

beforeAll(async () => {
  env = await setupIntegration("search-latest");
  search = await import("./search");
  parse = (await import("./browse-query")).parseBrowseQuery;
  const { createUser } = await import("../auth/users");
  authorId = (await createUser({ email: "author@example.test", name: "Author", handle: "author", password: null })).id;
  const { insertSyntheticSkills } = await import("../../bench/synthetic-skills");
  await insertSyntheticSkills(SKILLS, 7);
}, 180_000);

afterAll(async () => {
  await env?.teardown();
});

describe("the search table", () => {
  it("holds each skill's latest live version after a bulk insert", async () => {
    await expectTableInStep();
    expect((await storedLatest()).size).toBe(SKILLS);
  });

  it("follows retire, scan verdicts, installs, deletes and new versions in the same transaction", async () => {
    // Retire the newest version of every fifth skill: the one before becomes latest (or none).
    await env.db.$executeRaw`
      UPDATE "SkillVersion" v SET "retiredAt" = now()
      WHERE v."skillId" IN (SELECT 'syn_s_' || g FROM generate_series(5, ${SKILLS}::int, 5) g)
        AND v."semverMinor" = (SELECT max(n."semverMinor") FROM "SkillVersion" n WHERE n."skillId" = v."skillId")`;
    await env.db.skillVersion.updateMany({
      where: { skillId: { in: ["syn_s_7", "syn_s_8"] } },
      data: { status: "failed" },
    });
    await env.db.skill.update({ where: { id: "syn_s_9" }, data: { installsCount: 123_456, trust: "first_party" } });
    await env.db.skillVersion.deleteMany({ where: { skillId: "syn_s_11" } });
    await env.db.skill.delete({ where: { id: "syn_s_12" } });
    await expectTableInStep();

    const nine = await env.db.skillLatest.findUniqueOrThrow({ where: { skillId: "syn_s_9" } });
    expect(nine).toMatchObject({ installsCount: 123_456, trust: "first_party" });
    expect((await search.searchSkills(parse({ sort: "installs" }))).skills[0]?.slug).toBe("bench-skill-9");
    expect(
      (await search.searchSkills(parse({ status: "failed" }), { pageSize: 500 })).skills.map((s) => s.slug),
    ).toEqual(expect.arrayContaining(["bench-skill-7", "bench-skill-8"]));

    // A new version, then a rollback of it: the card follows both.
    await publish("bench-skill-3", {
      name: "Renamed three",
      summary: "New summary.",
      instructions: "New.",
      installs: 0,
    });
    await expectTableInStep();
    expect((await env.db.skillLatest.findUniqueOrThrow({ where: { skillId: "syn_s_3" } })).name).toBe("Renamed three");
    await env.db.skillVersion.updateMany({
      where: { skillId: "syn_s_3", name: "Renamed three" },
      data: { retiredAt: new Date() },
    });
    await expectTableInStep();
    expect((await env.db.skillLatest.findUniqueOrThrow({ where: { skillId: "syn_s_3" } })).name).not.toBe(
      "Renamed three",
    );
  });
});

describe("the card's extras on the search table", () => {
  it("follow a scan verdict's asks and findings, a renamed author and a new owner", async () => {
    const card = async (slug: string) =>
      (await search.searchSkills(parse({ q: slug, status: "all" }))).skills.find((s) => s.slug === slug);
    const skill = await publish("extras-skill", {
      name: "Extras probe",
      summary: "Checks the card.",
      instructions: "Plain.",
      installs: 0,
    });
    const version = await env.db.skillVersion.findFirstOrThrow({ where: { skillId: skill.id } });
    await env.db.skillVersion.update({
      where: { id: version.id },
      data: { document: { ...(version.document as object), tools: [{ name: "probe", net: "deny" }] } },
    });
    const listing = await env.db.listing.create({ data: { versionId: version.id, contract: "actor.skill@2" } });
    // A verdict as scan-version.ts writes it: findings replaced, then the version's audit.
    await env.db.$transaction(async (tx) => {
      await tx.scanFinding.deleteMany({ where: { listingId: listing.id } });
      const finding = {
        listingId: listing.id,
        ruleId: "r",
        resource: "tools/probe.js",
        line: 1,
        column: 1,
        excerpt: "x",
        message: "m",
      };
      await tx.scanFinding.createMany({
        data: [
          { ...finding, severity: "fail", tool: "probe" },
          { ...finding, severity: "flag", tool: "probe" },
          { ...finding, severity: "flag", tool: "probe" },
        ],
      });
      await tx.skillVersion.update({
        where: { id: version.id },
        data: { asks: ["Read your notes"], outsideScripts: ["scripts/a.sh"] },
      });
    });
    await expectTableInStep();
    expect(await card("extras-skill")).toMatchObject({
      asks: ["Read your notes"],
      outsideScripts: ["scripts/a.sh"],
      author: { handle: "author", name: "Author" },
      tools: [{ name: "probe", net: "deny", fail: 1, flag: 2 }],
    });
    // Findings gone (a rescan that finds nothing), and the counts follow.
    await env.db.scanFinding.deleteMany({ where: { listingId: listing.id, severity: "fail" } });
    await expectTableInStep();
    expect((await card("extras-skill"))?.tools).toEqual([{ name: "probe", net: "deny", fail: 0, flag: 2 }]);

    await env.db.user.update({ where: { id: authorId }, data: { handle: "author-renamed", name: "Renamed Author" } });
    await expectTableInStep();
    expect((await card("extras-skill"))?.author).toEqual({ handle: "author-renamed", name: "Renamed Author" });

    const { createUser } = await import("../auth/users");
    const heir = await createUser({ email: "heir@example.test", name: "Heir", handle: "heir", password: null });
    await env.db.skill.update({ where: { id: skill.id }, data: { ownerId: heir.id } });
    await expectTableInStep();
    expect((await card("extras-skill"))?.author).toEqual({ handle: "heir", name: "Heir" });
    await env.db.user.update({ where: { id: authorId }, data: { handle: "author", name: "Author" } });
  });
});

describe("keyset paging", () => {
  const shapes: Record<string, string>[] = [
    {},
    { sort: "newest" },
    { sort: "installs", status: "all" },
    { q: "csv" },
    { q: "release notes" },
    { q: "weather -json", status: "all" },
    { q: "statistics", sort: "newest" },
    { q: "email", sort: "installs", runs: "sandbox" },
    { trust: "first_party", sort: "newest" },
    { net: "public", status: "all" },
  ];

  it.each(shapes)("covers every match once, in order: %o", async (params) => {
    const all = await everything(params);
    expect(all.length).toBeGreaterThan(0);
    const paged = await keysetPages(params, 7);
    expect(paged.slugs).toEqual(all);
    expect(new Set(paged.slugs).size).toBe(paged.slugs.length);
    expect((await keysetPages(params, 7, undefined, 5)).slugs).toEqual(all);
    // The numbered (OFFSET) pages agree with the keyset ones.
    const second = await search.searchSkills(parse({ ...params, page: "2" }), { pageSize: 7 });
    expect(second.skills.map((s) => s.slug)).toEqual(all.slice(7, 14));
  });

  it("neither repeats nor skips a skill when skills are published between pages", async () => {
    let added = 0;
    const shapes: Record<string, string>[] = [{ sort: "newest" }, {}, { q: "csv" }];
    for (const params of shapes) {
      const before = await everything(params);
      const already = added;
      const paged = await keysetPages(params, 9, async (page) => {
        // Each lands at the top of its order: newest, most installed, a name match.
        await publish(`fresh-${params.sort ?? "rel"}-${params.q ?? "all"}-${page}`, {
          name: "CSV fresh arrival",
          summary: "Arrived between pages.",
          instructions: "csv",
          installs: 2_000_000_000 + added,
        });
        added++;
      });
      expect(added - already).toBeGreaterThan(1);
      expect(paged.slugs).toEqual(before);
      const beforeWalk = await everything(params);
      const walked = await keysetPages(
        params,
        11,
        async (page) => {
          await publish(`walked-${params.sort ?? "rel"}-${params.q ?? "all"}-${page}`, {
            name: "CSV walked arrival",
            summary: "Arrived between pages.",
            instructions: "csv",
            installs: 2_000_000_000 + added++,
          });
        },
        5,
      );
      expect(walked.slugs).toEqual(beforeWalk);
    }
  });
});

describe("ranking", () => {
  it("puts a name match above a summary match above an instructions match, whatever the installs", async () => {
    await publish("zebra-instructions", {
      name: "Striped tool",
      summary: "Lines.",
      instructions: "Works like a zebra.",
      installs: 9_000,
    });
    await publish("zebra-summary", {
      name: "Striped helper",
      summary: "For every zebra crossing.",
      instructions: "Plain.",
      installs: 5_000,
    });
    await publish("zebra-name", { name: "Zebra counter", summary: "Counts.", instructions: "Plain.", installs: 1 });
    await publish("zebra-name-popular", {
      name: "Zebra finder",
      summary: "Finds.",
      instructions: "Plain.",
      installs: 2,
    });
    const r = await search.searchSkills(parse({ q: "zebra" }));
    expect(r.skills.map((s) => s.slug)).toEqual([
      "zebra-name-popular",
      "zebra-name",
      "zebra-summary",
      "zebra-instructions",
    ]);
    expect(r.total).toBe(4);
    // The tiers page by keyset too: one per page, in the same order.
    expect((await keysetPages({ q: "zebra" }, 1)).slugs).toEqual(r.skills.map((s) => s.slug));
  });
});
