#!/usr/bin/env node
// Launcher: runs the Link's TypeScript CLI with tsx on this Node, passing arguments and exit code through.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../cli.ts", import.meta.url));
const result = spawnSync(process.execPath, ["--import", "tsx", cli, ...process.argv.slice(2)], { stdio: "inherit" });
if (result.error) {
  process.stderr.write(`openvibe-link: ${result.error.message}\n`);
  process.exit(2);
}
process.exit(result.status ?? 1);
