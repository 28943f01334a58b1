#!/usr/bin/env node
// Launcher for the authors' scanner CLI: runs lib/scan/cli.ts under tsx with this Node.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../lib/scan/cli.ts", import.meta.url));
const tsx = import.meta.resolve("tsx");
const r = spawnSync(process.execPath, ["--import", tsx, cli, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(r.status ?? 2);
