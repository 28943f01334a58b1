// The contract suite: one describe per bullet of ADR-060's "Tests" section, each with valid and
// invalid fixtures from test/fixtures/contracts (regenerate with generate.ts there). Invalid
// fixtures must fail with exactly the listed errors, so dropping any rule fails its case.
import { readdirSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  applyDefaults,
  CODE_RESOURCE_MAX_BYTES,
  computeIntegrity,
  DOCUMENT_MAX_BYTES,
  MEM_BYTES_DEFAULT,
  sha256Hex,
  validateListing,
  validateSkillDocument,
  WALL_MS_DEFAULT,
  type SkillDocumentV2,
  type Tool,
} from "./index";

const FIXTURES = path.join(import.meta.dirname, "../../test/fixtures/contracts");
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const read = (rel: string): Doc => JSON.parse(readFileSync(path.join(FIXTURES, rel), "utf8"));
const skill = (kind: "valid" | "invalid", name: string) => read(`skills/${kind}/${name}.json`);
const listingCase = (kind: "valid" | "invalid", name: string) => {
  const { listing, document } = read(`listings/${kind}/${name}.json`) as { listing: Doc; document: string };
  return { listing, document: skill("valid", document) };
};
const errorsOf = (r: ReturnType<typeof validateSkillDocument>) => (r.ok ? [] : r.errors.map((e) => [e.path, e.code]));

// Quoted from ADR-060, "Tests".
const BULLET = {
  integrity:
    "every valid fixture carries the hash of its own canonical content, including code resources and tools, and an edited instruction, code or `net` no longer matches it",
  runsTools: "`runs` is `prompt` or `sandbox`; `tools` has 1 to 5 entries and only a sandbox skill carries them",
  kinds: "a sandbox skill declares `skill.run` in `requires.kinds`; a prompt skill does not",
  toolShape:
    "`language` is `javascript`, the tool `name` shape is the one above, and `entry` names a code resource (the cross-field rule a JSON Schema cannot state: the fixtures and the registry check it)",
  netLimits:
    "`net` is `deny`, `openvibe-only` or `public` with `deny` the default; `limits` stay at or under the caps and default to 10000 ms and 134217728 bytes",
  text: "a resource is text (no binary), code is `.js` with `text/javascript` and at most 64 KiB, and no field is named `secret`, `token`, `env` or `key`",
  listing:
    "a @2 listing pins each code resource's Media id and sha256, the pinned sha256 is the document's own bytes, and a sandbox listing without code is invalid",
} as const;

type Expected = [path: string, code: string][];
type Cases = { valid: string[]; invalid: Record<string, Expected> };

