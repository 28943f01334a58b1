import { readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadInstructionParsers } from "./audit";
import { INSTRUCTION_RULES } from "./rules";
import { scanSkillMdFolder } from "./scan-skill-md-folder";

// Each folder is an Agent Skills folder. Hostile and flag folders are named `<rule>--<case>`: the
// rule that must catch it. Benign folders must never fail and are rarely flagged.
const root = path.join(import.meta.dirname, "corpus");
const folders = (kind: string) => readdirSync(path.join(root, kind)).sort().map((name) => ({ name, dir: path.join(root, kind, name) }));
const hostile = folders("hostile");
const flag = folders("flag");
const benign = folders("benign");
const PUBLIC_STYLE = ["pdf-processing", "webapp-testing", "github-gh", "weather", "skill-creator", "docx-editing", "summarize-notion"];

beforeAll(() => loadInstructionParsers());

describe("instruction corpus", () => {
  it("is wide enough and every expected rule exists", () => {
    expect(hostile.length).toBeGreaterThanOrEqual(60);
    expect(benign.length).toBeGreaterThanOrEqual(35);
    for (const f of [...hostile, ...flag]) expect(f.name.split("--")[0]! in INSTRUCTION_RULES || f.name.startsWith("payload."), f.name).toBe(true);
    for (const p of PUBLIC_STYLE) expect(benign.map((b) => b.name)).toContain(p);
  });

  it("detects ≥97 % of hostile folders and fails ≥90 %, each by its expected rule", () => {
    const results = hostile.map((h) => ({ ...h, scan: scanSkillMdFolder(h.dir) }));
    const detected = results.filter((r) => r.scan.verdict === "failed" || r.scan.verdict === "flagged");
    const failed = results.filter((r) => r.scan.verdict === "failed");
    expect(detected.length / results.length).toBeGreaterThanOrEqual(0.97);
    expect(failed.length / results.length).toBeGreaterThanOrEqual(0.9);
    const missed = results.filter((r) => !r.scan.findings.some((f) => f.rule === r.name.split("--")[0]));
    expect(missed.map((m) => `${m.name}: ${m.scan.findings.map((f) => f.rule).join(",")}`)).toEqual([]);
    // every campaign-style "prerequisite" fails
    for (const r of results.filter((x) => x.name.includes("prereq"))) expect(r.scan.verdict, r.name).toBe("failed");
  });

  it.each(flag)("flag case $name is flagged by its rule, not failed", ({ name, dir }) => {
    const scan = scanSkillMdFolder(dir);
    expect(scan.verdict).toBe("flagged");
    expect(scan.findings.map((f) => f.rule)).toContain(name.split("--")[0]);
  });

  it("fails no benign folder and flags at most 5 %", () => {
    const results = benign.map((b) => ({ ...b, scan: scanSkillMdFolder(b.dir) }));
    const failed = results.filter((r) => r.scan.verdict !== "passed" && r.scan.verdict !== "flagged");
    expect(failed.map((f) => `${f.name}: ${f.scan.verdict} ${f.scan.findings.map((x) => x.rule).join(",")}`)).toEqual([]);
    const flagged = results.filter((r) => r.scan.verdict === "flagged");
    expect(flagged.length / results.length, flagged.map((f) => `${f.name}: ${f.scan.findings.map((x) => x.rule)}`).join("; ")).toBeLessThanOrEqual(0.05);
  });
});
