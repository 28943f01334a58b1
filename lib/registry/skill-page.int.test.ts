// The skill page against the real PostgreSQL: everything it shows comes from one SQL statement
// (counted at the driver), and the stored HTML, findings, pins and log entry reach the page.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";

let env: IntegrationEnv;
let pages: typeof import("./skill-page");

beforeAll(async () => {
  env = await setupIntegration("skill-page");
  pages = await import("./skill-page");
  const { insertSyntheticSkills } = await import("../../bench/synthetic-skills");
  await insertSyntheticSkills(33, 3);
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

/** How many statements reach PostgreSQL while `fn` runs (every Prisma query goes through pg's Client#query). */
async function statementsDuring(fn: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(pg.Client.prototype, "query");
  try {
    await fn();
    return spy.mock.calls.length;
  } finally {
    spy.mockRestore();
  }
}

describe("loadSkillPage", () => {
  it("reads a whole page in one statement, whichever version and whatever it holds", async () => {
    // The pool's connection is opened first, so only the page's own statements are counted.
    await pages.loadSkillPage("bench-skill-1");
    // bench-skill-22: a flagged sandbox skill with findings; 26: three versions, two retired.
    for (const [slug, version] of [
      ["bench-skill-22", undefined],
      ["bench-skill-26", undefined],
      ["bench-skill-26", "1.2.0"],
      ["bench-skill-3", undefined],
    ] as const) {
      let page: Awaited<ReturnType<typeof pages.loadSkillPage>> = null;
      expect(await statementsDuring(async () => (page = await pages.loadSkillPage(slug, version)))).toBe(1);
      expect(page).not.toBeNull();
    }
    expect(await statementsDuring(() => pages.loadSkillPage("no-such-skill"))).toBe(1);
    expect(await statementsDuring(() => pages.loadSkillPage("bench-skill-1", "9.9.9"))).toBe(1);
  });

  it("shows the latest live version, every version, the findings, the pinned code and the stored HTML", async () => {
    await env.db.skillVersion.update({ where: { id: "syn_v_22_1" }, data: { instructionsHtml: "<p>Stored HTML</p>" } });
    const page = await pages.loadSkillPage("bench-skill-22");
    expect(page).toMatchObject({
      slug: "bench-skill-22",
      latest: "1.1.0",
      author: { handle: "synthetic-2" },
      version: {
        version: "1.1.0",
        status: "flagged",
        isLatest: true,
        runs: "sandbox",
        instructionsHtml: "<p>Stored HTML</p>",
      },
      findings: [expect.objectContaining({ rule: "net.use", severity: "flag", resource: "tools/main.js", line: 2 })],
      resources: [
        expect.objectContaining({
          name: "tools/main.js",
          isCode: true,
          pin: expect.objectContaining({ mediaId: "med_SYNTHETIC" }),
        }),
      ],
      log: null,
    });
    expect(page?.tools.map((t) => [t.name, t.net])).toEqual([["run_4", "deny"]]);
    expect(page?.versions.map((v) => v.version)).toEqual(["1.1.0", "1.0.0"]);

    // Three versions, 1.2.0 and 1.1.0 retired: the page shows 1.0.0 and lists all three, newest first.
    const many = await pages.loadSkillPage("bench-skill-26");
    expect(many?.versions.map((v) => [v.version, v.retiredAt !== null])).toEqual([
      ["1.2.0", true],
      ["1.1.0", true],
      ["1.0.0", false],
    ]);
    expect(many?.version).toMatchObject({ version: "1.0.0", isLatest: true });
    expect(many?.versions[0]?.publishedAt).toBe(
      (await env.db.skillVersion.findUniqueOrThrow({ where: { id: "syn_v_26_2" } })).publishedAt.toISOString(),
    );
    const retired = await pages.loadSkillPage("bench-skill-26", "1.2.0");
    expect(retired?.version).toMatchObject({ version: "1.2.0", isLatest: false, retiredAt: expect.any(String) });
    expect(retired?.latest).toBe("1.0.0");
  });

  it("gives the version's transparency-log entry and the signed tree size to prove it against", async () => {
    await env.db.$executeRaw`
      INSERT INTO "LogEntry" ("leafIndex", "versionId", event, data, "leafHash") VALUES (3, 'syn_v_22_1', 'publish', '{}', '\\x01'::bytea)`;
    const head = await env.db.logHead.findUniqueOrThrow({ where: { id: 1 } });
    expect((await pages.loadSkillPage("bench-skill-22"))?.log).toEqual({
      entry: 3,
      since: expect.any(String),
      proofSize: Number(head.size),
    });
    await env.db.$executeRaw`
      INSERT INTO "LogCheckpoint" (size, "rootHash", note, "signedAt") VALUES (9, '\\x02'::bytea, 'note', now())`;
    expect((await pages.loadSkillPage("bench-skill-22"))?.log).toMatchObject({ entry: 3, proofSize: 9 });
    expect((await pages.loadSkillPage("bench-skill-22", "1.0.0"))?.log).toBeNull();
  });
});