const SKILL_CASES: Record<Exclude<keyof typeof BULLET, "listing">, Cases> = {
  integrity: {
    valid: ["prompt-v1", "prompt-v2", "csv-stats", "text-kit"],
    invalid: {
      "integrity-stale-instructions": [["/integrity", "contract.integrity_mismatch"]],
      "integrity-stale-code": [["/integrity", "contract.integrity_mismatch"]],
      "integrity-stale-net": [["/integrity", "contract.integrity_mismatch"]],
      "integrity-stale-net-default": [["/integrity", "contract.integrity_mismatch"]],
      "integrity-malformed": [["/integrity", "contract.schema"]],
    },
  },
  runsTools: {
    valid: ["prompt-v2", "csv-stats", "text-kit"],
    invalid: {
      "runs-unknown": [["/runs", "contract.schema"]],
      "runs-missing": [["/runs", "contract.schema"]],
      "tools-empty": [["/tools", "contract.schema"]],
      "tools-six": [["/tools", "contract.schema"]],
      "tools-on-prompt": [["/tools", "contract.tools_not_allowed"]],
      "tools-on-v1": [
        ["/tools", "contract.schema"],
        ["/tools", "contract.tools_not_allowed"],
      ],
      "sandbox-without-tools": [["/tools", "contract.tools_required"]],
    },
  },
  kinds: {
    valid: ["prompt-v1", "prompt-v2", "csv-stats", "text-kit"],
    invalid: {
      "sandbox-without-skill-run": [["/requires/kinds", "contract.kinds_mismatch"]],
      "prompt-with-skill-run": [["/requires/kinds", "contract.kinds_mismatch"]],
      "v1-with-skill-run": [["/requires/kinds", "contract.kinds_mismatch"]],
    },
  },
  toolShape: {
    valid: ["csv-stats", "text-kit"],
    invalid: {
      "language-python": [["/tools/0/language", "contract.schema"]],
      "tool-name-uppercase": [["/tools/0/name", "contract.schema"]],
      "tool-name-starts-with-digit": [["/tools/0/name", "contract.schema"]],
      "tool-name-33-chars": [["/tools/0/name", "contract.schema"]],
      "tool-name-duplicate": [["/tools/1/name", "contract.tool_duplicate"]],
      "tool-description-201": [["/tools/0/description", "contract.schema"]],
      "entry-unknown": [["/tools/0/entry", "contract.entry_unknown"]],
      "entry-not-code": [["/tools/0/entry", "contract.entry_not_code"]],
      "args-ref": [["/tools/0/args/properties/csv/$ref", "contract.schema"]],
      "args-ref-alone": [["/tools/0/args/properties/csv/type", "contract.schema"]],
      "args-nested-object": [["/tools/0/args/properties/options/type", "contract.schema"]],
      "args-array-of-arrays": [["/tools/0/args/properties/grid/items/type", "contract.schema"]],
      "args-pattern-201": [["/tools/0/args/properties/csv/pattern", "contract.schema"]],
      "args-maxlength-201": [["/tools/0/args/properties/csv/maxLength", "contract.schema"]],
      "args-unlisted-keyword": [["/tools/0/args/properties/csv/format", "contract.schema"]],
      "args-additional-properties-true": [["/tools/0/args/additionalProperties", "contract.schema"]],
      "args-required-unknown": [["/tools/0/args/required/1", "contract.args_required_unknown"]],
    },
  },
  netLimits: {
    valid: ["csv-stats", "text-kit"],
    invalid: {
      "net-unknown": [["/tools/0/net", "contract.schema"]],
      "wall-ms-over-cap": [["/tools/0/limits/wall_ms", "contract.schema"]],
      "mem-bytes-over-cap": [["/tools/0/limits/mem_bytes", "contract.schema"]],
      "wall-ms-under-minimum": [["/tools/0/limits/wall_ms", "contract.schema"]],
      "mem-bytes-under-minimum": [["/tools/0/limits/mem_bytes", "contract.schema"]],
      "limits-unknown-field": [["/tools/0/limits/cpu_ms", "contract.schema"]],
    },
  },
  text: {
    valid: ["prompt-v1", "csv-stats", "text-kit"],
    invalid: {
      "resource-nul": [["/resources/1/text", "contract.resource_not_text"]],
      "resource-lone-surrogate": [["/resources/0/text", "contract.resource_not_text"]],
      "resource-binary-media-type": [["/resources/0/media_type", "contract.schema"]],
      "resource-duplicate-name": [["/resources/2/name", "contract.resource_duplicate"]],
      "resource-name-escapes": [["/resources/0/name", "contract.schema"]],
      "code-not-js-name": [["/resources/0/name", "contract.code_resource_invalid"]],
      "code-js-name-plain-media-type": [
        ["/resources/0/media_type", "contract.code_resource_invalid"],
        ["/tools/0/entry", "contract.entry_not_code"],
      ],
      "code-in-prompt-skill": [["/resources/2", "contract.code_not_allowed"]],
      "code-in-v1": [
        ["/resources/2/media_type", "contract.schema"],
        ["/resources/2", "contract.code_not_allowed"],
      ],
      "forbidden-field-secret": [["/tools/0/args/properties/secret", "contract.forbidden_field"]],
      "forbidden-field-token": [["/tools/0/args/properties/token", "contract.forbidden_field"]],
      "forbidden-field-env": [["/tools/0/args/properties/env", "contract.forbidden_field"]],
      "forbidden-field-key": [["/tools/0/args/properties/key", "contract.forbidden_field"]],
      "forbidden-field-top-level": [
        ["/Secret", "contract.schema"],
        ["/Secret", "contract.forbidden_field"],
      ],
    },
  },
};

