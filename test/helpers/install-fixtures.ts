// Skill documents for the install tests: a small sandbox skill whose versions differ in exactly the
// ways an upgrade diff reports (tools, network, limits, kinds). Its code passes the real scan.
import type { NetPolicy } from "../../lib/contracts/types";

export const ECHO_CODE = `"use strict";
// echo: returns its input.
let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  raw += chunk;
});
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify({ echo: JSON.parse(raw || "{}") }));
});
`;

export type FixtureTool = { name: string; net?: NetPolicy; wall_ms?: number; mem_bytes?: number };

/** An actor.skill@2 sandbox document without integrity (the validator computes it). */
export function sandboxSkill(p: {
  slug: string;
  version: string;
  tools: FixtureTool[];
  kinds?: string[];
  code?: string;
}) {
  return {
    contract: "actor.skill@2",
    slug: p.slug,
    version: p.version,
    name: `Fixture ${p.slug}`,
    summary: "A fixture skill whose tools echo their input.",
    instructions: "# Fixture\n\nCall a tool with any text; it answers with the same input.",
    runs: "sandbox",
    resources: [{ name: "tools/echo.js", media_type: "text/javascript", text: p.code ?? ECHO_CODE }],
    tools: p.tools.map((t) => ({
      name: t.name,
      description: `Echo the input (${t.name}).`,
      language: "javascript",
      entry: "tools/echo.js",
      args: {
        type: "object",
        properties: { text: { type: "string", maxLength: 200 } },
        additionalProperties: false,
      },
      net: t.net ?? "deny",
      limits: { wall_ms: t.wall_ms ?? 10_000, mem_bytes: t.mem_bytes ?? 134_217_728 },
    })),
    requires: { kinds: ["skill.run", ...(p.kinds ?? [])] },
  };
}
