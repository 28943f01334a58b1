#!/usr/bin/env node
// Launcher in this checkout: runs the compiled CLI (cli/dist, made by cli/build.mjs: plain
// JavaScript, no TypeScript at run time) in this very process, so signals reach it directly.
import { existsSync } from "node:fs";

const cli = new URL("../cli/dist/openvibe-scan.mjs", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(`openvibe-scan is not built: run \`npm run build -w cli\` (${cli.pathname} is missing).\n`);
  process.exit(2);
}
await import(cli.href);
