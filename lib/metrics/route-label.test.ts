import { describe, expect, it } from "vitest";
import { routeLabel, UNMATCHED_ROUTE } from "./route-label";

describe("routeLabel", () => {
  it("keeps a route without params as it is", () => {
    expect(routeLabel("/api/v1/steps", {})).toBe("/api/v1/steps");
    expect(routeLabel("/", {})).toBe("/");
  });

  it("replaces each param with its name", () => {
    expect(routeLabel("/api/v1/steps/ckabc123", { id: "ckabc123" })).toBe("/api/v1/steps/[id]");
    expect(routeLabel("/api/v1/skills/text-tools/versions/2.0.1", { slug: "text-tools", version: "2.0.1" })).toBe(
      "/api/v1/skills/[slug]/versions/[version]",
    );
  });

  it("matches decoded segments and catch-alls", () => {
    expect(routeLabel("/api/v1/search/a%20b", { q: "a b" })).toBe("/api/v1/search/[q]");
    expect(routeLabel("/api/auth/callback/github", { nextauth: ["callback", "github"] })).toBe(
      "/api/auth/[...nextauth]",
    );
  });

  it("takes params left to right, so a value equal to a later literal segment lands on its own place", () => {
    expect(routeLabel("/api/v1/skills/versions/versions/1.0.0", { slug: "versions", version: "1.0.0" })).toBe(
      "/api/v1/skills/[slug]/versions/[version]",
    );
    expect(routeLabel("/x/same/same", { a: "same", b: "same" })).toBe("/x/[a]/[b]");
  });

  it("never returns a caller's text when a param is not in the path", () => {
    expect(routeLabel("/api/v1/steps/attacker-chosen", { id: "something-else" })).toBe(UNMATCHED_ROUTE);
  });

  it("survives malformed percent-encoding", () => {
    expect(routeLabel("/api/v1/steps/%E0%A4%A", { id: "%E0%A4%A" })).toBe("/api/v1/steps/[id]");
  });
});
