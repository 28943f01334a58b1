// The task guides under /docs: their example skill and the commands each page shows. The e2e
// specs (e2e/docs-*.spec.ts) import this module and run exactly what the pages say.

/** The example skill of "Publish your first skill": one tool that title-cases a text, no network. */
export const EXAMPLE_SLUG = "title-case";
export const EXAMPLE_DIR = "title-case";

export function exampleSkillFiles(slug = EXAMPLE_SLUG): Record<string, string> {
  const manifest = {
    contract: "actor.skill@2",
    slug,
    version: "1.0.0",
    name: "Title case",
    summary: "Capitalises the first letter of every word of a text.",
    instructions: "Call `main` with { text } to get the text back in title case.",
    runs: "sandbox",
    resources: [{ name: "tools/main.js", media_type: "text/javascript" }],
    tools: [
      {
        name: "main",
        description: "Title-cases a text.",
        language: "javascript",
        entry: "tools/main.js",
        args: { type: "object", properties: { text: { type: "string" } }, additionalProperties: false },
        net: "deny",
      },
    ],
    requires: { kinds: ["skill.run"] },
  };
  return {
    "skill.json": `${JSON.stringify(manifest, null, 2)}\n`,
    // stdin is read as a stream: a Link's warm sandbox has already opened it (non-blocking), where
    // a synchronous readFileSync(0) fails with EAGAIN.
    "tools/main.js": [
      'const title = (s) => s.split(" ").map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(" ");',
      'let raw = "";',
      'process.stdin.setEncoding("utf8");',
      'process.stdin.on("data", (chunk) => (raw += chunk));',
      'process.stdin.on("end", () => {',
      "  const input = JSON.parse(raw);",
      '  console.log(JSON.stringify({ text: title(String(input.text ?? "")) }));',
      "});",
      "",
    ].join("\n"),
  };
}

/** The sample input the guide runs the tool with, and what it prints. */
export const EXAMPLE_INPUT = '{ "text": "hello agent skills" }';
export const EXAMPLE_OUTPUT = '{"text":"Hello Agent Skills"}';

export type Step = { title: string; text: string; command: string };

export const PUBLISH_STEPS: Step[] = [
  {
    title: "Scan it",
    text: "openvibe-scan checks the folder as publishing will; it exits 0 when it passed, 1 when flagged or failed, 2 when the folder is invalid.",
    command: `openvibe-scan ${EXAMPLE_DIR}`,
  },
  {
    title: "Run it in the sandbox",
    text: "openvibe-link exec runs one tool in the same sandbox a Link uses, with no network.",
    command: `echo '${EXAMPLE_INPUT}' > input.json && openvibe-link exec --entry tools/main.js --input input.json --net deny ${EXAMPLE_DIR}`,
  },
  {
    title: "Publish it",
    text: "Create a token with the skills:publish scope on the dashboard's Tokens page, then publish; --dry-run validates without publishing. The skill's page shows it once the registry's scan has passed.",
    command: `openvibe publish ${EXAMPLE_DIR} --server https://openvibe.example --token ovp_…`,
  },
];

export const PAIR_STEPS: Step[] = [
  {
    title: "Get a pairing code",
    text: "On the dashboard's Links page, choose “Pair a new Link” (or POST /api/v1/links/pairing-codes). The code works once.",
    command: "curl -X POST https://openvibe.example/api/v1/links/pairing-codes --cookie …",
  },
  {
    title: "Pair this machine",
    text: "Run the Link on the machine that will execute your skills' code.",
    command: "openvibe-link pair CODE --server https://openvibe.example --name my-laptop",
  },
  {
    title: "Turn its skill runner on",
    text: "A paired Link runs nothing until you allow it on that machine.",
    command: "openvibe-link skills on",
  },
  {
    title: "Start it",
    text: "It keeps running and takes your skills' jobs until you stop it (Ctrl-C); the Links page shows it online.",
    command: "openvibe-link run",
  },
];

export const AGENT_STEPS: Step[] = [
  {
    title: "Create an agent",
    text: "On the dashboard's Agents page create an agent; its token (shown once) is what it calls with.",
    command:
      "curl -X POST https://openvibe.example/api/v1/agents -H 'content-type: application/json' -d '{\"name\":\"my agent\"}' --cookie …",
  },
  {
    title: "Call a tool over REST",
    text: "With the skill installed, a balance (the Balance page) and a Link running, POST /api/v1/steps with the skill, tool and input; approve it on the Approvals page (“Always allow” lets the next calls of that tool run at once); poll GET /api/v1/steps/{id}?wait=30 until it ends.",
    command: `curl -X POST https://openvibe.example/api/v1/steps -H 'authorization: Bearer AGENT_TOKEN' -H 'content-type: application/json' -d '{"skill":"${EXAMPLE_SLUG}@1.0.0","tool":"main","input":${JSON.stringify(JSON.parse(EXAMPLE_INPUT))}}'`,
  },
  {
    title: "Or connect over MCP",
    text: "Point an MCP client at /api/mcp with the agent token, or let a client that only launches local servers run the stdio bridge.",
    command: "openvibe mcp --server https://openvibe.example --token AGENT_TOKEN",
  },
];

export type Guide = { slug: string; title: string; lead: string; steps: Step[] };

export const GUIDES: Guide[] = [
  {
    slug: "publish",
    title: "Publish your first skill",
    lead: "Write a one-tool skill, scan it, run it in the sandbox and publish it.",
    steps: PUBLISH_STEPS,
  },
  {
    slug: "pair",
    title: "Pair a Link",
    lead: "A Link is the machine where your skills' code runs, in a sandbox.",
    steps: PAIR_STEPS,
  },
  {
    slug: "agent",
    title: "Connect an agent",
    lead: "Give an agent a token and let it call installed skills over REST or MCP.",
    steps: AGENT_STEPS,
  },
];
