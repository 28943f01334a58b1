// The skill.run journey (issue 7) with a real `openvibe-link run` process: an agent calls a tool,
// the person approves in the browser, the Link runs it in its sandbox, the agent receives the
// result as untrusted data; "always allow" makes the next call need no click; a new version asks
// again; with no Link the step says so and offers "Run it on my machine".
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page } from "playwright/test";
import { sandboxSkill } from "../test/helpers/install-fixtures";
import { removeTempDirs, tempDir } from "../test/helpers/temp-dir";

const BASE = process.env.BASE_URL?.replace(/\/$/, "") ?? "";
const url = (p: string) => `${BASE}${p}`;
const LINK_BIN = path.resolve("link/bin/openvibe-link.mjs");
const uid = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

let linkHome: string;
let link: ChildProcess | undefined;
const linkEnv = () =>
  ({
    PATH: process.env.PATH ?? "",
    TMPDIR: process.env.TMPDIR,
    OPENVIBE_LINK_HOME: linkHome,
  }) as unknown as NodeJS.ProcessEnv;

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
  await page.getByLabel("Name").fill(`Runner ${id}`);
  await page.getByLabel("Email").fill(`e2e-run-${id}@example.test`);
  await page.getByLabel("Password").fill("correct horse battery staple");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function publishAndInstall(page: Page, token: string, doc: ReturnType<typeof sandboxSkill>) {
  const res = await page.request.post(url("/api/v1/skills"), {
    headers: { authorization: `Bearer ${token}` },
    data: doc,
  });
  expect(res.status(), await res.text()).toBe(201);
  await expect
    .poll(
      async () =>
        (
          (await (await page.request.get(url(`/api/v1/skills/${doc.slug}/${doc.version}/listing`))).json()) as {
            status: string;
          }
        ).status,
      {
        timeout: 60_000,
      },
    )
    .toBe("passed");
  const install = await page.request.post(url("/api/v1/installs"), { data: { slug: doc.slug, version: doc.version } });
  expect([200, 201], await install.text()).toContain(install.status());
}

/** The pending step's card on the approvals page (the recent list repeats the step without buttons). */
const pendingCard = (page: Page, id: string) =>
  page.locator(`li[data-step-id="${id}"]`).filter({ has: page.getByRole("button", { name: "Approve once" }) });

function verifyRun(file: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve("bin/openvibe.mjs"), "verify-run", file, "--server", BASE], {
      env: { PATH: process.env.PATH ?? "" } as unknown as NodeJS.ProcessEnv,
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** The run page shows the Link's signed result; its export passes `openvibe verify-run`, one changed byte does not. */
async function checkExportedAttestation(page: Page, stepId: string) {
  const { steps } = (await (await page.request.get(url("/api/v1/steps?limit=50"))).json()) as {
    steps: { id: string; job: { id: string } | null }[];
  };
  const jobId = steps.find((s) => s.id === stepId)?.job?.id;
  expect(jobId).toBeTruthy();
  await page.goto(url(`/dashboard/runs/${jobId}`));
  await expect(page.getByRole("region", { name: "Signed result" })).toContainText("Signed by");
  await expect(page.getByRole("region", { name: "Network" })).toContainText("no network connections");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-attestation").click()]);
  const file = path.join(tempDir("e2e-attest"), "RUN.json");
  await download.saveAs(file);
  const passed = await verifyRun(file);
  expect(passed.code, passed.out).toBe(0);
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace("hello from the agent", "hello from the agenT"));
  const refused = await verifyRun(file);
  expect(refused.code, refused.out).toBe(1);
  expect(refused.out).toMatch(/✗ output/);
  await page.goto(url("/dashboard/approvals"));
}

test.beforeAll(() => {
  linkHome = tempDir("e2e-link");
});

test.afterAll(async () => {
  // Stopped the way a person stops it, so its sandbox removes its own folders before its home goes.
  if (link && link.exitCode === null && link.signalCode === null) {
    const exited = new Promise((resolve) => link!.once("exit", resolve));
    link.kill("SIGTERM");
    await exited;
  }
  removeTempDirs();
});

