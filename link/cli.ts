// `openvibe-link`: the Link's command line. `exec` runs one tool locally in exactly the sandbox
// the Link uses for jobs and prints the job result as one JSON line.
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { LinkError } from "./errors";
import { copyLocalFolder, parseEntry } from "./inputs";
import { INPUT_MAX_BYTES, parseLimits, parseNetPolicy } from "./sandbox/policy";
import { Sandbox } from "./sandbox/run";

const USAGE = `usage: openvibe-link exec --entry FILE --input FILE [--net deny|openvibe-only|public] [--wall-ms N] [--mem-bytes N] DIR`;

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new LinkError("run.limits.invalid", `--${name} must be a whole number; got ${JSON.stringify(value)}.`);
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
    if (statSync(file).size > INPUT_MAX_BYTES) throw new LinkError("link.exec.input_too_large", `The input is over ${INPUT_MAX_BYTES} bytes.`);
    bytes = readFileSync(file);
  } catch (err) {
    if (err instanceof LinkError) throw err;
    throw new LinkError("link.exec.input_unreadable", `Cannot read the input ${file}: ${(err as Error).message}`);
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
    },
  });
  if (positionals.length !== 1 || !values.entry || !values.input) throw new LinkError("link.exec.usage", USAGE);
  const dir = path.resolve(positionals[0]!);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new LinkError("link.exec.dir_invalid", `${dir} is not a folder.`);
  const net = parseNetPolicy(values.net);
  const limits = parseLimits({ wall_ms: integer("wall-ms", values["wall-ms"]), mem_bytes: integer("mem-bytes", values["mem-bytes"]) });
  const entry = resolveEntry(dir, values.entry);
  const input = readInput(path.resolve(values.input));

  const sandbox = await Sandbox.create();
  const folder = sandbox.newJobFolder();
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

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = { exec };

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
    const code = err instanceof LinkError ? err.code : (err as NodeJS.ErrnoException).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? "link.exec.usage" : "link.internal";
    process.stderr.write(`${JSON.stringify({ error: { code, message: (err as Error).message } })}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
