// Every limit the contract accepts is one the Link runs: the skill contract's schema and the Link
// agree on each edge (lib/protocol defines both), and a tool run in the real sandbox at the
// contract's minimum, default and maximum of each limit ends `ok`.
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { contractSchema } from "../lib/contracts";
import { LIMITS, NET_POLICIES } from "../lib/protocol";
import { parseLimits, parseNetPolicy } from "./sandbox/policy";
import { Sandbox } from "./sandbox/run";

type Schema = { $defs: { tool: { properties: { limits: object; net: object } } } };
const skill2 = contractSchema("actor.skill@2") as Schema;
const ajv = new Ajv2020({ strict: false });
const contractAccepts = ajv.compile(skill2.$defs.tool.properties.limits);
const contractNet = ajv.compile(skill2.$defs.tool.properties.net);

const linkAccepts = (limits: Record<string, number>) => {
  try {
    parseLimits(limits);
    return true;
  } catch {
    return false;
  }
};

const sandbox = await Sandbox.create();
afterAll(() => sandbox.close());

describe("contract limits and the Link", () => {
  it("agree on every edge: what the contract accepts the Link accepts, and nothing else", () => {
    for (const name of ["wall_ms", "mem_bytes"] as const) {
      const { min, max, default: byDefault } = LIMITS[name];
      const values = [min - 1, min, min + 1, byDefault, max - 1, max, max + 1, Math.round((min + max) / 2)];
      for (let i = 0; i < 40; i++) values.push(min + Math.floor(Math.random() * (max - min + 1)));
      for (const value of values) {
        const limits = { [name]: value };
        expect(linkAccepts(limits), `${name} ${value}`).toBe(contractAccepts(limits));
      }
    }
    for (const net of [...NET_POLICIES, "lan", "openvibe_only", ""]) {
      let link = true;
      try {
        parseNetPolicy(net);
      } catch {
        link = false;
      }
      expect(link, net).toBe(contractNet(net));
    }
  });

  it.each([
    ["the minimums", LIMITS.wall_ms.min, LIMITS.mem_bytes.min],
    ["the defaults", LIMITS.wall_ms.default, LIMITS.mem_bytes.default],
    ["the caps", LIMITS.wall_ms.max, LIMITS.mem_bytes.max],
    ["the shortest time with the most memory", LIMITS.wall_ms.min, LIMITS.mem_bytes.max],
    ["the longest time with the least memory", LIMITS.wall_ms.max, LIMITS.mem_bytes.min],
  ])("runs a tool with %s (wall_ms %d, mem_bytes %d) in the sandbox", async (_label, wall_ms, mem_bytes) => {
    const limits = parseLimits({ wall_ms, mem_bytes });
    const folder = sandbox.newJobFolder();
    try {
      const { writeFileSync } = await import("node:fs");
      const path = await import("node:path");
      // Reads its input, touches a little memory, answers: what any small tool does.
      writeFileSync(
        path.join(folder.files, "tool.js"),
        `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const b=Buffer.alloc(1<<20,1);process.stdout.write(JSON.stringify({n:JSON.parse(s).n+b[0]}))})`,
      );
      const result = await sandbox.run({ folder, entry: "tool.js", input: Buffer.from('{"n":1}'), net: "deny", limits });
      expect(result).toMatchObject({ status: "ok", output: { n: 2 } });
    } finally {
      await sandbox.idle();
      sandbox.removeJobFolder(folder);
    }
  });
});
