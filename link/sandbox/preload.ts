// The per-job text of the trusted preload: preload.cjs with its CONFIG line filled in (the net
// policy, the proxy forwarder, the WebAssembly modules the job's Node may compile).
import { readFileSync } from "node:fs";
import { BOOT_FILE, SANDBOX_JOB, SANDBOX_PROXY_PORT, SANDBOX_PROXY_SOCKET } from "./bwrap";
import type { NetPolicy } from "./policy";

/** A WebAssembly module a job may compile: its file inside the sandbox and its length. */
export type AllowedWasm = { file: string; bytes: number };

const CONFIG_LINE = /^const CONFIG = .*; \/\/ openvibe:config$/m;
let source: string | undefined;

function preloadSource(): string {
  source ??= readFileSync(new URL("./preload.cjs", import.meta.url), "utf8");
  if (!CONFIG_LINE.test(source)) throw new Error("preload.cjs has no CONFIG line");
  return source;
}

/** Where the job folder holds its allowed WebAssembly modules (next to the preload). */
export function wasmFileName(index: number): string {
  return `${BOOT_FILE.slice(0, BOOT_FILE.lastIndexOf("/"))}/fetch-${index}.wasm`;
}

export function bootScript(net: NetPolicy, wasm: readonly AllowedWasm[] = []): string {
  const config = {
    net,
    proxySocket: SANDBOX_PROXY_SOCKET,
    proxyPort: SANDBOX_PROXY_PORT,
    wasm: net === "deny" ? [] : wasm,
  };
  return preloadSource().replace(CONFIG_LINE, () => `const CONFIG = ${JSON.stringify(config)}; // openvibe:config`);
}

let warmSource: string | undefined;

/** The main script of a warm sandbox (warm.cjs), the same for every job. */
export function warmScript(): string {
  warmSource ??= readFileSync(new URL("./warm.cjs", import.meta.url), "utf8");
  return warmSource;
}

/** The in-sandbox path of allowed module `index`. */
export function sandboxWasmPath(index: number): string {
  return `${SANDBOX_JOB}/${wasmFileName(index)}`;
}
