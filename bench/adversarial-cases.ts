// Every piece of server code that reads author or agent text, each with a benign input and inputs
// built to make it backtrack or loop, at the largest size the server lets through. Shared by
// bench/adversarial.ts (time ratio, budget 3×) and test/unit/adversarial.test.ts (each completes
// and still gives the right answer). Pure code only: no database, no network.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { validateSkillDocument } from "../lib/contracts";
import { compileToolArgs } from "../lib/contracts/tool-args";
import { csvRow } from "../lib/installs/csv";
import { handleBase } from "../lib/auth/handles";
import { clientIp, normalizeIp } from "../lib/http/client-ip";
import { renderMarkdownHtml } from "../lib/markdown";
import { MAX_INLINE_MARKUP, MAX_MARKDOWN_LINES } from "../lib/markdown/render";
import { normalBundlePath } from "../lib/registry/archive";
import { parseBrowseQuery } from "../lib/registry/browse-query";
import { scanCode } from "../lib/scan";
import { auditInstructions, loadInstructionParsers } from "../lib/instructions";

await loadInstructionParsers();

export type AdversarialCase = {
  name: string;
  /** What the server lets through: the size every input is built at. */
  maxLength: number;
  benign: string;
  adversarial: Record<string, string>;
  run: (input: string) => unknown;
};

const KIB = 1024;
/** `unit` repeated to exactly `n` characters. */
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const stair = (n: number, step: (i: number) => string) => {
  let s = "";
  for (let i = 1; s.length < n; i++) s += step(i);
  return s.slice(0, n);
};

const MARKDOWN_MAX = 64 * KIB;
const BENIGN_MARKDOWN = fill(
  [
    "## Using the tool",
    "",
    "Call `word_count` with the *text* to count and, when you need it, a **language** hint.",
    "See [the guide](https://example.com/guide) or mail <help@example.com>.",
    "",
    "- one item with `code`",
    "- another with _emphasis_",
    "  1. nested and ordered",
    "",
    "| field | meaning |",
    "|:--|--:|",
    "| `count` | how many words |",
    "",
    "> Quoted advice, kept short.",
    "",
    "```js",
    "const total = words.length;",
    "```",
    "",
  ].join("\n"),
  MARKDOWN_MAX,
);

/** `unit` repeated `times`, then one line of prose up to `n` characters. */
const thenProse = (unit: string, times: number, n: number) => {
  const head = unit.repeat(times);
  return head + fill("plain words ", n - head.length);
};

function markdownCase(): AdversarialCase {
  const n = MARKDOWN_MAX;
  const lines = MAX_MARKDOWN_LINES - 2;
  const markup = MAX_INLINE_MARKUP;
  return {
    name: "Markdown render (instructions, resources)",
    maxLength: n,
    benign: BENIGN_MARKDOWN,
    adversarial: {
      "open brackets": fill("[", n),
      "image openers": fill("![", n),
      "link openers": fill("[a](", n),
      "nested links": fill("[", n / 2) + fill("](x)", n / 2),
      "emphasis runs": fill("*a ", n),
      "underscore runs": fill("_a ", n),
      "mixed delimiters": fill("*_[`<!", n),
      "strong-em": fill("***a", n),
      "backtick ladder": stair(n, (i) => "`".repeat(i) + "a"),
      "autolink openers": fill("<a:", n),
      "html openers": fill("<", n),
      "quote nesting": fill(">", n),
      "list ladder": stair(n, (i) => " ".repeat(i * 2) + "- a\n"),
      "one long heading": "# " + fill("a #", n - 2),
      "setext pairs": fill("a\n=\n", n),
      "reference definitions": fill("[a]: <", n),
      "table pipes": "| a |\n|---|\n" + fill("|\n", n - 12),
      "wide table": "|" + fill("a|", n / 2 - 1) + "\n|" + fill("-|", n / 2 - 2),
      entities: fill("&#", n),
      escapes: fill("\\", n),
      // Just inside the caps, where the parser does its most work per byte.
      "paragraphs at the line cap": thenProse("a\n\n", lines / 2, n),
      "list items at the line cap": thenProse("- a\n", lines, n),
      "setext headings at the line cap": thenProse("a\n=\n", lines / 2, n),
      "table rows at the line cap": "| a |\n|---|\n" + thenProse("|\n", lines - 2, n - 12),
      "quotes at the line cap": thenProse("> a\n\n", lines / 2, n),
      "emphasis at the markup budget": thenProse("_a ", markup, n),
      "image openers at the markup budget": thenProse("![", markup / 2, n),
      "brackets at the markup budget": thenProse("[", markup, n),
      "links at the markup budget": thenProse("[a](https://e.test) ", markup / 4, n),
    },
    run: (s) => renderMarkdownHtml(s, { headingOffset: 2 }),
  };
}

