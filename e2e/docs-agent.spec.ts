// /docs/agent followed literally (issue 18 §5): with the example skill published (the publish
// guide), installed and a Link paired and running (the pair guide), an agent made on the Agents
// page calls the tool with the guide's curl command, then through `openvibe mcp` as a stdio server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test } from "playwright/test";
import { EXAMPLE_INPUT, EXAMPLE_OUTPUT, EXAMPLE_SLUG } from "../lib/docs/guides";
import { removeTempDirs } from "../test/helpers/temp-dir";
import { createAgent, installInBrowser, topUpInBrowser } from "./helpers/dashboard";
import { fill, GUIDE_SERVER, quoted, readGuide } from "./helpers/guide-page";
import { followPairGuide } from "./helpers/pair-guide";
import { signUp, url } from "./helpers/people";
import { expectSkillPage, followPublishGuide } from "./helpers/publish-guide";
import { shell, type Shell } from "./helpers/shell";

let sh: Shell;
let client: Client | undefined;

test.beforeAll(() => {
  sh = shell("e2e-docs-agent");
});

test.afterAll(async () => {
  await client?.close().catch(() => undefined);
  await sh.stop();
  removeTempDirs();
});

type StepState = { id: string; status: string; result?: { data?: unknown }; message?: string };

test("Connect an agent: the REST call and the MCP bridge both get the tool's output", async ({ page }) => {
  test.setTimeout(300_000);
  await signUp(page, "docs-agent");
  const published = await followPublishGuide(page, sh);
  for (const r of published.results) expect(r.code, `${r.step}: ${r.stdout}${r.stderr}`).toBe(0);
  const { slug } = published;
  await expectSkillPage(page, slug, "Title case");
  await installInBrowser(page, slug, "1.0.0");
  await topUpInBrowser(page, "1");
  const paired = await followPairGuide(page, sh);
  for (const r of paired.results) expect(r.code, `${r.step}: ${r.stdout}${r.stderr}`).toBe(0);

  const [create, rest, mcp] = await readGuide(page, "agent");
  const name = /"name":"([^"]+)"/.exec(create!.command)![1]!;
  const token = await createAgent(page, name);
  const base = url("").replace(/\/$/, "");

  // The guide's example names its own slug; this run published the example under a unique one
  // (see followPublishGuide), so that slug is put in its place, like the other placeholders.
  const call = await sh.run(
    fill(rest!.command, { [GUIDE_SERVER]: base, AGENT_TOKEN: token, [`"${EXAMPLE_SLUG}@`]: `"${slug}@` }),
  );
  expect(call.code, call.stderr).toBe(0);
  const step = JSON.parse(call.stdout) as StepState;
  expect(step.status, call.stdout).toBe("pending_approval");

  // The first call waits for the person: the Approvals page, “Always allow”.
  await page.goto(url("/dashboard/approvals"));
  await page
    .locator(`li[data-step-id="${step.id}"]`)
    .getByRole("button", { name: quoted(rest!.text) })
    .click();
  let state: StepState = step;
  // Polled as the guide says, until the step has ended.
  for (let i = 0; i < 8 && ["pending_approval", "queued", "running"].includes(state.status); i++) {
    const res = await fetch(`${base}/api/v1/steps/${step.id}?wait=30`, {
      headers: { authorization: `Bearer ${token}` },
    });
    state = (await res.json()) as StepState;
  }
  expect(state.status, state.message).toBe("succeeded");
  expect(state.result?.data).toEqual(JSON.parse(EXAMPLE_OUTPUT));

  // MCP: the SDK's client launches the guide's bridge command as its stdio server.
  client = new Client({ name: "docs-agent", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: "bash",
      args: ["-c", fill(mcp!.command, { [GUIDE_SERVER]: base, AGENT_TOKEN: token })],
      cwd: sh.cwd,
      env: sh.env as Record<string, string>,
      stderr: "pipe",
    }),
  );
  const { tools } = await client.listTools();
  const tool = `${slug}__main`;
  expect(tools.map((t) => t.name)).toContain(tool);
  const result = (await client.callTool({ name: tool, arguments: JSON.parse(EXAMPLE_INPUT) }, undefined, {
    timeout: 120_000,
  })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.structuredContent).toEqual(JSON.parse(EXAMPLE_OUTPUT));
});
