import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { API_TOKEN_SCOPES, isApiTokenScope, LEGACY_SCOPES, normalizeScopes, SCOPE_DESCRIPTIONS } from "./scopes";

const ROOT = path.resolve(import.meta.dirname, "../..");
const V1 = path.join(ROOT, "app/api/v1");

// Routes a person's token must never reach: they need the browser session (top up, manage tokens,
// decide a step, run again) or are not a person's at all (agents, operators, the Link, public reads).
const SESSION_ONLY = ["balance/top-ups", "tokens", "tokens/[id]", "steps/[id]/decision", "runs/[id]/again"];

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

describe("API token scopes", () => {
  it("names the seven scopes, each described, and reads stored ones back in table order", () => {
    expect(API_TOKEN_SCOPES).toEqual([
      "skills:read",
      "skills:publish",
      "installs",
      "agents",
      "links",
      "runs:read",
      "billing:read",
    ]);
    for (const scope of API_TOKEN_SCOPES) expect(SCOPE_DESCRIPTIONS[scope]).toMatch(/\S/);
    expect(normalizeScopes(["agents", "bogus", "installs", "agents"])).toEqual(["installs", "agents"]);
    expect(LEGACY_SCOPES).toEqual(["skills:read", "skills:publish"]);
    expect(isApiTokenScope("billing:write")).toBe(false);
    expect(isApiTokenScope("links")).toBe(true);
  });

  it("has every v1 route a signed-in person calls declare its scope, or be session-only", () => {
    const undeclared: string[] = [];
    const sessionOnly: string[] = [];
    for (const file of routeFiles(V1)) {
      const source = readFileSync(file, "utf8");
      const rel = path.relative(V1, path.dirname(file)).split(path.sep).join("/");
      if (/auth:\s*(sessionPrincipal|apiPrincipal)\b/.test(source)) {
        if (/auth:\s*apiPrincipal\b/.test(source) && rel === "me") continue;
        if (/auth:\s*sessionPrincipal\b/.test(source)) sessionOnly.push(rel);
        else undeclared.push(rel);
      }
      for (const match of source.matchAll(/scopedPrincipal\("([^"]+)"\)/g)) {
        expect(isApiTokenScope(match[1]!), `${rel} names ${match[1]}`).toBe(true);
      }
    }
    expect(undeclared).toEqual([]);
    expect(sessionOnly.sort()).toEqual([...SESSION_ONLY].sort());
  });

  it("scopes the routes the way the README table says", () => {
    const scopeOf = (rel: string) =>
      /scopedPrincipal\("([^"]+)"\)/.exec(readFileSync(path.join(V1, rel, "route.ts"), "utf8"))?.[1];
    expect(scopeOf("installs")).toBe("installs");
    expect(scopeOf("agents")).toBe("agents");
    expect(scopeOf("links")).toBe("links");
    expect(scopeOf("runs")).toBe("runs:read");
    expect(scopeOf("balance")).toBe("billing:read");
    expect(scopeOf("skills")).toBe("skills:publish");
  });
});
