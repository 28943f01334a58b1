// Pairing and signed Link requests against the real routes, PostgreSQL and Redis: a forged,
// replayed, stale, unknown or revoked Link request is refused, each with its own code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateLinkKeyPair, signRequest, type LinkKeyPair } from "../../lib/protocol/signing";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

let env: IntegrationEnv;
let pair: typeof import("../../app/api/link/v1/pair/route");
let heartbeat: typeof import("../../app/api/link/v1/heartbeat/route");
let links: typeof import("../../lib/links");
let owner: { id: string };
let stranger: { id: string };

const BASE = "http://localhost";

function signed(
  path: string,
  key: LinkKeyPair,
  linkId: string,
  body: unknown,
  over: { now?: number; nonce?: string } = {},
) {
  const text = JSON.stringify(body);
  const headers = signRequest({ linkId, privateKeyPem: key.privateKeyPem, method: "POST", path, body: text, ...over });
  return new Request(BASE + path, {
    method: "POST",
    body: text,
    headers: { ...headers, "content-type": "application/json" },
  });
}

async function pairNew(code: string, key = generateLinkKeyPair()) {
  const res = await pair.POST(signed("/api/link/v1/pair", key, key.publicKey, { code, name: "laptop" }));
  return { res, body: await res.json(), key };
}

const beat = (key: LinkKeyPair, linkId: string, over: { now?: number; nonce?: string } = {}) =>
  heartbeat.POST(signed("/api/link/v1/heartbeat", key, linkId, { runner: "on", runner_epoch: 1, pool: false }, over));

beforeAll(async () => {
  env = await setupIntegration("linkauth");
  pair = await import("../../app/api/link/v1/pair/route");
  heartbeat = await import("../../app/api/link/v1/heartbeat/route");
  links = await import("../../lib/links");
  const { createUser } = await import("../../lib/auth");
  owner = await createUser({ email: "owner@example.test", name: "Owner", password: null });
  stranger = await createUser({ email: "stranger@example.test", name: "Stranger", password: null });
}, 120_000);

afterAll(async () => env?.teardown());

describe("pairing", () => {
  it("pairs a Link with a one-time code; the same code never works twice", async () => {
    const { code } = await links.createPairingCode(owner.id);
    const first = await pairNew(code);
    expect(first.res.status).toBe(201);
    expect(Object.keys(first.body).sort()).toEqual(["link_id", "name"]);
    const stored = await env.db.link.findUniqueOrThrow({ where: { id: first.body.link_id } });
    expect(stored.userId).toBe(owner.id);
    expect(stored.publicKey).toBe(first.key.publicKey);
    expect(stored.runnerEnabled).toBe(false);
    const again = await pairNew(code);
    expect(again.res.status).toBe(422);
    expect(again.body.error.code).toBe("link.pairing_code_invalid");
  });

  it("refuses an expired code and a request not signed by the key it presents", async () => {
    const { code } = await links.createPairingCode(owner.id);
    await env.db.linkPairingCode.updateMany({
      data: { expiresAt: new Date(Date.now() - 1000) },
      where: { usedAt: null },
    });
    expect((await pairNew(code)).body.error.code).toBe("link.pairing_code_invalid");
    const { code: fresh } = await links.createPairingCode(owner.id);
    const key = generateLinkKeyPair();
    const other = generateLinkKeyPair();
    const forged = signed("/api/link/v1/pair", other, key.publicKey, { code: fresh, name: "x" });
    const res = await pair.POST(forged);
    expect((await res.json()).error.code).toBe("link.signature.invalid");
  });
});

describe("signed requests", () => {
  let key: LinkKeyPair;
  let linkId: string;

  beforeAll(async () => {
    const { code } = await links.createPairingCode(owner.id);
    const paired = await pairNew(code);
    key = paired.key;
    linkId = paired.body.link_id;
  });

  it("accepts a signed heartbeat and records the runner state", async () => {
    const res = await beat(key, linkId);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ link_id: linkId, runner: "on", pool: false });
    const rows = await links.listLinks(owner.id);
    expect(rows.find((l) => l.id === linkId)).toMatchObject({ online: true, runner: "on" });
  });

  it("writes a report that changes nothing only once its last sighting is stale; a change at once", async () => {
    const seen = async () => (await env.db.link.findUniqueOrThrow({ where: { id: linkId } })).lastSeenAt!.getTime();
    const { SEEN_REFRESH_MS } = await import("../../lib/links/service");
    await env.db.link.update({ where: { id: linkId }, data: { lastSeenAt: new Date(Date.now() - SEEN_REFRESH_MS - 1_000) } });
    expect((await beat(key, linkId)).status).toBe(200);
    const refreshed = await seen();
    expect(Date.now() - refreshed).toBeLessThan(SEEN_REFRESH_MS);
    // The same report again, at once: read, not written.
    expect((await beat(key, linkId)).status).toBe(200);
    expect(await seen()).toBe(refreshed);
    // A report that changes something is written however fresh the row.
    const off = signed("/api/link/v1/heartbeat", key, linkId, { runner: "off", runner_epoch: 2, pool: false });
    const res = await heartbeat.POST(off);
    expect(await res.json()).toMatchObject({ runner: "off" });
    expect(await env.db.link.findUniqueOrThrow({ where: { id: linkId } })).toMatchObject({ runnerEnabled: false, runnerEpoch: 2 });
    const on = signed("/api/link/v1/heartbeat", key, linkId, { runner: "on", runner_epoch: 3, pool: false });
    expect(await (await heartbeat.POST(on)).json()).toMatchObject({ runner: "on" });
  });

  it("refuses a forged signature", async () => {
    const intruder = generateLinkKeyPair();
    const res = await beat(intruder, linkId);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("link.signature.invalid");
  });

  it("refuses a replay of the same request", async () => {
    const req = signed("/api/link/v1/heartbeat", key, linkId, { runner: "off", runner_epoch: 1, pool: false });
    const copy = req.clone();
    expect((await heartbeat.POST(req)).status).toBe(200);
    const replay = await heartbeat.POST(copy);
    expect((await replay.json()).error.code).toBe("link.nonce_reused");
  });

  it("refuses a stale or future timestamp (over 60 s)", async () => {
    expect((await (await beat(key, linkId, { now: Date.now() - 61_000 })).json()).error.code).toBe("link.clock_skew");
    expect((await (await beat(key, linkId, { now: Date.now() + 61_000 })).json()).error.code).toBe("link.clock_skew");
  });

  it("refuses a tampered body", async () => {
    const req = signed("/api/link/v1/heartbeat", key, linkId, { runner: "off", runner_epoch: 1, pool: false });
    const tampered = new Request(req.url, {
      method: "POST",
      headers: req.headers,
      body: JSON.stringify({ runner: "on", runner_epoch: 1, pool: true }),
    });
    expect((await (await heartbeat.POST(tampered)).json()).error.code).toBe("link.signature.invalid");
  });

  it("refuses an unknown Link", async () => {
    expect((await (await beat(key, "lnk_does_not_exist")).json()).error.code).toBe("link.unknown");
  });

  it("only the owner can revoke, and a revoked Link is refused at once", async () => {
    await expect(links.revokeLink(stranger.id, linkId)).rejects.toMatchObject({ code: "link.not_found", status: 404 });
    await links.revokeLink(owner.id, linkId);
    const res = await beat(key, linkId);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("link.revoked");
  });
});