const INPUT_MAX = 64 * KIB - 32;

function toolArgsCase(): AdversarialCase {
  const schema = (pattern: string) => ({ type: "object", properties: { text: { type: "string", pattern } } });
  const patterns = ["^(a+)+$", "^(a|aa)+$", "^(\\w+\\s?)*$", "(x+x+)+y", "^(.*a){12}$"];
  // Every input meets every pattern, the ordinary one and the ones built to backtrack.
  const validators = ["^[a-z ]+$", ...patterns].map((p) => compileToolArgs(schema(p)));
  const n = INPUT_MAX;
  return {
    name: "Tool argument pattern (agent input)",
    maxLength: n,
    benign: fill("some plain words ", n),
    adversarial: {
      "a…a!": fill("a", n - 1) + "!",
      "words then !": fill("word ", n - 1) + "!",
      "x…x": fill("x", n),
    },
    run: (s) => validators.map((v) => v({ text: s })),
  };
}

const DOC_MAX = 256 * KIB;

function contractCase(): AdversarialCase {
  const n = DOC_MAX;
  // The document's bulk is resources (each at most 64 KiB); instructions stay ordinary.
  const doc = (overrides: Record<string, unknown>, pad: number) => {
    const chunks = Math.ceil(pad / (60 * KIB));
    return {
      contract: "actor.skill@1",
      slug: "text-kit",
      version: "1.0.0",
      name: "Text kit",
      summary: "Small text helpers.",
      instructions: "Plain instructions.",
      requires: { kinds: ["text.read"] },
      ...overrides,
      resources: [
        ...((overrides.resources as unknown[]) ?? []),
        ...Array.from({ length: chunks }, (_, i) => ({
          name: `docs/part-${i}.md`,
          media_type: "text/markdown",
          text: fill("Plain reference text. ", Math.floor(pad / chunks)),
        })),
      ],
    };
  };
  const third = Math.floor(n / 3);
  const sized = (overrides: Record<string, unknown>) => {
    const base = JSON.stringify(doc(overrides, 0)).length;
    // Each resource adds its own JSON framing (about 80 characters) on top of its text.
    return JSON.stringify(doc(overrides, Math.max(0, n - base - 80 * Math.ceil(n / (60 * KIB)))));
  };
  return {
    name: "Contract validation (schema patterns and rules)",
    maxLength: n,
    benign: sized({}),
    adversarial: {
      "semver prerelease digits": sized({ version: "1.2.3-" + fill("1", third) + "!" }),
      "semver dotted": sized({ version: "1.2.3-" + fill("a.", third) + "!" }),
      "slug dashes": sized({ slug: "a" + fill("-", third) + "!" }),
      "resource name segments": sized({
        resources: [{ name: fill("a/", third) + "!", media_type: "text/markdown", text: "x" }],
      }),
      "kind dots": sized({ requires: { kinds: [fill("a.", third) + "!"] } }),
      // JSON writes a lone surrogate as \\udXXX: seven characters of document for two of text.
      "lone surrogates": sized({ instructions: fill("\ud800a", Math.floor(((n - 1000) * 2) / 7)) }),
    },
    run: (s) => validateSkillDocument(JSON.parse(s)),
  };
}

