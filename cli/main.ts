// The `openvibe` command: `openvibe publish DIR` for authors, `openvibe verify SLUG@VERSION` and
// `openvibe verify-run RUN.json` for anyone, `openvibe mcp` for agents.
// Each command's code is loaded when it is asked for (the bundle is split): `openvibe mcp`, which
// an MCP client starts, loads no scanner, and `runs` no MCP SDK.
import { parseArgs } from "node:util";
import { VERIFY_RUN_USAGE, VERIFY_USAGE } from "./usage";

const USAGE = `Usage: openvibe publish DIR [--server URL] [--token TOKEN] [--dry-run] [--version X.Y.Z]
       openvibe mcp [--server URL] [--token ova_…]
       openvibe install SKILL[@VERSION] | agents create NAME | runs [--server URL] [--token TOKEN]

  DIR        a skill bundle (skill.json plus its resource files) or an Agent Skills folder (SKILL.md)
  --server   the registry (default: $OPENVIBE_SERVER or http://localhost:3000)
  --token    publish: a personal API token (default: $OPENVIBE_TOKEN); create one on the dashboard
             mcp: an agent token (default: $OPENVIBE_AGENT_TOKEN); see the dashboard's Agents page
  --dry-run  validate on the server without publishing
  --version  the version of a SKILL.md folder whose front matter has no metadata.version

  install    install a skill (its latest version unless @VERSION); the token needs \`installs\`
  agents     create an agent and print its token once; the token needs \`agents\`
  runs       list your runs, newest first; the token needs \`runs:read\`

  mcp        a stdio MCP server for clients that only launch local servers: it forwards every
             message to the registry's /api/mcp as the agent the token belongs to

${VERIFY_USAGE}

${VERIFY_RUN_USAGE}`;

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const out = { line: (t: string) => console.log(t), error: (t: string) => console.error(t) };
  if (argv[0] === "verify") return (await import("./verify")).verifyMain(argv.slice(1), env, out);
  if (argv[0] === "verify-run") return (await import("./verify-run")).verifyRunMain(argv.slice(1), env, out);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        server: { type: "string" },
        token: { type: "string" },
        "dry-run": { type: "boolean" },
        version: { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (err) {
    out.error(`${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, dir, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    out.line(USAGE);
    return 0;
  }
  const server = parsed.values.server ?? env.OPENVIBE_SERVER ?? "http://localhost:3000";
  if (command === "mcp" && !dir)
    return (await import("./mcp")).mcpCommand({ server, token: parsed.values.token ?? env.OPENVIBE_AGENT_TOKEN });
  const account =
    (command === "install" && dir && !rest.length) ||
    (command === "agents" && dir === "create" && rest.length === 1) ||
    (command === "runs" && !dir);
  if (!account && (command !== "publish" || !dir || rest.length)) {
    out.error(USAGE);
    return 2;
  }
  const token = parsed.values.token ?? env.OPENVIBE_TOKEN;
  if (!token) {
    out.error("No API token: pass --token or set OPENVIBE_TOKEN (create one on the dashboard's Tokens page).");
    return 2;
  }
  if (command === "install" && dir) return (await import("./account")).installCommand({ server, token }, dir, out);
  if (command === "agents" && rest[0])
    return (await import("./account")).agentsCreateCommand({ server, token }, rest[0], out);
  if (command === "runs") return (await import("./account")).runsCommand({ server, token }, out);
  if (!dir) return 2;
  return (await import("./publish")).publishCommand(
    {
      dir,
      token,
      server,
      dryRun: Boolean(parsed.values["dry-run"]),
      version: parsed.values.version,
    },
    out,
  );
}

main(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`openvibe: ${(err as Error).message}`);
    process.exit(1);
  },
);