const LISTING_CASES: Cases = {
  valid: ["csv-stats-passed", "text-kit-flagged", "prompt-v1-passed", "prompt-v2-scanning"],
  invalid: {
    "sandbox-without-code": [["/code", "contract.listing_code_missing"]],
    "sandbox-empty-code": [["/code", "contract.listing_code_missing"]],
    "code-resource-unpinned": [["/code", "contract.listing_code_missing"]],
    "code-sha256-not-document-bytes": [["/code/0/sha256", "contract.listing_code_digest_mismatch"]],
    "code-sha256-uppercase": [["/code/0/sha256", "contract.schema"]],
    "code-media-id-malformed": [["/code/0/media_id", "contract.schema"]],
    "code-names-non-code-resource": [["/code/1/name", "contract.listing_code_unknown"]],
    "code-on-v1-listing": [["/code", "contract.schema"]],
    "finding-tool-on-v1-listing": [["/findings/0/tool", "contract.schema"]],
    "finding-unknown-tool": [["/findings/0/tool", "contract.listing_finding_tool_unknown"]],
    "status-passed-with-fail": [["/status", "contract.listing_status_mismatch"]],
    "skill-integrity-not-document": [["/skill/integrity", "contract.listing_skill_mismatch"]],
    "v2-listing-of-v1-document": [["/contract", "contract.listing_contract_mismatch"]],
  },
};

function runSkillCases(cases: Cases) {
  it.each(cases.valid)("valid fixture %s passes", (name) => {
    const doc = skill("valid", name);
    const r = validateSkillDocument(doc, { requireIntegrity: true });
    expect(errorsOf(r)).toEqual([]);
  });
  it.each(Object.entries(cases.invalid))("invalid fixture %s is refused with exactly its errors", (name, expected) => {
    expect(errorsOf(validateSkillDocument(skill("invalid", name)))).toEqual(expected);
  });
}

