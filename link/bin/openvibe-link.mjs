#!/usr/bin/env node
// Launcher: runs the Link's compiled CLI (dist/, made by build.mjs: plain JavaScript, no TypeScript
// at run time) in this very process, so signals reach it directly and no orphan is left behind.
import { existsSync } from "node:fs";

const cli = new URL("../dist/openvibe-link.mjs", import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(`openvibe-link is not built: run \`npm run build -w link\` (${cli.pathname} is missing).\n`);
  process.exit(2);
}
await import(cli.href);
