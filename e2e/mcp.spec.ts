// MCP end to end (issue 16) against `next start` with a real Link: the person installs a skill in
// the browser, an MCP client (the official SDK) lists and calls its tool, the person approves in
// the browser from the elicitation's URL, and the client gets the result marked untrusted. Then a
// client with no pasted token signs in with OAuth and the person picks the agent on the consent page.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { expect, test, type Page } from "playwright/test";
import { sandboxSkill } from "../test/helpers/install-fixtures";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (p: string) => `${BASE}${p}`;
const LINK_BIN = path.resolve("link/bin/openvibe-link.mjs");
const uid = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

let linkHome: string;
let link: ChildProcess | undefined;
const clients: Client[] = [];
const linkEnv = () => ({ PATH: process.env.PATH ?? "", OPENVIBE_LINK_HOME: linkHome }) as unknown as NodeJS.ProcessEnv;

function linkCli(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LINK_BIN, ...args], { env: linkEnv() });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function signUp(page: Page) {
  const id = uid();
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`MCP person ${id}`);
  await page.getByLabel("Email").fill(`e2e-mcp-${id}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Publishes a sandbox skill with the API, then the person installs it in the browser. */
async function publishAndInstallInBrowser(page: Page, slug: string) {
  const { secret } = (await (await page.request.post(url("/api/v1/tokens"), { data: { name: "e2e mcp" } })).json()) as { secret: string };
  const doc = sandboxSkill({ slug, version: "1.0.0", tools: [{ name: "echo" }] });
  const res = await page.request.post(url("/api/v1/skills"), { headers: { authorization: `Bearer ${secret}` }, data: doc });
  expect(res.status(), await res.text()).toBe(201);
  await expect
    .poll(async () => ((await (await page.request.get(url(`/api/v1/skills/${slug}/1.0.0/listing`))).json()) as { status: string }).status, {
      timeout: 60_000,
    })
    .toBe("passed");
  await page.goto(url(`/skills/${slug}/1.0.0/install`));
  await page.getByRole("button", { name: `Install ${slug} 1.0.0` }).click();
  await expect(page.getByRole("status").filter({ hasText: `Installed ${slug} 1.0.0.` })).toBeVisible();
}

test.beforeAll(() => {
  linkHome = mkdtempSync(path.join(tmpdir(), "ov-e2e-mcp-link-"));
});

test.afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  link?.kill("SIGTERM");
  rmSync(linkHome, { recursive: true, force: true });
});

test("an MCP client lists and calls an installed skill's tool; the person approves from the elicitation URL", async ({ page }) => {
  test.setTimeout(240_000);
  await signUp(page);
  const slug = `e2e-mcp-${uid()}`;
  await publishAndInstallInBrowser(page, slug);
  const top = await page.request.post(url("/api/v1/balance/top-ups"), { data: { amount_micros: "5000000", idempotency_key: uid() } });
  expect(top.status(), await top.text()).toBe(201);
  const { token } = (await (await page.request.post(url("/api/v1/agents"), { data: { name: "E2E MCP agent" } })).json()) as { token: string };

  const pairing = (await (await page.request.post(url("/api/v1/links/pairing-codes"))).json()) as { code: string };
  expect((await linkCli(["pair", pairing.code, "--server", BASE, "--name", "e2e mcp machine"])).code).toBe(0);
  expect((await linkCli(["skills", "on"])).code).toBe(0);
  link = spawn(process.execPath, [LINK_BIN, "run"], { env: linkEnv(), stdio: "ignore" });

  // The agents page shows how to connect a client as this agent.
  await page.goto(url("/dashboard/agents"));
  await page.getByText("Connect an MCP client as E2E MCP agent").click();
  await expect(page.getByLabel("MCP server URL", { exact: true }).first()).toHaveValue(`${BASE}/api/mcp`);
  await expect(page.getByLabel("Cursor (~/.cursor/mcp.json)", { exact: true }).first()).toHaveValue(/"Authorization": "Bearer ova_PASTE_THIS_AGENTS_TOKEN"/);

  let elicited: (u: string) => void = () => undefined;
  const elicitation = new Promise<string>((resolve) => (elicited = resolve));
  const client = new Client({ name: "e2e-mcp-client", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited((request.params as { url: string }).url);
    return { action: "accept" };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url("/api/mcp")), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(client);
  const { tools } = await client.listTools();
  const echo = tools.find((t) => t.name === `${slug}__echo`);
  expect(echo?.description).toMatch(/never on OpenVibe's servers; no internet/);

  const progress: string[] = [];
  const call = client.callTool({ name: `${slug}__echo`, arguments: { text: "hello over MCP" } }, undefined, {
    onprogress: (p) => progress.push(p.message ?? ""),
    resetTimeoutOnProgress: true,
    timeout: 120_000,
  });
  const approvalUrl = await elicitation;
  expect(approvalUrl).toMatch(new RegExp(`^${BASE}/dashboard/approvals/`));
  await page.goto(approvalUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Approve a run");
  await expect(page.getByText(`${slug}@1.0.0 echo`)).toBeVisible();
  await expect(page.getByText("no internet")).toBeVisible();
  await page.getByRole("button", { name: "Approve once" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Approved/ })).toBeVisible();

  const result = (await call) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(result.structuredContent).toEqual({ echo: { text: "hello over MCP" } });
  expect(result._meta?.["openvibe/untrusted"]).toBe(true);
  expect(result._meta?.["openvibe/run"]).toMatchObject({ placement: "own", id: expect.stringMatching(/^job_/) });
  expect(progress.some((m) => m.startsWith("Running in the sandbox"))).toBe(true);

  // The approval page works at 375 px.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

class BrowserProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata() {
    return {
      client_name: "E2E OAuth client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(u: URL) {
    this.authorizationUrl = u;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

test("a client with no pasted token signs in with OAuth and acts as the agent the person chose", async ({ page }) => {
  test.setTimeout(120_000);
  let gotCode: (code: string) => void = () => undefined;
  const code = new Promise<string>((resolve) => (gotCode = resolve));
  const callback: Server = createServer((req, res) => {
    const q = new URL(req.url ?? "/", "http://127.0.0.1").searchParams;
    if (q.get("code")) gotCode(q.get("code")!);
    res.writeHead(200, { "content-type": "text/plain" }).end("Signed in. You can close this tab.");
  });
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  try {
    const provider = new BrowserProvider(`http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`);
    const first = new StreamableHTTPClientTransport(new URL(url("/api/mcp")), { authProvider: provider });
    await expect(new Client({ name: "oauth-e2e", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

    await signUp(page);
    const slug = `e2e-oauth-${uid()}`;
    await publishAndInstallInBrowser(page, slug);
    await page.goto(provider.authorizationUrl!.toString());
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Let an app act as one of your agents?");
    await expect(page.getByText("“E2E OAuth client”")).toBeVisible();
    await page.getByLabel("A new agent named").check();
    await page.getByLabel("Name of the new agent").fill("E2E OAuth agent");
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByText("Signed in. You can close this tab.")).toBeVisible();

    await first.finishAuth(await code);
    const client = new Client({ name: "oauth-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url("/api/mcp")), { authProvider: provider }));
    clients.push(client);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain(`${slug}__echo`);

    await page.goto(url("/dashboard/agents"));
    const row = page.locator("li").filter({ hasText: "E2E OAuth agent" });
    await expect(row.getByText(/Connected apps \(OAuth\): E2E OAuth client since/)).toBeVisible();
  } finally {
    callback.close();
    callback.closeAllConnections();
  }
});

test("the consent page asks for sign-in first, works by keyboard and fits 375 px", async ({ page }) => {
  const reg = await page.request.post(url("/oauth/register"), {
    data: { client_name: "Keyboard client", redirect_uris: ["http://127.0.0.1:9/cb"], token_endpoint_auth_method: "none" },
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const q = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: "http://127.0.0.1:9/cb",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "s1",
  });
  await page.goto(url(`/oauth/authorize?${q}`));
  await expect(page).toHaveURL(/\/signin\?next=%2Foauth%2Fauthorize%3F/);
  await signUp(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(url(`/oauth/authorize?${q}`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Let an app act as one of your agents?");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const deny = page.getByRole("button", { name: "Deny" });
  for (let i = 0; i < 12 && !(await deny.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
  await expect(deny).toBeFocused();
  // The app's redirect URI answers here, as the app would.
  await page.route("http://127.0.0.1:9/**", (route) => route.fulfill({ contentType: "text/plain", body: "Back at the app." }));
  await page.keyboard.press("Enter");
  await expect(page.getByText("Back at the app.")).toBeVisible();
  const back = new URL(page.url());
  expect(back.searchParams.get("error")).toBe("access_denied");
  expect(back.searchParams.get("state")).toBe("s1");

  // A link naming an unknown client explains itself instead of redirecting anywhere.
  await page.goto(url("/oauth/authorize?client_id=ovc_nope&response_type=code"));
  await expect(page.getByText(/is not registered with OpenVibe Skills/)).toBeVisible();
});
