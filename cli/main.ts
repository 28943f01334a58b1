// The `openvibe` command: `openvibe publish DIR` for authors, `openvibe verify SLUG@VERSION` for anyone.
import { parseArgs } from "node:util";
import { publishCommand } from "./publish";
import { verifyMain, VERIFY_USAGE } from "./verify";

const USAGE = `Usage: openvibe publish DIR [--server URL] [--token TOKEN] [--dry-run]

  DIR        a skill bundle: skill.json plus its resource files
  --server   the registry (default: $OPENVIBE_SERVER or http://localhost:3000)
  --token    a personal API token (default: $OPENVIBE_TOKEN); create one on the dashboard
  --dry-run  validate on the server without publishing

${VERIFY_USAGE}`;

export async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const out = { line: (t: string) => console.log(t), error: (t: string) => console.error(t) };
  if (argv[0] === "verify") return verifyMain(argv.slice(1), env, out);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        server: { type: "string" },
        token: { type: "string" },
        "dry-run": { type: "boolean" },
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
  if (command !== "publish" || !dir || rest.length) {
    out.error(USAGE);
    return 2;
  }
  const token = parsed.values.token ?? env.OPENVIBE_TOKEN;
  if (!token) {
    out.error("No API token: pass --token or set OPENVIBE_TOKEN (create one on the dashboard's Tokens page).");
    return 2;
  }
  return publishCommand(
    {
      dir,
      token,
      server: parsed.values.server ?? env.OPENVIBE_SERVER ?? "http://localhost:3000",
      dryRun: Boolean(parsed.values["dry-run"]),
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
