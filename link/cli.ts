// `openvibe-link`: the Link's command line. `exec` runs one tool locally in exactly the sandbox
// the Link uses for jobs and prints the job result as one JSON line; `pair`, `skills`, `run` and
// `status` connect this machine to the registry (link/remote).
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { LinkError } from "./errors";
import { copyLocalFolder, parseEntry } from "./local-folder";
import { INPUT_MAX_BYTES, parseLimits, parseNetPolicy } from "./sandbox/policy";
import { Sandbox } from "./sandbox/run";
import { versionText } from "./version";

const EXEC_USAGE = `openvibe-link exec --entry FILE --input FILE [--net deny|openvibe-only|public] [--wall-ms N] [--mem-bytes N]
                         [--allow-host NAME]... [--map-host NAME=ADDRESS:PORT]... [--warm] DIR
                         (--warm: run it as \`run\` does, in a sandbox booted first; wall_ms then counts from the job)`;
const USAGE = `usage:
  openvibe-link pair CODE [--server URL] [--name NAME]   pair this machine (code from the dashboard's Links page)
  openvibe-link skills on|off                           turn the skill runner on or off (off until you turn it on)
  openvibe-link run [--pool] [--jobs N] [--memory MIB]  take jobs; --pool offers this machine to OpenVibe's pool (it serves
                                                        others only once an operator approves it); --jobs: how many run at
                                                        once, --memory: the MiB they may hold together (by default from
                                                        this machine's cores and memory, as \`doctor\` shows)
  openvibe-link status                                  show this Link and whether the server accepts it
  openvibe-link doctor                                  check this machine can sandbox tools, with the fix for each gap
  openvibe-link --version                               this Link's version and the runner it executes
  ${EXEC_USAGE}`;

// The commands that talk to the server, and doctor, are loaded when asked for: `exec` and
// `--version` then skip the protocol's message schemas, the HTTP client and the contracts' validator.
const remoteCommands = () => import("./remote/commands");

const HOST_NAME = /^(\*\.)?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** `--map-host api.openvibe.test=127.0.0.1:8080`: the egress proxy sends that name there (local testing). */
function parseHostMap(values: string[]): Record<string, string> {
  const hosts: Record<string, string> = {};
  for (const value of values) {
    const match = /^([^=]+)=(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\]):(\d{1,5})$/i.exec(value);
    if (!match || !HOST_NAME.test(match[1]!.toLowerCase()))
      throw new LinkError(
        "link.exec.map_host_invalid",
        `--map-host takes NAME=ADDRESS:PORT; got ${JSON.stringify(value)}.`,
      );
    hosts[match[1]!.toLowerCase()] = `${match[2]!.replace(/^\[|\]$/g, "")}:${match[3]}`;
  }
  return hosts;
}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value))
    throw new LinkError("run.limits.invalid", `--${name} must be a whole number; got ${JSON.stringify(value)}.`);
  return Number(value);
}

function resolveEntry(dir: string, entry: string): string {
  const candidates = [path.resolve(dir, entry), path.resolve(entry)];
  for (const candidate of candidates) {
    const relative = path.relative(dir, candidate);
    if (!relative.startsWith("..") && !path.isAbsolute(relative) && existsSync(candidate)) return parseEntry(relative);
  }
  throw new LinkError("link.exec.entry_invalid", `The entry ${JSON.stringify(entry)} is not a file inside ${dir}.`);
}

