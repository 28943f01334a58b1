// Every API route, every method it exports, fed malformed and hostile requests: broken and huge
// JSON, wrong types, odd and oversized headers, forged credentials, strange path params and
// queries; anonymous, as a person (session and API token) and as an agent. No answer may be a
// 5xx, and every error is the one JSON shape with a dotted code. (The next-auth route needs a
// running Next server for most of its paths: e2e/route-fuzz.spec.ts covers it over HTTP.)
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { sessionToken } from "../helpers/session-cookie";

const API = path.resolve(import.meta.dirname, "../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

function routeFiles(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel)).flatMap((name) => {
    const p = rel ? `${rel}/${name}` : name;
    if (statSync(path.join(dir, p)).isDirectory()) return routeFiles(dir, p);
    return name === "route.ts" ? [p] : [];
  });
}

const ROUTES = routeFiles(API).filter((f) => !f.startsWith("auth/[...nextauth]"));
const PARAM_VALUES = ["x", "..", "%00", "a\u0000b", "a".repeat(5000), "💥", "' OR 1=1 --", "cl000000000000000000000000", "actor.skill@2"];
const HUGE = JSON.stringify({ a: "x".repeat(1_200_000) });
const DEEP = "[".repeat(20_000) + "]".repeat(20_000);
const BODIES: [string, string | null][] = [
  ["application/json", "{"],
  ["application/json", "null"],
  ["application/json", "[]"],
  ["application/json", '"string"'],
  ["application/json", "1e999"],
  ["application/json", DEEP],
  ["application/json", HUGE],
  [
    "application/json",
    JSON.stringify({ name: ["x"], skill: 7, tool: {}, input: "x".repeat(70_000), enabled: "yes", decision: null, slug: 1, version: [], code: 5, daily_limit_micros: "-1", amount_micros: 1e308, idempotency_key: {}, findings_ack: 3, runner: "maybe", pool: "no", wait_ms: -5 }),
  ],
  ["application/json", JSON.stringify({ __proto__: { admin: true }, constructor: { prototype: {} } })],
  ["application/json", JSON.stringify({ name: "nul\u0000", skill: "a@1.0.0\u0000", tool: "t", input: { "k\u0000": 1 }, code: "\u0000" })],
  ["application/json", `{"input":${DEEP},"name":${DEEP}}`],
  ["text/plain", "hello"],
  ["multipart/form-data; boundary=x", "--x\r\nbroken"],
  ["application/zip", "PK\u0003\u0004garbage"],
  ["application/gzip", "\u001f\u008bgarbage"],
  ["", null],
];
const HEADER_SETS: Record<string, string>[] = [
  {},
  { authorization: "Bearer" },
  { authorization: "Basic " + "a".repeat(10_000) },
  { authorization: "Bearer ova_" + "z".repeat(43) },
  { cookie: "next-auth.session-token=not-a-jwt; __Secure-next-auth.session-token.0=x" },
  { "x-ov-link": "lnk", "x-ov-timestamp": "NaN", "x-ov-nonce": "\u00ff\u00fe", "x-ov-signature": "%%%" },
  { "content-length": "99999999999", "x-forwarded-for": "1.1.1.1, <script>", origin: "https://evil.test" },
  { "x-request-id": "r".repeat(500), accept: "*/*; q=\u00ff" },
];
const QUERIES = ["", "?wait=1e309&limit=-1&days=abc&cursor=%ZZ", "?q=" + "a".repeat(5000) + "&page=99999999", "?dry_run=maybe&a=1&a=2", "?from=9999-99-99&to=-1&kind=%00"];

let env: IntegrationEnv;
const modules = new Map<string, Partial<Record<(typeof METHODS)[number], Handler>>>();
let personCookie = "";
let personToken = "";
let agentToken = "";

beforeAll(async () => {
  env = await setupIntegration("fuzz");
  for (const file of ROUTES) modules.set(file, await import(path.join(API, file)));
  const { createUser, createApiToken, sessionCookieName } = await import("../../lib/auth");
  const { createAgent } = await import("../../lib/agents");
  const user = await createUser({ email: "fuzz@example.test", name: "Fuzz", password: null });
  personCookie = `${sessionCookieName()}=${await sessionToken(user.id, "integration-secret-".padEnd(40, "x"))}`;
  personToken = (await createApiToken(user.id, "fuzz")).secret;
  agentToken = (await createAgent(user.id, { name: "fuzz agent" })).token;
}, 120_000);

afterAll(async () => env?.teardown());

function paramsOf(file: string, value: string): Record<string, string> {
  return Object.fromEntries([...file.matchAll(/\[(\w+)\]/g)].map((m) => [m[1]!, value]));
}

function urlOf(file: string, params: Record<string, string>, query: string): string {
  const p = file.replace(/\/route\.ts$/, "").replace(/\[(\w+)\]/g, (_m, k: string) => encodeURIComponent(params[k] ?? "x"));
  return `http://localhost/api/${p}${query}`;
}

async function send(file: string, method: string, handler: Handler, init: { params: Record<string, string>; query: string; headers: Record<string, string>; body: [string, string | null] }) {
  const [type, body] = init.body;
  const headers = { ...(type ? { "content-type": type } : {}), ...init.headers };
  const req = new Request(urlOf(file, init.params, init.query), {
    method,
    headers,
    body: method === "GET" || body === null ? undefined : body,
  });
  const res = await handler(req, { params: Promise.resolve(init.params) });
  const text = await res.text();
  const what = `${method} ${file} ${JSON.stringify({ ...init, body: body?.slice(0, 60) }).slice(0, 300)}`;
  expect(res.status, `${what} → ${text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400 && (res.headers.get("content-type") ?? "").includes("json")) {
    const answer = JSON.parse(text);
    // The MCP endpoint answers in JSON-RPC's own error shape (a numeric code); every other route in ours.
    if (answer.jsonrpc === "2.0") expect(answer.error.code, what).toEqual(expect.any(Number));
    else expect(answer.error.code, what).toMatch(/^[a-z_]+(\.[a-z_]+)*$/);
  }
}

describe("every API route under malformed and hostile requests", () => {
  it("covers every route file", () => {
    expect(ROUTES.length).toBeGreaterThan(30);
    expect(agentToken).toMatch(/^ova_/);
    expect(personToken).toMatch(/^ovp_/);
    for (const [file, mod] of modules) expect(METHODS.some((m) => mod[m]), file).toBe(true);
  });

  it.each(ROUTES)("%s never answers 5xx", async (file) => {
    const mod = modules.get(file)!;
    const who: Record<string, string>[] = [{}, { cookie: personCookie }, { authorization: `Bearer ${personToken}` }, { authorization: `Bearer ${agentToken}` }];
    for (const method of METHODS) {
      const handler = mod[method];
      if (!handler) continue;
      let i = 0;
      for (const body of BODIES) {
        for (const credentials of who) {
          const value = PARAM_VALUES[i % PARAM_VALUES.length]!;
          const headers = { ...HEADER_SETS[i % HEADER_SETS.length]!, ...credentials };
          const query = QUERIES[i % QUERIES.length]!;
          await send(file, method, handler, { params: paramsOf(file, value), query, headers, body });
          i++;
        }
      }
      for (const value of PARAM_VALUES) {
        for (const credentials of who) {
          await send(file, method, handler, { params: paramsOf(file, value), query: "", headers: credentials, body: ["application/json", "{}"] });
        }
      }
    }
  });
});
