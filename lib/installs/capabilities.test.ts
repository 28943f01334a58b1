import { describe, expect, it } from "vitest";
import { validateSkillDocument, type SkillDocument } from "../contracts";
import { capabilitiesOf, diffCapabilities } from "./capabilities";
import { sandboxSkill } from "../../test/helpers/install-fixtures";

function doc(input: unknown): SkillDocument {
  const r = validateSkillDocument(input);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.document;
}

const v1 = doc(
  sandboxSkill({ slug: "echo", version: "1.0.0", tools: [{ name: "echo", net: "openvibe-only" }, { name: "old" }] }),
);
const v2 = doc(
  sandboxSkill({
    slug: "echo",
    version: "1.1.0",
    tools: [{ name: "echo", net: "public", wall_ms: 20_000, mem_bytes: 67_108_864 }, { name: "shout" }],
    kinds: ["notes.write"],
  }),
);

describe("capabilitiesOf", () => {
  it("states what a sandbox skill asks for in plain words", () => {
    const c = capabilitiesOf(v1);
    expect(c.runs).toBe("sandbox");
    expect(c.runsWords).toBe("Runs code in a sandbox on your machine or OpenVibe's");
    expect(c.kinds).toEqual([{ kind: "skill.run", words: "running a skill's code in a sandbox" }]);
    expect(c.tools.map((t) => [t.name, t.netWords, t.limitsWords])).toEqual([
      ["echo", "OpenVibe sites only", "up to 10 s and 128 MiB per run"],
      ["old", "no internet", "up to 10 s and 128 MiB per run"],
    ]);
    expect(c.widestNet).toBe("openvibe-only");
  });

  it("says a prompt skill runs no code", () => {
    const prompt = doc({
      contract: "actor.skill@1",
      slug: "notes",
      version: "1.0.0",
      name: "Notes",
      summary: "Prompt only.",
      instructions: "Write good notes.",
      resources: [],
      requires: { kinds: [] },
    });
    const c = capabilitiesOf(prompt);
    expect(c).toMatchObject({ runs: "prompt", tools: [], kinds: [], widestNet: "deny" });
    expect(c.runsWords).toMatch(/no code/);
  });
});

describe("diffCapabilities", () => {
  it("reports tools added and removed, net widened, limits raised and lowered, kinds added", () => {
    const d = diffCapabilities(v1, v2);
    expect(d.direction).toBe("upgrade");
    expect(d.toolsAdded.map((t) => t.name)).toEqual(["shout"]);
    expect(d.toolsRemoved.map((t) => t.name)).toEqual(["old"]);
    expect(d.netWidened).toEqual([
      { tool: "echo", from: "openvibe-only", to: "public", fromWords: "OpenVibe sites only", toWords: "the internet" },
    ]);
    expect(d.netNarrowed).toEqual([]);
    expect(d.limitsRaised).toEqual([{ tool: "echo", limit: "wall_ms", from: 10_000, to: 20_000 }]);
    expect(d.limitsLowered).toEqual([{ tool: "echo", limit: "mem_bytes", from: 134_217_728, to: 67_108_864 }]);
    expect(d.kindsAdded.map((k) => k.kind)).toEqual(["notes.write"]);
    expect(d.kindsRemoved).toEqual([]);
    expect(d.codeChanged).toEqual([]);
    expect(d.widens).toBe(true);
    expect(d.unchanged).toBe(false);
  });

  it("the other way round is a downgrade that narrows", () => {
    const d = diffCapabilities(v2, v1);
    expect(d.direction).toBe("downgrade");
    expect(d.netNarrowed.map((n) => [n.tool, n.from, n.to])).toEqual([["echo", "public", "openvibe-only"]]);
    expect(d.kindsRemoved.map((k) => k.kind)).toEqual(["notes.write"]);
    expect(d.toolsAdded.map((t) => t.name)).toEqual(["old"]);
    expect(d.limitsRaised).toEqual([{ tool: "echo", limit: "mem_bytes", from: 67_108_864, to: 134_217_728 }]);
    expect(d.widens).toBe(true);
  });

  it("sees changed code even when every declared capability is the same", () => {
    const same = doc(
      sandboxSkill({
        slug: "echo",
        version: "1.0.1",
        tools: [{ name: "echo", net: "openvibe-only" }, { name: "old" }],
        code: "process.stdout.write('{}');\n",
      }),
    );
    const d = diffCapabilities(v1, same);
    expect(d.unchanged).toBe(true);
    expect(d.widens).toBe(false);
    expect(d.codeChanged).toEqual(["echo", "old"]);
  });
});

describe("diffCapabilities: what the instructions ask for", () => {
  it("a version whose instructions ask for more, or bring a new script outside the sandbox, widens", () => {
    const same = doc(sandboxSkill({ slug: "echo", version: "1.0.1", tools: [{ name: "echo", net: "openvibe-only" }, { name: "old" }] }));
    const before = { asks: ["run shell commands"], outsideScripts: [] };
    const after = { asks: ["run shell commands", "use administrator rights"], outsideScripts: ["scripts/setup.py"] };
    const d = diffCapabilities(v1, same, { installed: before, next: after });
    expect(d.asksAdded).toEqual(["use administrator rights"]);
    expect(d.scriptsAdded).toEqual(["scripts/setup.py"]);
    expect(d.widens).toBe(true);
    const back = diffCapabilities(same, v1, { installed: after, next: before });
    expect(back.asksAdded).toEqual([]);
    expect(back.widens).toBe(false);
    expect(capabilitiesOf(same, after).asks).toEqual(after.asks);
  });
});
