// What one hostile author can do to the server, through the real publish, install and call paths:
// 64 KiB of Markdown built to make a parser backtrack is rendered once at publish (within its
// budgets) and stored, so the skill page only reads it; a tool's `^(a+)+$` pattern meets an
// agent's 64 KiB of "a…a!" on the linear engine and answers at once (stock RegExp: never).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

let env: IntegrationEnv;
let agent: import("../../lib/agents").AgentPrincipal;
let versionId: string;

const CRAFTED = (() => {
  const n = 64 * 1024 - 16;
  const head = "- a\n".repeat(2_990) + "_a ".repeat(2_000) + "![".repeat(1_000) + "\n\n" + "<script>window.x=1</script>\n\n";
  return head + "[".repeat(n - head.length);
})();

const doc = {
  contract: "actor.skill@2",
  slug: "hostile-markdown",
  version: "1.0.0",
  name: "Hostile markdown",
  summary: "Instructions built to stall a Markdown parser, and a pattern built to backtrack.",
  instructions: CRAFTED,
  runs: "sandbox",
  resources: [
    { name: "tools/echo.js", media_type: "text/javascript", text: 'process.stdin.on("data", (d) => process.stdout.write(d));\n' },
    { name: "docs/more.md", media_type: "text/markdown", text: "*_".repeat(20_000) },
  ],
  tools: [
    {
      name: "echo",
      description: "Echoes its input.",
      language: "javascript",
      entry: "tools/echo.js",
      args: { type: "object", properties: { text: { type: "string", pattern: "^(a+)+$" } }, required: ["text"] },
    },
  ],
  requires: { kinds: ["skill.run"] },
};

beforeAll(async () => {
  env = await setupIntegration("hostile");
  const { createUser } = await import("../../lib/auth/users");
  const { validateSkillDocument } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { createAgent, verifyAgentToken } = await import("../../lib/agents");
  const author = await createUser({ email: "hostile@example.test", name: "Hostile", password: null });
  const valid = validateSkillDocument(doc);
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  versionId = (await publishSkill({ ownerId: author.id, document: valid.document, scan: "none" })).versionId;
  await scanVersion(versionId);
  await installSkill({ userId: author.id, slug: doc.slug, version: doc.version });
  agent = await verifyAgentToken((await createAgent(author.id, { name: "a" })).token);
}, 120_000);

afterAll(async () => {
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("a hostile author", () => {
  it("gets crafted Markdown rendered once at publish, and the page reads the stored HTML", async () => {
    const row = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId }, select: { instructionsHtml: true, resourcesHtml: true } });
    const { renderMarkdownHtml } = await import("../../lib/markdown");
    expect(row.instructionsHtml).toBe(renderMarkdownHtml(CRAFTED, { headingOffset: 2 }));
    expect(row.instructionsHtml).not.toMatch(/<script/);
    expect(Object.keys(row.resourcesHtml as object)).toEqual(["docs/more.md"]);
    const { loadSkillPage } = await import("../../lib/registry/skill-page");
    const page = await loadSkillPage(doc.slug, doc.version);
    expect(page!.version.instructionsHtml).toBe(row.instructionsHtml);
    expect(page!.resources.find((r) => r.name === "docs/more.md")!.html).toBe((row.resourcesHtml as Record<string, string>)["docs/more.md"]);
  });

  it("cannot make an agent's call backtrack: 64 KiB against ^(a+)+$ is answered on the linear engine", async () => {
    const { createSkillRunStep } = await import("../../lib/steps");
    const bait = "a".repeat(64 * 1024 - 64) + "!";
    await expect(createSkillRunStep(agent, { skill: `${doc.slug}@${doc.version}`, tool: "echo", input: { text: bait } })).rejects.toMatchObject({
      code: "step.input_invalid",
    });
    const fits = await createSkillRunStep(agent, { skill: `${doc.slug}@${doc.version}`, tool: "echo", input: { text: "a".repeat(60_000) } });
    expect(fits).toMatchObject({ status: "pending_approval" });
  });

  it("cannot publish a pattern the linear engine cannot run", async () => {
    const { validateSkillDocument } = await import("../../lib/contracts");
    const backref = structuredClone(doc);
    backref.version = "1.0.1";
    backref.tools[0]!.args.properties.text.pattern = "^(a)\\1$";
    const result = validateSkillDocument(backref);
    expect(result.ok ? [] : result.errors).toContainEqual(
      expect.objectContaining({ path: "/tools/0/args/properties/text/pattern", code: "contract.args_pattern_unsupported" }),
    );
  });
});
