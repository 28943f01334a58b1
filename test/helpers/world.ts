// The people and skills of the multi-instance and fault runs, made through lib/ in this process
// (whose DATABASE_URL points at the stack's database), and the agent's and publisher's HTTP calls
// against any of the stack's web processes.
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "./stack";

const TEXT_TOOLS = path.join(ROOT, "skills/demo/text-tools");

export type World = {
  userId: string;
  agentToken: string;
  apiToken: string;
  /** The balance right after the top-up, before any run. */
  startBalance: bigint;
};

/** A person with a balance, text-tools installed (scanned in-process) and an agent. */
export async function seedWorld(email: string): Promise<World> {
  const { createUser, createApiToken } = await import("../../lib/auth");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp, balanceOf } = await import("../../lib/billing/ledger");
  const { createAgent } = await import("../../lib/agents");
  const person = await createUser({ email, name: "Stack Person", password: null });
  const bundle = await loadBundle(TEXT_TOOLS);
  if (!bundle.ok) throw new Error("bundle");
  const published = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
  await scanVersion(published.versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: bundle.document.version });
  await recordTopUp({ userId: person.id, amountMicros: 50_000_000n, paymentId: `stack-${email}`, memo: "test" });
  return {
    userId: person.id,
    agentToken: (await createAgent(person.id, { name: "stack-bot" })).token,
    apiToken: (await createApiToken(person.id, "stack")).secret,
    startBalance: await balanceOf(person.id),
  };
}

export type CallAnswer = { status: number; body: { id?: string; status?: string; error?: { code: string } }; retryAfter: string | null };

/** `POST /api/v1/steps` as the agent, with an Idempotency-Key. */
export async function callTool(
  webUrl: string,
  world: World,
  input: { text: string },
  key = `call-${randomBytes(8).toString("hex")}`,
  tool = "word_count",
): Promise<CallAnswer> {
  const res = await fetch(`${webUrl}/api/v1/steps`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${world.agentToken}`,
      "content-type": "application/json",
      "idempotency-key": key,
    },
    body: JSON.stringify({ skill: "text-tools@2.0.1", tool, input }),
  });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}

const FINAL = new Set(["succeeded", "failed", "denied", "expired", "no_node", "insufficient_balance", "cancelled"]);

/**
 * Long-polls the step (`?wait=`) until it is final or `ms` passed, on the web processes given in
 * turn; a poll that fails (a web process restarting) is tried again on the next.
 */
export async function waitStep(webUrls: string[], world: World, stepId: string, ms = 120_000) {
  const deadline = Date.now() + ms;
  let last: { status?: string } = {};
  for (let i = 0; Date.now() < deadline; i++) {
    const url = webUrls[i % webUrls.length]!;
    try {
      const res = await fetch(`${url}/api/v1/steps/${stepId}?wait=10`, {
        headers: { authorization: `Bearer ${world.agentToken}` },
        signal: AbortSignal.timeout(20_000),
      });
      if (res.ok) {
        last = await res.json();
        if (last.status && FINAL.has(last.status)) return last;
        continue;
      }
    } catch {
      // A web process that is down or restarting: the next poll goes elsewhere, or later.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`step ${stepId} did not end within ${ms} ms (last seen ${JSON.stringify(last)})`);
}

/** The first call of word_count, approved "always", so the calls after it run without a click. */
export async function grantWordCount(webUrl: string, world: World): Promise<string> {
  const first = await callTool(webUrl, world, { text: "grant me" });
  if (first.status !== 201 || !first.body.id) throw new Error(`first call: ${first.status} ${JSON.stringify(first.body)}`);
  const { decideStep } = await import("../../lib/steps");
  await decideStep(world.userId, first.body.id, "always");
  return first.body.id;
}

async function folderFiles(dir: string, rel = ""): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of await folderFiles(dir, p)) out.set(k, v);
    else if (e.name !== "demo.json") out.set(p, await readFile(path.join(dir, p)));
  }
  return out;
}

/** `POST /api/v1/skills`: text-tools as `slug@version`, uploaded as a multipart bundle. */
export async function publishVersion(webUrl: string, world: World, slug: string, version: string, key?: string) {
  const files = await folderFiles(TEXT_TOOLS);
  const manifest = JSON.parse(files.get("skill.json")!.toString());
  files.set("skill.json", Buffer.from(JSON.stringify({ ...manifest, slug, version })));
  const form = new FormData();
  for (const [name, bytes] of files) form.append("file", new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${webUrl}/api/v1/skills`, {
    method: "POST",
    headers: { authorization: `Bearer ${world.apiToken}`, ...(key ? { "idempotency-key": key } : {}) },
    body: form,
  });
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
}
