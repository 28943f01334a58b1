// People and their things for browser tests: a fresh account, the demo catalogue, an operator,
// a Link that signs its requests as a real one does.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { expect, type APIRequestContext, type Page } from "playwright/test";
import { signRequest, type LinkKeyPair } from "../../lib/protocol/signing";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
export const url = (path: string) => `${BASE}${path}`;
export const uid = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

function runScript(args: string[]) {
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", ...args], {
    cwd: process.cwd(),
    env: process.env,
    stdio: "pipe",
  });
}

/** The demo catalogue (idempotent): the test database starts empty. */
export const seedCatalogue = () => runScript(["scripts/seed.ts"]);

export const makeOperator = (email: string) => runScript(["scripts/admin.ts", "operator", "add", email]);

/** Signs up a new person in `page` and returns their email. */
export async function signUp(page: Page, prefix: string): Promise<string> {
  const id = uid();
  const email = `e2e-${prefix}-${id}@example.test`;
  await page.goto(url("/signup"));
  await page.getByLabel("Name").fill(`E2E ${prefix} ${id}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

export function signedPost(request: APIRequestContext, path: string, key: LinkKeyPair, linkId: string, body: unknown) {
  const text = JSON.stringify(body);
  const headers = signRequest({ linkId, privateKeyPem: key.privateKeyPem, method: "POST", path, body: text });
  return request.post(url(path), { data: text, headers: { ...headers, "content-type": "application/json" } });
}

export async function latestVersion(request: APIRequestContext, slug: string): Promise<string> {
  const res = await request.get(url(`/api/v1/skills/${slug}`));
  expect(res.status(), `${slug} is in the demo catalogue`).toBe(200);
  return ((await res.json()) as { latest: string }).latest;
}

/** A new agent of the signed-in person; `call` makes a tool call as that agent, pending approval. */
export async function newAgent(request: APIRequestContext, name: string) {
  const res = await request.post(url("/api/v1/agents"), { data: { name } });
  expect(res.status()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  const call = async (skill: string, tool: string, input: unknown) => {
    const step = await request.post(url("/api/v1/steps"), {
      headers: { authorization: `Bearer ${token}` },
      data: { skill, tool, input },
    });
    expect(step.status(), await step.text()).toBe(201);
    return (await step.json()) as { id: string; status: string };
  };
  return { token, call };
}