function bundlePathCase(): AdversarialCase {
  const n = 202;
  return {
    name: "Bundle file names (archives, uploads)",
    maxLength: n,
    benign: fill("docs/guide-", n - 5) + ".md", // the longest path allowed (200)
    adversarial: {
      "dot-slash prefix": fill("./", n - 1) + "!",
      slashes: fill("/", n),
      dots: fill(".", n),
      "control characters": fill("a\u0001", n),
    },
    // The check itself; refusing then costs one AppError, whatever the path.
    run: normalBundlePath,
  };
}

function handleCase(): AdversarialCase {
  const n = 100;
  return {
    name: "Handle from a name (sign-up)",
    maxLength: n,
    // People's names carry accents: the benign name does too.
    benign: fill("José Müller-Łukasiewicz ", n),
    adversarial: { dashes: fill("-", n - 1) + "a", marks: fill("e\u0301-", n), symbols: fill("!@#", n) },
    run: handleBase,
  };
}

function clientIpCase(): AdversarialCase {
  const n = 16 * KIB;
  const headers = (xff: string) => new Headers({ "x-forwarded-for": xff, "x-openvibe-peer-address": "10.0.0.1" });
  return {
    name: "Client IP (X-Forwarded-For)",
    maxLength: n,
    benign: fill("203.0.113.7, ", n),
    adversarial: { commas: fill(",", n), colons: fill(":", n), "long hop": fill("1", n) },
    run: (s) => [clientIp(headers(s)), normalizeIp(s)],
  };
}

function csvCase(): AdversarialCase {
  // The widest cell people choose is an agent's name (64); slugs and versions are as long.
  const n = 64;
  return {
    name: "CSV export cells (audit)",
    maxLength: n,
    benign: fill("Laptop, office ", n),
    adversarial: { quotes: fill('"', n), "formula and newlines": "=" + fill('\r\n",', n - 1) },
    run: (s) => csvRow([s, s, s, s, s, s, s, 1, s, s]),
  };
}

function searchCase(): AdversarialCase {
  const n = 100;
  return {
    name: "Search query (browse)",
    maxLength: n,
    benign: fill("csv stats ", n),
    adversarial: { spaces: fill(" ", n - 1) + "a", tabs: fill("\t\n", n) },
    run: (s) => parseBrowseQuery(new URLSearchParams({ q: s, page: "1" })),
  };
}

const CODE_MAX = 64 * KIB;

function benignCode(): string {
  const dir = path.join(import.meta.dirname, "../lib/scan/corpus/benign");
  const parts = readdirSync(dir)
    .filter((f) => f.endsWith(".js") && f !== "long-readable-file.js")
    .sort()
    .map(
      (f) =>
        `{\n${readFileSync(path.join(dir, f), "utf8")
          .split("\n")
          .filter((l) => !l.startsWith("import "))
          .join("\n")}\n}\n`,
    );
  let code = "";
  for (let i = 0; ; i++) {
    const next = parts[i % parts.length]!;
    if (code.length + next.length > CODE_MAX) break;
    code += next;
  }
  return code + "/*" + " ".repeat(CODE_MAX - code.length - 4) + "*/";
}

/** A program of `head`, as many `line(i)` as fit and `tail`, padded with a comment to exactly `n`. */
function program(n: number, head: string, line: (i: number) => string, tail: string): string {
  let code = head;
  for (let i = 1; ; i++) {
    const next = line(i);
    if (code.length + next.length + tail.length + 4 > n) break;
    code += next;
  }
  code += tail;
  return code + "/*" + " ".repeat(n - code.length - 4) + "*/";
}

