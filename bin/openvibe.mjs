#!/usr/bin/env node
// Launcher for the authors' CLI (`openvibe publish DIR`): runs cli/main.ts under tsx with this Node.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
const tsx = import.meta.resolve("tsx");
const r = spawnSync(process.execPath, ["--import", tsx, cli, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(r.status ?? 2);
