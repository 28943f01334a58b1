// /api/mcp driven by the official SDK Client over StreamableHTTPClientTransport (and through the
// `openvibe mcp` stdio bridge over StdioClientTransport), against two web processes behind a
// round-robin balancer and a real Link running tools in its sandbox: list, call with URL
// elicitation, the fallback without it, progress, list_changed, prompts and resources.
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxSkill } from "../helpers/install-fixtures";
import { ROOT, seedPerson, setupMcpWorld, type McpWorld } from "../helpers/mcp-harness";

let world: McpWorld;
let person: { id: string };
let agentToken: string;
let agentId: string;
let steps: typeof import("../../lib/steps");
let installs: typeof import("../../lib/installs");
const LONG_SLUG = `mcp-${"long".repeat(13)}-skill`; // 61 characters
const LONG_TOOL = "a_tool_with_a_long_name_of_32_ch";
const clients: Client[] = [];

type Elicited = { url: string; elicitationId: string; message: string };

async function connect(options: { elicitation?: boolean; token?: string; onElicit?: (e: Elicited) => void } = {}) {
  const client = new Client(
    { name: "mcp-integration-test", version: "1.0.0" },
    { capabilities: options.elicitation ? { elicitation: { url: {} } } : {} },
  );
  if (options.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const p = request.params as unknown as Elicited & { mode: string };
      expect(p.mode).toBe("url");
      options.onElicit?.({ url: p.url, elicitationId: p.elicitationId, message: p.message });
      return { action: "accept" };
    });
  }
  const transport = new StreamableHTTPClientTransport(new URL(`${world.appUrl}/api/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${options.token ?? agentToken}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const stepIdOf = (url: string) => decodeURIComponent(url.split("/dashboard/approvals/")[1] ?? "");
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

async function until<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  world = await setupMcpWorld("mcp");
  steps = await import("../../lib/steps");
  installs = await import("../../lib/installs");
  const seeded = await seedPerson("mcp@example.test");
  person = seeded.person;
  await seeded.publish("scripts/demo/skills/text-tools");
  await seeded.publish("scripts/demo/skills/code-review-checklist");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { validateSkillDocument } = await import("../../lib/contracts");
  const long = validateSkillDocument(sandboxSkill({ slug: LONG_SLUG, version: "1.0.0", tools: [{ name: LONG_TOOL, net: "public" }] }));
  if (!long.ok) throw new Error(JSON.stringify(long.errors));
  const published = await publishSkill({ ownerId: person.id, document: long.document, scan: "none" });
  await scanVersion(published.versionId);
  await installs.installSkill({ userId: person.id, slug: LONG_SLUG, version: "1.0.0" });
  const { createAgent } = await import("../../lib/agents");
  const created = await createAgent(person.id, { name: "mcp-bot" });
  agentToken = created.token;
  agentId = created.agent.id;
  await world.startLink(person.id);
}, 240_000);

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await world?.close();
});

describe("authentication", () => {
  it("answers 401 with WWW-Authenticate pointing at the protected-resource metadata", async () => {
    const res = await fetch(`${world.appUrl}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${world.appUrl}/.well-known/oauth-protected-resource/api/mcp"`);
    const meta = await (await fetch(`${world.appUrl}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(meta).toMatchObject({ resource: `${world.appUrl}/api/mcp`, authorization_servers: [world.appUrl] });
  });

  it("refuses a wrong token at connect, and a session of another agent answers 404", async () => {
    await expect(connect({ token: "ova_" + "x".repeat(43) })).rejects.toThrow(/401|token/i);
    const client = await connect();
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const { createAgent } = await import("../../lib/agents");
    const other = await createAgent(person.id, { name: "other-bot" });
    const res = await fetch(`${world.appUrl}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${other.token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(404);
  });
});

describe("tools/list", () => {
  it("lists the enabled installs' tools as <slug>__<tool>, with schema, annotations and where they run", async () => {
    const client = await connect();
    expect(client.getServerVersion()?.name).toBe("openvibe-skills");
    const { tools } = await client.listTools();
    const slugify = tools.find((t) => t.name === "text-tools__slugify");
    expect(slugify).toBeDefined();
    expect(slugify!.inputSchema).toMatchObject({ type: "object", required: ["text"], properties: { text: { type: "string", maxLength: 200 } } });
    expect(slugify!.annotations).toMatchObject({ title: "text-tools: slugify", openWorldHint: false });
    expect(slugify!.description).toMatch(/^Turn a title into a lowercase URL-safe slug/);
    expect(slugify!.description).toMatch(/Runs in a sandbox on one of your Links .* never on OpenVibe's servers; no internet; up to 10 s and 128 MiB per run\./);
    expect(tools.some((t) => t.name === "text-tools__word_count")).toBe(true);
    // A name over 64 characters keeps its tool and is shortened the same way every time.
    const long = tools.find((t) => t.name.endsWith(`__${LONG_TOOL}`))!;
    expect(long.name.length).toBeLessThanOrEqual(64);
    expect(long.name.startsWith("mcp-long")).toBe(true);
    expect(long.annotations?.openWorldHint).toBe(true);
    expect(long.description).toContain("the internet");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    // Prompt skills are not tools.
    expect(tools.some((t) => t.name.startsWith("code-review-checklist"))).toBe(false);
    // The tools alone (read without the prompt skills) are exactly the whole catalog's tools.
    const { loadCatalog, loadTools } = await import("../../lib/mcp/catalog");
    const { db } = await import("../../lib/db");
    const row = await db.agent.findUniqueOrThrow({ where: { id: agentId } });
    const agent = { agentId, userId: person.id, projectId: row.projectId, name: row.name };
    const whole = await loadCatalog(agent);
    expect(whole.prompts.length).toBeGreaterThan(0);
    expect((await loadTools(agent)).map((t) => t.mcp)).toEqual(whole.tools.map((t) => t.mcp));
    expect(tools.map((t) => t.name)).toEqual(whole.tools.map((t) => t.name));
  });
});

describe("tools/call", () => {
  it("with URL elicitation: the person approves at the step's page, progress reports queued, placed, running, and the result is untrusted data", async () => {
    let elicited: Elicited | undefined;
    const completed: string[] = [];
    const client = await connect({
      elicitation: true,
      onElicit: (e) => {
        elicited = e;
        // The person opens the page and approves (a moment later, like a person would).
        setTimeout(() => void steps.decideStep(person.id, stepIdOf(e.url), "once"), 300);
      },
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      completed.push(n.params.elicitationId);
    });
    const progress: Progress[] = [];
    const result = (await client.callTool({ name: "text-tools__slugify", arguments: { text: "Héllo MCP World" } }, undefined, {
      onprogress: (p) => progress.push(p),
      resetTimeoutOnProgress: true,
      timeout: 60_000,
    })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ slug: "hello-mcp-world" });
    expect(JSON.parse(textOf(result))).toEqual(result.structuredContent);
    expect(result._meta?.["openvibe/untrusted"]).toBe(true);
    const run = result._meta?.["openvibe/run"] as { id: string; placement: string; step_id: string };
    expect(run.placement).toBe("own");
    expect(run.id).toMatch(/^job_/);
    expect(elicited!.url).toBe(`${world.appUrl}/dashboard/approvals/${run.step_id}`);
    expect(elicited!.message).toMatch(/Approve on OpenVibe: text-tools@2\.0\.1 slugify/);
    expect(completed).toContain(elicited!.elicitationId);
    const messages = progress.map((p) => p.message ?? "");
    const at = (re: RegExp) => messages.findIndex((m) => re.test(m));
    expect(at(/^Waiting for the person's approval/)).toBeGreaterThanOrEqual(0);
    expect(at(/queued/)).toBeGreaterThan(at(/^Waiting/));
    expect(at(/^Placed on your own Link/)).toBeGreaterThan(at(/queued/));
    expect(at(/^Running in the sandbox/)).toBeGreaterThan(at(/^Placed/));
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    const step = await world.env.db.step.findUniqueOrThrow({ where: { id: run.step_id } });
    expect(step).toMatchObject({ agentId, kind: "skill.run", status: "succeeded", target: "text-tools@2.0.1 slugify" });
  });

  it("without URL elicitation: a tool error names what to approve, where and until when; the same call attaches to the same step", async () => {
    const client = await connect();
    const args = { text: "fallback path", top: 3 };
    const before = await world.env.db.step.count();
    const first = (await client.callTool({ name: "text-tools__word_count", arguments: args })) as CallToolResult;
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatch(/needs the person's approval on OpenVibe first: text-tools@2\.0\.1 word_count/);
    expect(textOf(first)).toMatch(new RegExp(`${world.appUrl}/dashboard/approvals/\\S+`));
    expect(textOf(first)).toMatch(/waits there until \d\d:\d\d UTC \(10 minutes\)/);
    const stepId = (first._meta?.["openvibe/run"] as { step_id: string }).step_id;
    expect(textOf(first)).toContain(stepId);
    // Same arguments (in another key order): the same step, not a second approval.
    const again = (await client.callTool({ name: "text-tools__word_count", arguments: { top: 3, text: "fallback path" } })) as CallToolResult;
    expect((again._meta?.["openvibe/run"] as { step_id: string }).step_id).toBe(stepId);
    expect(await world.env.db.step.count()).toBe(before + 1);
    await steps.decideStep(person.id, stepId, "once");
    const done = (await client.callTool({ name: "text-tools__word_count", arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
    expect(done.isError, textOf(done)).toBeFalsy();
    expect(done.structuredContent).toMatchObject({ words: 2 });
    expect((done._meta?.["openvibe/run"] as { step_id: string }).step_id).toBe(stepId);
    expect(await world.env.db.step.count()).toBe(before + 1);
    // Delivered: the next identical call is a new run, asking again.
    const fresh = (await client.callTool({ name: "text-tools__word_count", arguments: args })) as CallToolResult;
    expect((fresh._meta?.["openvibe/run"] as { step_id: string }).step_id).not.toBe(stepId);
    await steps.decideStep(person.id, (fresh._meta?.["openvibe/run"] as { step_id: string }).step_id, "deny");
  });

  it("a denied approval is a tool error in the dashboard's words", async () => {
    const client = await connect({
      elicitation: true,
      onElicit: (e) => setTimeout(() => void steps.decideStep(person.id, stepIdOf(e.url), "deny"), 200),
    });
    const r = (await client.callTool({ name: "text-tools__slugify", arguments: { text: "nope" } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Denied. The person denied this run.");
  });

  it("a client whose person declines to open the page gets the fallback at once; its answer crossed processes to reach the call", async () => {
    for (let i = 0; i < 2; i++) {
      const client = new Client({ name: "declining", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${world.appUrl}/api/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${agentToken}` } },
        }),
      );
      clients.push(client);
      const started = Date.now();
      const from = world.balancer.log.length;
      const r = (await client.callTool({ name: "text-tools__slugify", arguments: { text: `declined ${i}` } })) as CallToolResult;
      // The call and the client's answer to the elicitation reached different processes: the call
      // learned of the decline only through the relay (else it would wait for the step's expiry).
      const posts = world.balancer.log.slice(from).filter((e) => e.method === "POST");
      expect(posts.length).toBe(2);
      expect(posts[0]!.backend).not.toBe(posts[1]!.backend);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/needs the person's approval on OpenVibe first/);
      const stepId = (r._meta?.["openvibe/run"] as { step_id: string }).step_id;
      expect((await world.env.db.step.findUniqueOrThrow({ where: { id: stepId } })).status).toBe("pending_approval");
      await steps.decideStep(person.id, stepId, "deny");
    }
  });

  it("no Link for the person: the error says so and offers Run it on my machine with its link", async () => {
    const lonely = await seedPerson("mcp-lonely@example.test");
    await installs.installSkill({ userId: lonely.person.id, slug: "text-tools", version: "2.0.1" });
    const { createAgent } = await import("../../lib/agents");
    const token = (await createAgent(lonely.person.id, { name: "lonely-bot" })).token;
    const client = await connect({
      token,
      elicitation: true,
      onElicit: (e) => setTimeout(() => void steps.decideStep(lonely.person.id, stepIdOf(e.url), "once"), 100),
    });
    const r = (await client.callTool({ name: "text-tools__slugify", arguments: { text: "anyone" } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^No machine to run it\. No Link can run this now/);
    expect(textOf(r)).toContain(`Run it on my machine: ${world.appUrl}/dashboard/links`);
  });

  it("invalid arguments are a tool error with the paths, and nothing is recorded", async () => {
    const client = await connect();
    const before = await world.env.db.step.count();
    const r = (await client.callTool({ name: "text-tools__slugify", arguments: { text: 42, extra: true } })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/does not match slugify's arguments/);
    expect(textOf(r)).toMatch(/- \/text: must be string/);
    expect(await world.env.db.step.count()).toBe(before);
    await expect(client.callTool({ name: "no-such__tool", arguments: {} })).rejects.toThrow(/No tool is named/);
  });
});

describe("lists change", () => {
  it("sends tools/list_changed when the person disables and enables a skill", async () => {
    const changed: number[] = [];
    const client = await connect();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed.push(Date.now()));
    // The client opens its GET stream after initialize; give it a moment to be listening.
    await new Promise((r) => setTimeout(r, 500));
    const install = await world.env.db.install.findFirstOrThrow({ where: { userId: person.id, skill: { slug: "text-tools" } } });
    await installs.setInstallEnabled({ userId: person.id, installId: install.id, enabled: false });
    await until(() => changed.length >= 1);
    expect((await client.listTools()).tools.some((t) => t.name.startsWith("text-tools__"))).toBe(false);
    await installs.setInstallEnabled({ userId: person.id, installId: install.id, enabled: true });
    await until(() => changed.length >= 2);
    expect((await client.listTools()).tools.some((t) => t.name === "text-tools__slugify")).toBe(true);
  });

  it("sends prompts/list_changed only when a prompt skill changes", async () => {
    const prompts: number[] = [];
    const tools: number[] = [];
    const client = await connect();
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void prompts.push(1));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void tools.push(1));
    await new Promise((r) => setTimeout(r, 500));
    const install = await world.env.db.install.findFirstOrThrow({ where: { userId: person.id, skill: { slug: "code-review-checklist" } } });
    await installs.setInstallEnabled({ userId: person.id, installId: install.id, enabled: false });
    await until(() => prompts.length >= 1);
    expect(tools).toEqual([]);
    await installs.setInstallEnabled({ userId: person.id, installId: install.id, enabled: true });
    await until(() => prompts.length >= 2);
  });
});

describe("prompt skills", () => {
  it("are prompts (instructions) and resources (instructions and Markdown resources)", async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts).toContainEqual(expect.objectContaining({ name: "code-review-checklist", title: "Code review checklist" }));
    const got = await client.getPrompt({ name: "code-review-checklist" });
    expect(got.messages[0]).toMatchObject({ role: "user", content: { type: "text", text: expect.stringMatching(/^# Code review checklist/) } });
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain("openvibe://skills/code-review-checklist/2.1.0/instructions");
    expect(uris).toContain("openvibe://skills/code-review-checklist/2.1.0/files/checklists/review.md");
    const read = await client.readResource({ uri: "openvibe://skills/code-review-checklist/2.1.0/files/checklists/review.md" });
    expect(read.contents[0]).toMatchObject({ mimeType: "text/markdown", text: expect.any(String) });
    await expect(client.readResource({ uri: "openvibe://skills/nope/1.0.0/instructions" })).rejects.toThrow(/No resource/);
  });
});

describe("two web processes", () => {
  it("served every part of the sessions above, with no affinity", () => {
    const [a, b] = world.balancer.hits;
    expect(a).toBeGreaterThan(10);
    expect(b).toBeGreaterThan(10);
  });

  it("a session ended with DELETE is gone on every process", async () => {
    const client = await connect();
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${world.appUrl}/api/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${agentToken}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(res.status).toBe(404);
    }
  });
});

describe("openvibe mcp (stdio bridge)", () => {
  const bridge = (token?: string) =>
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, "bin/openvibe.mjs"), "mcp", "--server", world.appUrl],
      env: { PATH: process.env.PATH ?? "", ...(token ? { OPENVIBE_AGENT_TOKEN: token } : {}) },
      stderr: "pipe",
    });

  it("lists and calls tools, with URL elicitation and progress, through the bridge", async () => {
    const client = new Client({ name: "stdio-test", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const url = (request.params as { url: string }).url;
      setTimeout(() => void steps.decideStep(person.id, stepIdOf(url), "once"), 200);
      return { action: "accept" };
    });
    await client.connect(bridge(agentToken));
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("text-tools__slugify");
    const progress: string[] = [];
    const r = (await client.callTool({ name: "text-tools__slugify", arguments: { text: "Through the Bridge" } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ""),
      resetTimeoutOnProgress: true,
    })) as CallToolResult;
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ slug: "through-the-bridge" });
    expect(r._meta?.["openvibe/untrusted"]).toBe(true);
    expect(progress.some((m) => /^Running in the sandbox/.test(m))).toBe(true);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain("code-review-checklist");
  });

  it("without a token it exits with the fix, and a refused token fails the connect", async () => {
    const noToken = bridge();
    let stderr = "";
    noToken.stderr?.on("data", (d) => (stderr += d));
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await expect(client.connect(noToken)).rejects.toThrow();
    await until(() => stderr.includes("OPENVIBE_AGENT_TOKEN"), 10_000);
    const refused = new Client({ name: "stdio-test", version: "1.0.0" });
    await expect(refused.connect(bridge("ova_" + "y".repeat(43)))).rejects.toThrow(/refused the agent token/);
  });
});