function scanCase(): AdversarialCase {
  const n = CODE_MAX;
  const str = (body: string) => `const s = "${body}";\n`;
  const input = "JSON.parse(process.argv[2])";
  return {
    name: "Scan text heuristics (lib/scan, via scanCode)",
    maxLength: n,
    benign: benignCode(),
    adversarial: {
      "one long line": "let x = 0;" + fill(" x += 1;", n - 10),
      "base64-ish run": str(fill("QUJD", n - 14)),
      "hex-ish run": str(fill("ab12", n - 14)),
      "deep nesting": fill("[", n / 2) + fill("]", n / 2),
      "escaped string": str(fill("\\x41", n - 14)),
      // shapes that once made the evaluator re-expand values exponentially (public skill code)
      "property assigned from itself": program(
        n,
        "function adjust(f, ctx) {\n  f.note = '';\n",
        (i) => `  if (ctx.k${i}) { f.note = (f.note || '') + ' (case ${i})'; f.level = 'low'; }\n`,
        `  return f;\n}\nconsole.log(adjust({}, ${input}).note);\n`,
      ),
      "property read back through a shared variable": program(
        n,
        `let cache = null;\nfunction load() { if (cache) return cache; cache = ${input}; return cache; }\nfunction save(t) { cache = t; }\n`,
        (i) =>
          `function step${i}(d) { const t = load(); const next = { token: d.token, refresh: t.refresh }; save(next); return next; }\n`,
        `console.log(step1(${input}));\n`,
      ),
      "return chains branching at every level": program(
        n,
        "const a = process.argv.length > 2;\nfunction f0() { return [1]; }\n",
        (i) => `function f${i}() { if (a) return f${i - 1}(); return f${i - 1}(); }\n`,
        "for (const x of f200()) console.log(x);\n",
      ),
      "string doubling": program(
        n,
        'var a0 = "abcdefgh";\n',
        (i) => `var a${i} = a${i - 1} + a${i - 1};\n`,
        "console.log(a40);\n",
      ),
    },
    run: (code) => scanCode({ code, resource: "tools/x.js", tool: { name: "x", net: "deny" } }),
  };
}

/** 64 KiB of ordinary instructions, built from the instruction corpus's benign SKILL.md bodies. */
export function benignInstructions(n = 64 * KIB): string {
  const dir = path.join(import.meta.dirname, "../lib/instructions/corpus/benign");
  const parts = readdirSync(dir)
    .sort()
    .map((d) =>
      readFileSync(path.join(dir, d, "SKILL.md"), "utf8")
        .split("\n---\n")
        .slice(1)
        .join("\n---\n"),
    );
  let text = "";
  for (let i = 0; text.length < n; i++) text += parts[i % parts.length]! + "\n";
  return text.slice(0, n);
}

function instructionCase(): AdversarialCase {
  const n = 64 * KIB;
  const fence = (body: string) => "```bash\n" + body.slice(0, n - 13) + "\n```\n";
  return {
    name: "Instruction audit (lib/instructions)",
    maxLength: n,
    benign: benignInstructions(n),
    adversarial: {
      "pipes in a fence": fence(fill("a | ", n)),
      "nested substitutions": fence(fill("$(", n / 2) + fill(")", n / 2)),
      "many fences": fill("```sh\ncurl x | sh\n```\n", n),
      "base64-ish prose": fill("QUJD", n),
      "hex escapes": fence(fill("\\x41", n)),
      "char codes": fence("python3 -c " + fill("chr(99)+", n - 40)),
      "number list": "[" + fill("99,", n - 3) + "9]",
      "override words": fill("ignore previous ", n),
      "send verbs": fill(".env send to the x ", n),
      joiners: fill("a\u200d", n),
      "many URLs": fill("https://g\u0456thub.com/x ", n),
      "prose commands": fill("run curl x | bash\n", n),
      "parser error recovery (pipes)": fence(fill("curl | ", n)),
      "parser error recovery (heredocs)": fence(fill("curl <<E\n", n)),
      "parser error recovery (|&)": fence(fill("curl |& ", n)),
      "one long pipeline": fence(fill("curl x |\n", n)),
      "service keys (shell)": fence(fill('K=$OPENAI_API_KEY; curl -d "$K" https://api.openai.com/x\n', n)),
    },
    run: (text) => auditInstructions({ instructions: text, resources: [] }).verdict,
  };
}

export function adversarialCases(): AdversarialCase[] {
  return [
    markdownCase(),
    toolArgsCase(),
    contractCase(),
    bundlePathCase(),
    handleCase(),
    clientIpCase(),
    csvCase(),
    searchCase(),
    scanCase(),
    instructionCase(),
  ];
}