function readInput(file: string): Buffer {
  let bytes: Buffer;
  try {
    if (statSync(file).size > INPUT_MAX_BYTES)
      throw new LinkError("link.exec.input_too_large", `The input is over ${INPUT_MAX_BYTES} bytes.`);
    bytes = readFileSync(file);
  } catch (err) {
    if (err instanceof LinkError) throw err;
    throw new LinkError(
      "link.exec.input_unreadable",
      `Cannot read the input ${file}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  try {
    JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new LinkError("link.exec.input_invalid", `The input ${file} is not JSON.`);
  }
  return bytes;
}

async function exec(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      entry: { type: "string" },
      input: { type: "string" },
      net: { type: "string", default: "deny" },
      "wall-ms": { type: "string" },
      "mem-bytes": { type: "string" },
      "allow-host": { type: "string", multiple: true },
      "map-host": { type: "string", multiple: true },
      warm: { type: "boolean", default: false },
    },
  });
  if (positionals.length !== 1 || !values.entry || !values.input)
    throw new LinkError("link.exec.usage", `usage: ${EXEC_USAGE}`);
  const dir = path.resolve(positionals[0]!);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new LinkError("link.exec.dir_invalid", `${dir} is not a folder.`);
  const net = parseNetPolicy(values.net);
  const limits = parseLimits({
    wall_ms: integer("wall-ms", values["wall-ms"]),
    mem_bytes: integer("mem-bytes", values["mem-bytes"]),
  });
  const entry = resolveEntry(dir, values.entry);
  const input = readInput(path.resolve(values.input));
  const allowedHosts = values["allow-host"]?.map((host) => {
    if (!HOST_NAME.test(host.toLowerCase()))
      throw new LinkError(
        "link.exec.allow_host_invalid",
        `--allow-host takes a host name or *.domain; got ${JSON.stringify(host)}.`,
      );
    return host.toLowerCase();
  });
  const hosts = parseHostMap(values["map-host"] ?? []);

  const warm = values.warm === true;
  const sandbox = await Sandbox.create({ allowedHosts, hosts, warm, single: !warm });
  if (warm && !(await sandbox.warmUp({ net, limits }))) {
    process.stderr.write(
      `openvibe-link: no warm sandbox booted (${sandbox.warm?.lastError?.message ?? "unknown"}); running cold.\n`,
    );
  }
  const folder = warm ? sandbox.newJobFolder({ net, limits }) : sandbox.newJobFolder();
  try {
    copyLocalFolder(dir, folder.files);
    const result = await sandbox.run({ folder, entry, input, net, limits });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result.status === "ok" ? 0 : 1;
  } finally {
    await sandbox.close();
    sandbox.removeJobFolder(folder);
  }
}

const out = {
  line: (t: string) => process.stdout.write(`${t}\n`),
  error: (t: string) => process.stderr.write(`${t}\n`),
};

async function pairCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { server: { type: "string" }, name: { type: "string" } },
  });
  if (positionals.length !== 1) throw new LinkError("link.usage", USAGE);
  const server = values.server ?? process.env.OPENVIBE_SERVER ?? "http://localhost:3000";
  return (await remoteCommands()).pair({ code: positionals[0]!, server, name: values.name }, out);
}

async function skillsCommand(argv: string[]): Promise<number> {
  if (argv.length !== 1 || (argv[0] !== "on" && argv[0] !== "off")) throw new LinkError("link.usage", USAGE);
  return (await remoteCommands()).skills({ on: argv[0] === "on" }, out);
}

async function runCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { pool: { type: "boolean" }, jobs: { type: "string" }, memory: { type: "string" } },
  });
  if (positionals.length) throw new LinkError("link.usage", USAGE);
  const stop = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    out.line("▸ Stopping: finishing the running jobs first (press again to quit at once).");
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const whole = (name: string, value: string | undefined) => {
    if (value !== undefined && !/^\d+$/.test(value))
      throw new LinkError("link.usage", `--${name} takes a whole number; got ${JSON.stringify(value)}.`);
    return value === undefined ? undefined : Number(value);
  };
  return (await remoteCommands()).run(
    { pool: Boolean(values.pool), jobs: whole("jobs", values.jobs), memoryMib: whole("memory", values.memory) },
    out,
    stop.signal,
  );
}

async function statusCommand(argv: string[]): Promise<number> {
  if (argv.length) throw new LinkError("link.usage", USAGE);
  return (await remoteCommands()).status(out);
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  exec,
  pair: pairCommand,
  skills: skillsCommand,
  run: runCommand,
  status: statusCommand,
  doctor: async () => (await import("./doctor")).doctor(out),
  "--version": async () => {
    out.line(versionText());
    return 0;
  },
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const run = command ? COMMANDS[command] : undefined;
  if (!run) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    return await run(rest);
  } catch (err) {
    const nodeCode = err instanceof Error && "code" in err ? err.code : undefined;
    const code =
      err instanceof LinkError
        ? err.code
        : nodeCode === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
          ? "link.usage"
          : "link.internal";
    process.stderr.write(
      `${JSON.stringify({ error: { code, message: err instanceof Error ? err.message : String(err) } })}\n`,
    );
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
