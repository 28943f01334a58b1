import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scanFolder } from "./folder";
import { RULES, scanCode, verdictOf, type Net, type RuleId } from "./index";

// Each corpus file states its tool's net (`// net: …`) and, for hostile files, the rule that must
// catch it (`// expect: …`). Benign files must pass, or be flagged only for their declared net use.
const root = path.join(import.meta.dirname, "corpus");

function load(kind: "hostile" | "benign") {
  return readdirSync(path.join(root, kind))
    .filter((f) => f.endsWith(".js"))
    .sort()
    .map((file) => {
      const code = readFileSync(path.join(root, kind, file), "utf8");
      const net = /^\/\/ net: (\S+)$/m.exec(code)?.[1] as Net | undefined;
      const expect = /^\/\/ expect: (\S+)$/m.exec(code)?.[1] as RuleId | undefined;
      return { file, code, net, expect };
    });
}

const hostile = load("hostile");
const benign = load("benign");

describe("corpus", () => {
  it("is wide enough", () => {
    expect(hostile.length).toBeGreaterThanOrEqual(40);
    expect(benign.length).toBeGreaterThanOrEqual(30);
    const covered = new Set(hostile.map((h) => h.expect));
    for (const rule of [
      "env.read",
      "module.forbidden",
      "process.native",
      "fs.write",
      "code.eval",
      "net.denied",
      "net.foreign_host",
      "payload.encoded",
      "payload.code",
      "code.minified",
      "timer.long",
      "loop.input",
      "scan.unresolved",
      "module.unresolved",
      "net.unresolved_host",
    ] as RuleId[]) {
      expect(covered, rule).toContain(rule);
    }
  });

  it.each(hostile)("hostile $file is caught by $expect", ({ file, code, net, expect: rule }) => {
    expect(net).toBeDefined();
    expect(rule && rule in RULES).toBe(true);
    const findings = scanCode({ code, resource: file, tool: { name: "t", net } });
    expect(findings.map((f) => f.rule)).toContain(rule);
    expect(verdictOf(findings)).toBe(RULES[rule!].severity === "fail" ? "failed" : "flagged");
  });

  it.each(benign)("benign $file is judged right", ({ file, code, net, expect: rule }) => {
    expect(net).toBeDefined();
    const findings = scanCode({ code, resource: file, tool: { name: "t", net } });
    if (rule === "net.use") {
      expect(verdictOf(findings)).toBe("flagged");
      expect(new Set(findings.map((f) => f.rule))).toEqual(new Set(["net.use"]));
    } else {
      expect(findings).toEqual([]);
    }
  });
});

// Skill folders (skill.json and resources) for the module graph: helpers, chains, vendored code,
// packages in node_modules/, dead code that ships, computed requires and code from outside the
// bundle. Hostile and flag folders name in expect.txt the rule that must catch them.
function folders(kind: "hostile" | "benign" | "flag") {
  const dir = path.join(root, "folders", kind);
  return readdirSync(dir)
    .sort()
    .map((name) => {
      let expect: RuleId | undefined;
      try {
        expect = readFileSync(path.join(dir, name, "expect.txt"), "utf8").trim() as RuleId;
      } catch {
        expect = undefined;
      }
      return { name, dir: path.join(dir, name), expect };
    });
}

describe("folder corpus", () => {
  it("covers every module-graph rule", () => {
    const covered = new Set(folders("hostile").map((h) => h.expect));
    for (const rule of [
      "module.unresolved",
      "module.not_found",
      "module.outside_bundle",
      "module.bare_missing",
      "module.loader",
    ] as RuleId[]) {
      expect(covered, rule).toContain(rule);
    }
    expect(folders("benign").length).toBeGreaterThanOrEqual(8);
  });

  it.each(folders("hostile"))("hostile folder $name fails by $expect", async ({ dir, expect: rule }) => {
    const r = await scanFolder(dir);
    expect(r.errors).toBeUndefined();
    expect(r.verdict).toBe("failed");
    expect(r.findings.map((f) => f.rule)).toContain(rule);
  });

  it.each(folders("benign"))("benign folder $name passes", async ({ dir }) => {
    const r = await scanFolder(dir);
    expect(r.errors).toBeUndefined();
    expect(r.findings).toEqual([]);
    expect(r.verdict).toBe("passed");
  });

  it.each(folders("flag"))("flag folder $name is flagged for $expect", async ({ dir, expect: rule }) => {
    const r = await scanFolder(dir);
    expect(r.verdict).toBe("flagged");
    expect(new Set(r.findings.map((f) => f.rule))).toEqual(new Set([rule]));
  });
});