test("agent calls, person approves, a real Link runs it; always allow; a new version asks again", async ({ page }) => {
  test.setTimeout(240_000);
  await signUp(page);
  const slug = `e2e-run-${uid()}`;
  const { secret } = (await (await page.request.post(url("/api/v1/tokens"), { data: { name: "e2e run" } })).json()) as {
    secret: string;
  };
  await publishAndInstall(page, secret, sandboxSkill({ slug, version: "1.0.0", tools: [{ name: "echo" }] }));
  const top = await page.request.post(url("/api/v1/balance/top-ups"), {
    data: { amount_micros: "5000000", idempotency_key: uid() },
  });
  expect(top.status(), await top.text()).toBe(201);
  const agentRes = await page.request.post(url("/api/v1/agents"), { data: { name: "E2E run agent" } });
  const { token } = (await agentRes.json()) as { token: string };
  const call = async (version: string, input: unknown) => {
    const res = await page.request.post(url("/api/v1/steps"), {
      headers: { authorization: `Bearer ${token}` },
      data: { skill: `${slug}@${version}`, tool: "echo", input },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: string; status: string; label: string; target: string };
  };
  const wait = async (id: string) =>
    (await (
      await page.request.get(url(`/api/v1/steps/${id}?wait=25`), { headers: { authorization: `Bearer ${token}` } })
    ).json()) as {
      status: string;
      result?: unknown;
      message?: string;
      run_on_my_machine?: string;
    };

  // No Link yet: approving says so and offers "Run it on my machine", never a fallback.
  const lonely = await call("1.0.0", { text: "anyone there?" });
  expect(lonely).toMatchObject({
    status: "pending_approval",
    label: "running a skill's code in a sandbox",
    target: `${slug}@1.0.0 echo`,
  });
  await page.goto(url("/dashboard/approvals"));
  await pendingCard(page, lonely.id).getByRole("button", { name: "Approve once" }).click();
  const noNode = await wait(lonely.id);
  expect(noNode.status).toBe("no_node");
  expect(noNode.run_on_my_machine).toBe("/dashboard/links");
  await expect(page.getByRole("link", { name: "Run it on my machine" }).first()).toBeVisible();

  // Pair a real Link with the dashboard's one-time code, turn its runner on and run it.
  const pairing = (await (await page.request.post(url("/api/v1/links/pairing-codes"))).json()) as { code: string };
  const paired = await linkCli(["pair", pairing.code, "--server", BASE, "--name", "e2e machine"]);
  expect(paired.code, paired.out).toBe(0);
  expect((await linkCli(["skills", "on"])).code).toBe(0);
  link = spawn(process.execPath, [LINK_BIN, "run"], { env: linkEnv(), stdio: "ignore" });
  await page.goto(url("/dashboard/links"));
  await expect(page.getByText("e2e machine")).toBeVisible();

  // Approve once in the browser; the agent receives the result as untrusted data.
  const first = await call("1.0.0", { text: "hello from the agent" });
  await page.goto(url("/dashboard/approvals"));
  const card = pendingCard(page, first.id);
  await expect(card).toContainText("no internet");
  await card.getByRole("button", { name: "Approve once" }).click();
  const done = await wait(first.id);
  expect(done.status, done.message).toBe("succeeded");
  expect(done.result).toEqual({
    type: "tool_result",
    untrusted: true,
    data: { echo: { text: "hello from the agent" } },
  });
  await checkExportedAttestation(page, first.id);

  // Always allow: the next call of exactly that tool needs no click.
  const second = await call("1.0.0", { text: "second" });
  await page.reload();
  await pendingCard(page, second.id).getByRole("button", { name: "Always allow" }).click();
  expect((await wait(second.id)).status).toBe("succeeded");
  const third = await call("1.0.0", { text: "third" });
  expect(third.status).not.toBe("pending_approval");
  expect((await wait(third.id)).status).toBe("succeeded");

  // Each run's charge is in the ledger and the usage chart.
  await page.goto(url("/dashboard/balance"));
  await expect(page.getByText(`Run of ${slug}: held at its limits`).first()).toBeVisible();
  await expect(page.getByText(/Run settled/).first()).toBeVisible();
  await expect(page.locator("svg").filter({ hasText: slug }).first()).toBeAttached();

  // A new version asks again.
  await publishAndInstall(page, secret, sandboxSkill({ slug, version: "1.0.1", tools: [{ name: "echo" }] }));
  const upgraded = await call("1.0.1", { text: "new version" });
  expect(upgraded.status).toBe("pending_approval");
});
