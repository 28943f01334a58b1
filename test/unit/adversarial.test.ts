// Each piece of server code that reads author or agent text meets inputs built to make it
// backtrack or loop, at the largest size the server lets through (bench/adversarial-cases.ts; the
// bench times them). Here each must finish and still give the right answer.
import { describe, expect, it, vi } from "vitest";

vi.stubEnv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/unused");
vi.stubEnv("REDIS_URL", "redis://127.0.0.1:6379/0");
vi.stubEnv("AUTH_SECRET", "x".repeat(32));
const { adversarialCases } = await import("../../bench/adversarial-cases");
const { HANDLE_PATTERN } = await import("../../lib/auth/handles");

const cases = adversarialCases();
const byName = (prefix: string) => cases.find((c) => c.name.startsWith(prefix))!;

describe.each(cases)("$name", (c) => {
  it("has a benign input within the cap", () => expect(c.benign.length).toBeLessThanOrEqual(c.maxLength));

  it.each(Object.entries(c.adversarial))("finishes on %s at the size cap", (_label, input) => {
    expect(input.length).toBeLessThanOrEqual(c.maxLength);
    expect(input.length).toBeGreaterThanOrEqual(Math.floor(c.maxLength * 0.9));
    expect(() => c.run(input)).not.toThrow();
  });
});

describe("answers stay right under attack", () => {
  it("Markdown: only the elements the render rules make, never a raw tag", () => {
    const c = byName("Markdown");
    const allowed = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "em", "strong", "code", "pre", "a", "span", "ul", "ol", "li", "blockquote", "hr", "br", "div", "table", "thead", "tbody", "tr", "th", "td", "s"]);
    for (const input of [c.benign, ...Object.values(c.adversarial)]) {
      const html = c.run(input) as string;
      const tags = new Set([...html.matchAll(/<([a-z0-9]+)/g)].map((m) => m[1]!));
      expect([...tags].filter((t) => !allowed.has(t))).toEqual([]);
    }
  });

  it("argument patterns: backtracking bait is refused, fitting input accepted", () => {
    const c = byName("Tool argument");
    // [ordinary, ^(a+)+$, ^(a|aa)+$, ^(\w+\s?)*$, (x+x+)+y, ^(.*a){12}$]
    expect(c.run(c.adversarial["a…a!"]!)).toEqual([false, false, false, false, false, false]);
    expect(c.run(c.adversarial["x…x"]!)).toEqual([true, false, false, true, false, false]);
    expect((c.run(c.benign) as boolean[])[0]).toBe(true);
  });

  it("contracts: the benign document is valid and every hostile one refused", () => {
    const c = byName("Contract");
    expect(c.run(c.benign)).toMatchObject({ ok: true });
    for (const [label, input] of Object.entries(c.adversarial)) expect(c.run(input), label).toMatchObject({ ok: false });
  });

  it("bundle paths, handles, CSV, client IP and search keep their meaning", () => {
    const paths = byName("Bundle file names");
    expect(paths.run(paths.benign)).toBe(paths.benign);
    expect(paths.run(paths.adversarial.slashes!)).toBeNull();
    expect(paths.run(paths.adversarial["control characters"]!)).toBeNull();
    // A dot name is a file name here; the contract refuses it as a resource name later.
    expect(paths.run(paths.adversarial["dot-slash prefix"]!)).toBe(".!");

    const handles = byName("Handle");
    for (const input of [handles.benign, ...Object.values(handles.adversarial)]) {
      expect(handles.run(input)).toMatch(HANDLE_PATTERN);
    }

    const csv = byName("CSV");
    expect(csv.run(csv.adversarial.quotes!)).toBe(Array(7).fill(`"${'"'.repeat(128)}"`).concat(["1", `"${'"'.repeat(128)}"`, `"${'"'.repeat(128)}"`]).join(",") + "\r\n");
    expect((csv.run(csv.adversarial["formula and newlines"]!) as string).startsWith(`"'=`)).toBe(true);

    const ip = byName("Client IP");
    for (const input of Object.values(ip.adversarial)) expect((ip.run(input) as string[])[1]).toBe("unknown");

    const search = byName("Search");
    expect((search.run(search.adversarial.spaces!) as { q: string }).q).toBe("a");
  });

  it("Scan: shapes that once stalled the evaluator get their real verdict; a runaway fold fails closed", () => {
    const c = byName("Scan");
    const rules = (label: string) => (c.run(c.adversarial[label]!) as { rule: string }[]).map((f) => f.rule);
    expect(rules("property assigned from itself")).toEqual([]);
    expect(rules("property read back through a shared variable")).toEqual([]);
    expect(rules("return chains branching at every level")).toEqual([]);
    expect(rules("string doubling")).toEqual(["scan.too_complex"]);
  });
});