const csvStats = () => skill("valid", "csv-stats");
const textKit = () => skill("valid", "text-kit");
const toolsOf = (doc: Doc): Tool[] => {
  const r = validateSkillDocument(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return (r.document as SkillDocumentV2).tools ?? [];
};
const withoutIntegrity = (d: Doc) => {
  const { integrity: _, ...rest } = d; // eslint-disable-line @typescript-eslint/no-unused-vars
  return rest;
};

describe(`ADR-060 test: ${BULLET.integrity}`, () => {
  runSkillCases(SKILL_CASES.integrity);

  it("each valid fixture's integrity is the sha256 of its own canonical content", () => {
    for (const name of SKILL_CASES.integrity.valid) {
      const doc = skill("valid", name);
      expect(doc.integrity).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(computeIntegrity(doc)).toBe(doc.integrity);
    }
  });

  it("agrees with an independent hash of sorted-key JSON with the defaults written out", () => {
    // csv-stats is ASCII-and-BMP text with integer numbers, where sorted JSON.stringify is RFC 8785.
    const doc = withoutIntegrity(csvStats());
    doc.tools[0].net = "deny";
    doc.tools[0].limits = { wall_ms: 10000, mem_bytes: 134217728 };
    const sorted = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(sorted)
        : v && typeof v === "object"
          ? Object.fromEntries(
              Object.keys(v)
                .sort()
                .map((k) => [k, sorted((v as Doc)[k])]),
            )
          : v;
    const expected =
      "sha256:" +
      createHash("sha256")
        .update(JSON.stringify(sorted(doc)))
        .digest("hex");
    expect(csvStats().integrity).toBe(expected);
  });

  it("covers code resources and tools: editing code, instructions, net, a tool or args changes it", () => {
    const base = computeIntegrity(csvStats());
    const edits: ((d: Doc) => void)[] = [
      (d) => (d.instructions += " "),
      (d) => (d.resources[0].text = d.resources[0].text.replace("sum", "total")),
      (d) => (d.tools[0].net = "openvibe-only"),
      (d) => (d.tools[0].description += "!"),
      (d) => (d.tools[0].args.properties.csv.maxLength = 199),
      (d) => (d.tools[0].limits = { wall_ms: 9000 }),
      (d) => (d.resources[1].media_type = "text/plain"),
    ];
    for (const edit of edits) {
      const d = csvStats();
      edit(d);
      expect(computeIntegrity(d)).not.toBe(base);
      expect(errorsOf(validateSkillDocument(d))).toContainEqual(["/integrity", "contract.integrity_mismatch"]);
    }
  });

  it("is taken with defaults applied, so writing a default out does not change it, and ignores key order", () => {
    const explicit = csvStats();
    explicit.tools[0].net = "deny";
    explicit.tools[0].limits = { mem_bytes: 134217728, wall_ms: 10000 };
    expect(computeIntegrity(explicit)).toBe(csvStats().integrity);
    const reordered = Object.fromEntries(Object.entries(csvStats()).reverse());
    expect(computeIntegrity(reordered)).toBe(csvStats().integrity);
  });

  it("is computed for a document that does not state it, and required when asked", () => {
    const bare = withoutIntegrity(csvStats());
    const r = validateSkillDocument(bare);
    expect(r.ok && r.document.integrity).toBe(csvStats().integrity);
    expect(errorsOf(validateSkillDocument(bare, { requireIntegrity: true }))).toEqual([
      ["/integrity", "contract.integrity_required"],
    ]);
  });
});

describe(`ADR-060 test: ${BULLET.runsTools}`, () => {
  runSkillCases(SKILL_CASES.runsTools);

  it("accepts exactly 1 and exactly 5 tools", () => {
    expect(csvStats().tools).toHaveLength(1);
    expect(textKit().tools).toHaveLength(5);
  });
});

describe(`ADR-060 test: ${BULLET.kinds}`, () => {
  runSkillCases(SKILL_CASES.kinds);

  it("a prompt skill may declare other kinds; requires grants nothing and passes through unchanged", () => {
    const r = validateSkillDocument(skill("valid", "prompt-v2"));
    expect(r.ok && r.document.requires).toEqual({ kinds: ["memory.write"] });
  });
});

describe(`ADR-060 test: ${BULLET.toolShape}`, () => {
  runSkillCases(SKILL_CASES.toolShape);

  it("accepts every argument form of the subset: string with enum/maxLength/pattern, number, integer, boolean, arrays of those", () => {
    const args = textKit().tools[3].args;
    expect(Object.values(args.properties).map((p) => (p as Doc).type)).toEqual([
      "string",
      "string",
      "number",
      "integer",
      "boolean",
      "array",
      "array",
    ]);
    expect(args.properties.code.pattern).toHaveLength(200);
    expect(validateSkillDocument(textKit()).ok).toBe(true);
  });

  it("accepts a 32-character name and refuses names with other characters", () => {
    const ok = csvStats();
    ok.tools[0].name = "a" + "b_9".repeat(10) + "c";
    expect(errorsOf(validateSkillDocument(withoutIntegrity(ok)))).toEqual([]);
    for (const name of ["column-stats", "_stats", "", "stats!", "ünï"]) {
      const bad = withoutIntegrity(csvStats());
      bad.tools[0].name = name;
      expect(errorsOf(validateSkillDocument(bad))).toEqual([["/tools/0/name", "contract.schema"]]);
    }
  });
});

describe(`ADR-060 test: ${BULLET.netLimits}`, () => {
  runSkillCases(SKILL_CASES.netLimits);

  it("defaults net to deny and limits to 10000 ms and 134217728 bytes", () => {
    const tool = toolsOf(csvStats())[0]!;
    expect(tool.net).toBe("deny");
    expect(tool.limits).toEqual({ wall_ms: WALL_MS_DEFAULT, mem_bytes: MEM_BYTES_DEFAULT });
    expect([WALL_MS_DEFAULT, MEM_BYTES_DEFAULT]).toEqual([10000, 134217728]);
  });

  it("keeps each declared net and fills only the missing limit", () => {
    const tools = toolsOf(textKit());
    expect(tools.map((t) => t.net)).toEqual(["deny", "public", "openvibe-only", "deny", "deny"]);
    expect(tools[0]!.limits).toEqual({ wall_ms: 30000, mem_bytes: 268435456 });
    expect(tools[2]!.limits).toEqual({ wall_ms: 20000, mem_bytes: MEM_BYTES_DEFAULT });
    expect(tools[3]!.limits).toEqual({ wall_ms: WALL_MS_DEFAULT, mem_bytes: 33554432 });
  });

  it("applyDefaults does not touch its input", () => {
    const doc = csvStats();
    const before = JSON.stringify(doc);
    applyDefaults(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe(`ADR-060 test: ${BULLET.text}`, () => {
  runSkillCases(SKILL_CASES.text);

  const withCode = (text: string) => {
    const d = withoutIntegrity(csvStats());
    d.resources[0].text = text;
    return d;
  };

  it("accepts code of exactly 64 KiB and refuses one byte more, counting UTF-8 bytes", () => {
    const exact = "//" + "x".repeat(CODE_RESOURCE_MAX_BYTES - 2);
    expect(errorsOf(validateSkillDocument(withCode(exact)))).toEqual([]);
    expect(errorsOf(validateSkillDocument(withCode(exact + "x")))).toEqual([["/resources/0/text", "contract.schema"]]);
    // 32769 two-byte characters: under the cap in characters, over it in bytes.
    expect(errorsOf(validateSkillDocument(withCode("//" + "é".repeat(32768))))).toEqual([
      ["/resources/0/text", "contract.resource_too_large"],
    ]);
  });

  it("refuses a whole document over 1 MiB", () => {
    const d = withoutIntegrity(skill("valid", "prompt-v1"));
    d.resources = Array.from({ length: 20 }, (_, i) => ({
      name: `r${i}.md`,
      media_type: "text/markdown",
      text: "x".repeat(60_000),
    }));
    expect(JSON.stringify(d).length).toBeGreaterThan(DOCUMENT_MAX_BYTES);
    expect(errorsOf(validateSkillDocument(d))).toEqual([["", "contract.document_too_large"]]);
  });

  it("matches forbidden names in any case, anywhere, but not names that merely contain them", () => {
    const d = withoutIntegrity(csvStats());
    d.tools[0].args.properties.TOKEN = { type: "string" };
    d.tools[0].args.properties.keyword = { type: "string" };
    d.tools[0].args.properties.monkey = { type: "string" };
    expect(errorsOf(validateSkillDocument(d))).toEqual([
      ["/tools/0/args/properties/TOKEN", "contract.schema"],
      ["/tools/0/args/properties/TOKEN", "contract.forbidden_field"],
    ]);
  });
});

describe(`ADR-060 test: ${BULLET.listing}`, () => {
  it.each(LISTING_CASES.valid)("valid listing %s passes with its document", (name) => {
    const { listing, document } = listingCase("valid", name);
    const r = validateListing(listing, document);
    expect(r.ok ? [] : r.errors).toEqual([]);
  });

  it.each(Object.entries(LISTING_CASES.invalid))(
    "invalid listing %s is refused with exactly its errors",
    (name, expected) => {
      const { listing, document } = listingCase("invalid", name);
      const r = validateListing(listing, document);
      expect(r.ok ? [] : r.errors.map((e) => [e.path, e.code])).toEqual(expected);
    },
  );

  it("pins the sha256 of the document's own UTF-8 bytes for every code resource", () => {
    const { listing, document } = listingCase("valid", "text-kit-flagged");
    const code = document.resources.filter((r: Doc) => r.media_type === "text/javascript");
    expect(listing.code.map((c: Doc) => [c.name, c.sha256])).toEqual(
      code.map((r: Doc) => [r.name, sha256Hex(Buffer.from(r.text, "utf8"))]),
    );
    expect(listing.code.every((c: Doc) => /^med_[0-9A-HJKMNP-TV-Z]{26}$/.test(c.media_id))).toBe(true);
  });

  it("reports the skill document's own errors, marked as such", () => {
    const { listing } = listingCase("valid", "csv-stats-passed");
    const r = validateListing(listing, skill("invalid", "entry-unknown"));
    expect(r.ok ? [] : r.errors).toEqual([
      expect.objectContaining({ path: "/tools/0/entry", code: "contract.entry_unknown", in: "document" }),
    ]);
  });
});

describe("the suite covers every ADR Tests bullet with valid and invalid fixtures", () => {
  it("has at least one valid and one invalid fixture per bullet", () => {
    for (const cases of [...Object.values(SKILL_CASES), LISTING_CASES]) {
      expect(cases.valid.length).toBeGreaterThan(0);
      expect(Object.keys(cases.invalid).length).toBeGreaterThan(0);
    }
    expect(Object.keys(SKILL_CASES).length + 1).toBe(Object.keys(BULLET).length);
  });

  it("uses every fixture file on disk", () => {
    const used = (cases: Cases[], kind: "valid" | "invalid") =>
      new Set(cases.flatMap((c) => (kind === "valid" ? c.valid : Object.keys(c.invalid))));
    for (const kind of ["valid", "invalid"] as const) {
      const onDisk = (dir: string) =>
        readdirSync(path.join(FIXTURES, dir))
          .map((f) => f.replace(/\.json$/, ""))
          .sort();
      expect(onDisk(`skills/${kind}`)).toEqual([...used(Object.values(SKILL_CASES), kind)].sort());
      expect(onDisk(`listings/${kind}`)).toEqual([...used([LISTING_CASES], kind)].sort());
    }
  });
});

describe("validateSkillDocument", () => {
  it("returns schema and cross-field errors together, with JSON-pointer paths", () => {
    const d = withoutIntegrity(csvStats());
    d.tools[0].net = "lan";
    d.tools[0].entry = "nope.js";
    d.requires.kinds = [];
    d.tools[0].args.properties.secret = { type: "string" };
    expect(errorsOf(validateSkillDocument(d))).toEqual([
      ["/tools/0/net", "contract.schema"],
      ["/tools/0/args/properties/secret", "contract.forbidden_field"],
      ["/requires/kinds", "contract.kinds_mismatch"],
      ["/tools/0/entry", "contract.entry_unknown"],
    ]);
  });

  it("refuses what is not a JSON object, JSON values that are not JSON, and unknown contracts", () => {
    expect(errorsOf(validateSkillDocument([]))).toEqual([["", "contract.schema"]]);
    expect(errorsOf(validateSkillDocument({ ...csvStats(), version: undefined }))).toEqual([
      ["/version", "contract.not_json"],
    ]);
    expect(errorsOf(validateSkillDocument({ ...csvStats(), tools: [{ limits: { wall_ms: NaN } }] }))).toEqual([
      ["/tools/0/limits/wall_ms", "contract.not_json"],
    ]);
    expect(errorsOf(validateSkillDocument({ ...csvStats(), contract: "actor.skill@3" }))).toEqual([
      ["/contract", "contract.unsupported"],
    ]);
  });

  it("checks slug and strict semver", () => {
    for (const [field, value] of [
      ["slug", "CSV"],
      ["slug", "-csv"],
      ["slug", "ab"],
      ["slug", "a".repeat(65)],
      ["version", "1.0"],
      ["version", "01.0.0"],
      ["version", "v1.0.0"],
      ["version", "1.0.0-"],
    ]) {
      const d = withoutIntegrity(csvStats());
      d[field!] = value;
      expect(errorsOf(validateSkillDocument(d))).toEqual([[`/${field}`, "contract.schema"]]);
    }
  });
});
