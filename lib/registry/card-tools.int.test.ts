// The skill card's per-tool line against the real PostgreSQL: each tool carries how many of the
// scan's findings name it, by severity, so the card can say per tool what the scan found.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";

let env: IntegrationEnv;
let search: typeof import("./search");
let parse: typeof import("./browse-query").parseBrowseQuery;

beforeAll(async () => {
  env = await setupIntegration("card-tools");
  search = await import("./search");
  parse = (await import("./browse-query")).parseBrowseQuery;
  const { createUser } = await import("../auth/users");
  const { semverParts } = await import("./semver");
  const ada = await createUser({ email: "card-tools@example.test", name: "Ada", handle: "cardada", password: null });
  const skill = await env.db.skill.create({ data: { slug: "weather-card", ownerId: ada.id } });
  const tool = (name: string, net: string) => ({
    name,
    description: name,
    language: "javascript",
    entry: "tools/main.js",
    args: { type: "object" },
    net,
    limits: { wall_ms: 7000, mem_bytes: 67108864 },
  });
  const document = {
    contract: "actor.skill@2",
    slug: "weather-card",
    version: "1.0.0",
    name: "Weather card",
    summary: "Weather.",
    instructions: "Ask.",
    runs: "sandbox",
    resources: [],
    tools: [tool("fetch", "public"), tool("local", "deny")],
    requires: { kinds: ["skill.run"] },
    integrity: "sha256:weather-card",
  };
  const version = await env.db.skillVersion.create({
    data: {
      skillId: skill.id,
      version: "1.0.0",
      ...semverParts("1.0.0"),
      contract: "actor.skill@2",
      document,
      integrity: document.integrity,
      runs: "sandbox",
      name: document.name,
      summary: document.summary,
      instructions: document.instructions,
      status: "flagged",
      listing: { create: { contract: "actor.skill-listing@2" } },
    },
    include: { listing: true },
  });
  const finding = (severity: "flag" | "fail", toolName: string | null, line: number) => ({
    listingId: version.listing!.id,
    ruleId: "net.fetch",
    severity,
    tool: toolName,
    resource: "tools/main.js",
    line,
    column: 1,
    excerpt: "fetch(url)",
    message: "reaches the network",
  });
  await env.db.scanFinding.createMany({
    data: [finding("flag", "fetch", 1), finding("flag", "fetch", 2), finding("flag", null, 3)],
  });
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

describe("card tools", () => {
  it("count the findings that name each tool, by severity", async () => {
    const result = await search.searchSkills(parse({ status: "all" }));
    const card = result.skills.find((s) => s.slug === "weather-card");
    expect(card?.tools).toEqual([
      { name: "fetch", net: "public", fail: 0, flag: 2 },
      { name: "local", net: "deny", fail: 0, flag: 0 },
    ]);
  });
});
