// Two promises of the run path, checked over the source tree: Step and RunJob rows are written
// only by the lifecycle module (lib/runs/lifecycle), and nothing the Link receives is trusted by a
// type cast (no `as` in the Link's connected code or in lib/protocol: every answer is parsed).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.join(dir, name);
    if (["node_modules", "generated", ".next"].includes(name)) continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(rel);
  }
  return out;
}

const WRITE_CALL =
  /\.(step|runJob)\s*\.\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\s*\(/;
const WRITE_SQL = /\b(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+"(Step|RunJob)"/i;

describe("the run path's boundaries", () => {
  it("writes Step and RunJob rows only in lib/runs/lifecycle", () => {
    const offenders: string[] = [];
    for (const file of ["app", "lib", "workers", "scripts", "cli", "link", "components"].flatMap(sources)) {
      if (file.startsWith(path.join("lib", "runs", "lifecycle"))) continue;
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (WRITE_CALL.test(line) || WRITE_SQL.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it("casts nothing the Link receives: no `as` in its connected code or in lib/protocol", () => {
    const files = [
      ...sources(path.join("link", "remote")),
      ...sources(path.join("lib", "protocol")),
      path.join("link", "job.ts"),
      path.join("link", "inputs.ts"),
      path.join("link", "cli.ts"),
    ];
    const casts: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        const isCast = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
        const isConst = ts.isAsExpression(node) && node.type.getText(source) === "const";
        if (isCast && !isConst) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          casts.push(`${file}:${line + 1}: ${node.getText(source).slice(0, 80)}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(files.length).toBeGreaterThan(8);
    expect(casts).toEqual([]);
  });
});
