// Which requests the web server hands straight to a route handler, and that each such route exists
// in app/ with the methods it is served for (a renamed route must not leave a dead entry behind).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DIRECT_ROUTES, matchDirectRoute } from "./direct-routes.mjs";

describe("matchDirectRoute", () => {
  it("matches the tool-call routes with their parameters, query or not", () => {
    expect(matchDirectRoute("POST", "/api/v1/steps")).toEqual({ folder: "api/v1/steps", params: {} });
    expect(matchDirectRoute("GET", "/api/v1/steps/st_1?wait=25")).toEqual({
      folder: "api/v1/steps/[id]",
      params: { id: "st_1" },
    });
    expect(matchDirectRoute("GET", "/api/link/v1/jobs/j1/inputs/m2")).toEqual({
      folder: "api/link/v1/jobs/[id]/inputs/[mediaId]",
      params: { id: "j1", mediaId: "m2" },
    });
    expect(matchDirectRoute("DELETE", "/api/mcp")?.folder).toBe("api/mcp");
  });

  it("leaves every other request to Next.js", () => {
    const others: [string, string][] = [
      ["GET", "/api/v1/steps"], // the person's list: session or scoped token, served by Next
      ["PUT", "/api/v1/steps"],
      ["OPTIONS", "/api/mcp"],
      ["POST", "/api/v1/steps/"], // trailing slash: Next redirects
      ["GET", "/api/v1/steps//"],
      ["GET", "/api/v1/steps/%2e%2e"], // the proxy checks that it decodes
      ["POST", "/api/link/v1/jobs/j1/result/extra"],
      ["POST", "/api/link/v1/jobs//result"],
      ["GET", "/skills/text-tools"],
      ["GET", "/"],
    ];
    for (const [method, url] of others) expect(matchDirectRoute(method, url), `${method} ${url}`).toBeNull();
  });
});

describe("DIRECT_ROUTES", () => {
  it.each(DIRECT_ROUTES.map((r) => [r.pattern, r]))("%s is an app route exporting its methods", (_, route) => {
    const source = readFileSync(path.resolve(import.meta.dirname, "../app", route.folder, "route.ts"), "utf8");
    for (const method of route.methods) {
      expect(source, `${route.folder} ${method}`).toMatch(new RegExp(`export const ${method}\\b|as ${method}\\b`));
    }
    const params = route.pattern.split("/").filter((p) => p.startsWith(":"));
    expect(params.map((p) => `[${p.slice(1)}]`)).toEqual(route.folder.split("/").filter((p) => p.startsWith("[")));
  });
});
