#!/usr/bin/env node
// Launcher: loads the scanner's TypeScript CLI through tsx in this very process, so signals reach it
// directly and no orphan is left behind when the launcher is killed.
import { register } from "tsx/esm/api";

register();
await import(new URL("../lib/scan/cli.ts", import.meta.url).href);
