// Bad input to the sign-in route gets the app's JSON error shape and a 4xx, never a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

let env: IntegrationEnv;
let route: typeof import("../../app/api/auth/[...nextauth]/route");

beforeAll(async () => {
  env = await setupIntegration("signin");
  route = await import("../../app/api/auth/[...nextauth]/route");
}, 120_000);

afterAll(async () => env?.teardown());

const ctx = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };
const post = (body: string, type = "application/x-www-form-urlencoded") =>
  route.POST(
    new Request("http://localhost/api/auth/callback/credentials", {
      method: "POST",
      body,
      headers: { "content-type": type },
    }),
    ctx,
  );

describe("POST /api/auth/callback/credentials", () => {
  it.each([
    ["no fields", "", "application/x-www-form-urlencoded", 422],
    ["no password", "email=a%40b.test", "application/x-www-form-urlencoded", 422],
    ["a huge email", `email=${"a".repeat(600)}&password=x`, "application/x-www-form-urlencoded", 422],
    ["broken JSON", "{", "application/json", 400],
    ["another body type", "hello", "text/plain", 415],
  ])("answers %s with the JSON error shape", async (_what, body, type, status) => {
    const res = await post(body, type);
    expect(res.status).toBe(status);
    const json = await res.json();
    expect(json.error.code).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
    expect(typeof json.error.message).toBe("string");
  });
});
