// The people and skills of the multi-instance and fault runs, made through lib/ in this process
// (whose DATABASE_URL points at the stack's database), and the agent's and publisher's HTTP calls
// against any of the stack's web processes.
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { ROOT } from "./stack";

const TEXT_TOOLS = path.join(ROOT, "scripts/demo/skills/text-tools");

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

export type CallAnswer = {
  status: number;
  body: { id?: string; status?: string; error?: { code: string } };
  retryAfter: string | null;
};

export const TEXT_TOOLS_SKILL = "text-tools@2.0.1";
/** word_count of this skill first busy-waits N ms when its text is `wait N …` (at most 15 s). */
export const SLOW_SKILL = "slow-tools@1.0.0";

/** `POST /api/v1/steps` as the agent (word_count), with an Idempotency-Key. */
export async function callTool(
  webUrl: string,
  world: World,
  input: { text: string },
  opts: { key?: string; skill?: string } = {},
): Promise<CallAnswer> {
  const res = await fetch(`${webUrl}/api/v1/steps`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${world.agentToken}`,
      "content-type": "application/json",
      "idempotency-key": opts.key ?? `call-${randomBytes(8).toString("hex")}`,
    },
    body: JSON.stringify({ skill: opts.skill ?? TEXT_TOOLS_SKILL, tool: "word_count", input }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: CallAnswer["body"] = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: { code: `not JSON: ${text.slice(0, 80)}` } };
  }
  return { status: res.status, body, retryAfter: res.headers.get("retry-after") };
}

/**
 * Publishes and installs slow-tools: text-tools whose word_count can take seconds, so a fault can
 * land while a job runs. Its "always allow" is given by grantWordCount like text-tools'. `variant`
 * publishes the same under another slug with word_count's limits set (a tool killed at its wall
 * clock, one that declares more memory).
 */
export async function seedSlowSkill(
  world: World,
  variant: { slug: string; limits: { wall_ms?: number; mem_bytes?: number } } = {
    slug: "slow-tools",
    limits: { wall_ms: 20_000 },
  },
): Promise<void> {
  const { tempDir, removeTempDir } = await import("./temp-dir");
  const { cp, writeFile } = await import("node:fs/promises");
  const dir = tempDir("slow-tools");
  try {
    await cp(TEXT_TOOLS, dir, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(dir, "skill.json"), "utf8"));
    manifest.slug = variant.slug;
    manifest.version = "1.0.0";
    manifest.name = variant.slug === "slow-tools" ? "Slow tools" : `Slow tools (${variant.slug})`;
    for (const tool of manifest.tools) if (tool.name === "word_count") tool.limits = variant.limits;
    await writeFile(path.join(dir, "skill.json"), JSON.stringify(manifest, null, 2));
    const entry = path.join(dir, "tools/word-count.js");
    const code = await readFile(entry, "utf8");
    await writeFile(
      entry,
      code.replace(
        "function run(input) {",
        `function run(input) {
  const slow = /^wait (\\d{1,5})/.exec(String(input.text));
  if (slow) {
    const until = Date.now() + Math.min(Number(slow[1]), 15000);
    while (Date.now() < until);
  }`,
      ),
    );
    const { loadBundle } = await import("../../lib/contracts");
    const { publishSkill, scanVersion } = await import("../../lib/registry");
    const { installSkill } = await import("../../lib/installs");
    const bundle = await loadBundle(dir);
    if (!bundle.ok) throw new Error(`slow-tools: ${JSON.stringify(bundle.errors)}`);
    const published = await publishSkill({ ownerId: world.userId, document: bundle.document, scan: "none" });
    const scanned = await scanVersion(published.versionId);
    if (scanned.status !== "passed") throw new Error(`${variant.slug} scanned ${scanned.status}`);
    await installSkill({ userId: world.userId, slug: variant.slug, version: "1.0.0" });
  } finally {
    removeTempDir(dir);
  }
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
export async function grantWordCount(webUrl: string, world: World, skill = TEXT_TOOLS_SKILL): Promise<string> {
  const first = await callTool(webUrl, world, { text: "grant me" }, { skill });
  if (first.status !== 201 || !first.body.id)
    throw new Error(`first call: ${first.status} ${JSON.stringify(first.body)}`);
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

/**
 * `POST /api/v1/skills`: text-tools as `slug@version`, uploaded as a multipart bundle; `prefix`
 * goes before the code of slugify.js (new bytes for the Media store).
 */
export async function publishVersion(
  webUrl: string,
  world: World,
  slug: string,
  version: string,
  opts: { key?: string; prefix?: string } = {},
) {
  const { key, prefix } = opts;
  const files = await folderFiles(TEXT_TOOLS);
  const manifest = JSON.parse(files.get("skill.json")!.toString());
  files.set("skill.json", Buffer.from(JSON.stringify({ ...manifest, slug, version })));
  if (prefix) files.set("tools/slugify.js", Buffer.concat([Buffer.from(prefix), files.get("tools/slugify.js")!]));
  const form = new FormData();
  for (const [name, bytes] of files) form.append("file", new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${webUrl}/api/v1/skills`, {
    method: "POST",
    headers: { authorization: `Bearer ${world.apiToken}`, ...(key ? { "idempotency-key": key } : {}) },
    body: form,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  let body: { error?: { code: string }; status?: string } = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: { code: `not JSON: ${text.slice(0, 80)}` } };
  }
  return { status: res.status, body, retryAfter: res.headers.get("retry-after") };
}
