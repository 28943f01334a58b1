// The per-run egress record with a real tool in the real sandbox: a fetch of an allowlisted local
// host is recorded as allowed with its address and bytes, an attempt at another host as denied
// with its reason (never dropped), and a `net: deny` tool has an empty record. Then the folding
// rules of the record itself: identical attempts counted, a flood capped into one overflow entry.
import http from "node:http";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { egressRecordSchema, MAX_EGRESS_ENTRIES, OVERFLOW_HOST, UNREADABLE_HOST } from "../../lib/protocol";
import { EgressRecorder } from "./egress-record";
import type { NetPolicy } from "./policy";
import { Sandbox } from "./run";

const ALLOWED = "api.openvibe.test";
const BODY = JSON.stringify({ served: "x".repeat(2000) });
let sandbox: Sandbox;
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(BODY));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  port = (server.address() as { port: number }).port;
  sandbox = await Sandbox.create({
    allowedHosts: [ALLOWED],
    hosts: { [ALLOWED]: `127.0.0.1:${port}` },
    resolve: async () => [],
  });
});

afterAll(async () => {
  await sandbox?.close();
  server?.close();
});

async function run(source: string, net: NetPolicy) {
  const folder = sandbox.newJobFolder();
  writeFileSync(path.join(folder.files, "tool.js"), source);
  try {
    return await sandbox.run({
      folder,
      entry: "tool.js",
      input: Buffer.from("{}"),
      net,
      limits: { wall_ms: 10_000, mem_bytes: 134_217_728 },
    });
  } finally {
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
  }
}

describe("a job's egress record (real sandbox)", () => {
  it("records the allowed host with its address and bytes, and the denied one as blocked", async () => {
    const result = await run(
      `(async () => {
        const ok = await fetch("http://${ALLOWED}/data", { method: "POST", body: "y".repeat(500) }).then((r) => r.text());
        const denied = await fetch("http://elsewhere.example/steal").then((r) => r.status, (e) => String(e));
        process.stdout.write(JSON.stringify({ got: ok.length, denied }));
      })();`,
      "openvibe-only",
    );
    expect(result.status, result.stderr).toBe("ok");
    expect(result.output).toMatchObject({ got: BODY.length });
    const egress = egressRecordSchema.parse(result.egress);
    expect(egress).toEqual([
      expect.objectContaining({
        host: ALLOWED,
        port: 80,
        address: "127.0.0.1",
        verdict: "allowed",
        reason: null,
        count: 1,
      }),
      expect.objectContaining({
        host: "elsewhere.example",
        port: 80,
        address: null,
        verdict: "denied",
        reason: "link.egress.host",
        count: 1,
        bytes_up: 0,
        bytes_down: 0,
      }),
    ]);
    // The tool's fetch tunnels through CONNECT: the bytes are the tunnel's, request and response with their headers.
    expect(egress[0]!.bytes_up).toBeGreaterThanOrEqual(500);
    expect(egress[0]!.bytes_up).toBeLessThan(500 + 1024);
    expect(egress[0]!.bytes_down).toBeGreaterThanOrEqual(BODY.length);
    expect(egress[0]!.bytes_down).toBeLessThan(BODY.length + 1024);
  });

  it("a net: deny tool has an empty record (it has no proxy to try)", async () => {
    const result = await run(
      `fetch("http://${ALLOWED}/").then(() => "reached", (e) => "denied").then((r) => process.stdout.write(JSON.stringify(r)));`,
      "deny",
    );
    expect(result.output).toBe("denied");
    expect(result.egress).toEqual([]);
  });
});

describe("EgressRecorder", () => {
  it("folds identical attempts into one counted entry and keeps unreadable hosts as such", () => {
    const recorder = new EgressRecorder();
    for (let i = 0; i < 3; i++) recorder.deny(recorder.start("Evil.Example.", 443), "link.egress.host");
    recorder.deny(recorder.start("bad\u0000host", 443), "link.egress.host");
    const record = recorder.record();
    expect(record).toEqual([
      expect.objectContaining({ host: "evil.example", port: 443, verdict: "denied", count: 3 }),
      expect.objectContaining({ host: UNREADABLE_HOST, count: 1 }),
    ]);
    expect(egressRecordSchema.safeParse(record).success).toBe(true);
  });

  it("caps a flood of distinct hosts into one overflow entry that still says it was blocked", () => {
    const recorder = new EgressRecorder();
    for (let i = 0; i < MAX_EGRESS_ENTRIES + 50; i++) {
      const attempt = recorder.start(`h${i}.example`, 443);
      if (i % 2) recorder.deny(attempt, "link.egress.private");
      else recorder.end(attempt);
    }
    const record = recorder.record();
    expect(record).toHaveLength(MAX_EGRESS_ENTRIES + 1);
    expect(record.at(-1)).toMatchObject({ host: OVERFLOW_HOST, count: 50, verdict: "denied" });
    expect(egressRecordSchema.safeParse(record).success).toBe(true);
  });
});
