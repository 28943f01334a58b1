// The well-known names: globals, modules and the paths under them that each rule is about, and how
// aliases of one path (node:fs, require.main, module.constructor …) are brought to one spelling.
import { type RuleId } from "../rules";
import { builtinModules } from "node:module";

export const GLOBAL_NAME_LIST: Record<string, string> = {
  process: "process",
  globalThis: "global",
  global: "global",
  window: "global",
  self: "global",
  frames: "global",
  require: "require",
  module: "module",
  eval: "eval",
  Function: "Function",
  fetch: "fetch",
  XMLHttpRequest: "XMLHttpRequest",
  WebSocket: "WebSocket",
  EventSource: "EventSource",
  navigator: "navigator",
  setTimeout: "setTimeout",
  setInterval: "setInterval",
  setImmediate: "setImmediate",
  atob: "atob",
  btoa: "btoa",
  Buffer: "Buffer",
  String: "String",
  Object: "Object",
  Reflect: "Reflect",
  Math: "Math",
  JSON: "JSON",
  Array: "Array",
  Number: "Number",
  URL: "URL",
  decodeURIComponent: "decodeURIComponent",
  decodeURI: "decodeURI",
  unescape: "unescape",
  parseInt: "parseInt",
  WebAssembly: "WebAssembly",
  Proxy: "Proxy",
  Symbol: "Symbol",
  Date: "Date",
  RegExp: "RegExp",
  Promise: "Promise",
  Boolean: "Boolean",
  console: "console",
  TextDecoder: "TextDecoder",
  Uint8Array: "Uint8Array",
  queueMicrotask: "queueMicrotask",
  Atomics: "Atomics",
};

export const GLOBAL_NAMES = new Map(Object.entries(GLOBAL_NAME_LIST));

/** Objects whose properties are not functions: `.constructor` of them is an ordinary constructor. */
export const OBJECT_REFS = new Set([
  "process",
  "global",
  "module",
  "Math",
  "JSON",
  "Reflect",
  "console",
  "navigator",
  "fs",
  "fs.promises",
  "WebAssembly",
]);
/** A computed, unresolvable property on one of these fails closed. */
export const SENSITIVE_ROOTS = new Set([
  "process",
  "global",
  "module",
  "Module",
  "require",
  "fs",
  "fs.promises",
  "process.mainModule",
]);

export const FORBIDDEN_MODULES = new Set([
  "child_process",
  "vm",
  "worker_threads",
  "cluster",
  "inspector",
  "wasi",
  "repl",
  "v8",
  "trace_events",
  "module.register",
]);
/** Ways into Node's module loader that can load code the module graph does not follow. */
export const MODULE_LOADER = new Set([
  "createRequire",
  "require.extensions",
  "module.paths",
  "module.load",
  "Module.Module",
  "Module.findPackageJSON",
  "Module.syncBuiltinESMExports",
  "Module.globalPaths",
  "Module.runMain",
  "Module.wrap",
  "Module.wrapper",
  "import.meta.resolve",
]);
export const NET_MODULES = new Set([
  "http",
  "https",
  "http2",
  "net",
  "tls",
  "dgram",
  "dns",
  "dns.promises",
  "undici",
  "tty",
]);
export const NET_GLOBALS = new Set(["fetch", "XMLHttpRequest", "WebSocket", "EventSource", "navigator.sendBeacon"]);
export const FS_WRITE = new Set(
  (
    "writeFile writeFileSync appendFile appendFileSync mkdir mkdirSync mkdtemp mkdtempSync rm rmSync rmdir rmdirSync " +
    "unlink unlinkSync rename renameSync symlink symlinkSync link linkSync copyFile copyFileSync cp cpSync truncate " +
    "truncateSync ftruncate ftruncateSync chmod chmodSync lchmod lchmodSync fchmod fchmodSync chown chownSync lchown " +
    "lchownSync fchown fchownSync utimes utimesSync futimes futimesSync lutimes lutimesSync write writeSync writev " +
    "writevSync createWriteStream WriteStream fsync fsyncSync fdatasync fdatasyncSync"
  ).split(" "),
);
export const FS_OPEN = new Set(["open", "openSync"]);
export const STDIO_WRITES = new Set(["writeSync", "write", "writeFileSync", "appendFileSync"]);
export const READ_FLAGS = new Set(["r", "rs", "sr"]);
export const ITER_METHODS = new Set([
  "forEach",
  "map",
  "filter",
  "reduce",
  "reduceRight",
  "some",
  "every",
  "find",
  "findIndex",
  "findLast",
  "findLastIndex",
  "flatMap",
]);
export const FN_REFS_SAFE_CALL = new Set([
  "console.log",
  "console.error",
  "console.warn",
  "console.info",
  "console.debug",
]);

export const BUILTINS = new Set(builtinModules);

/** Node's own modules: `node:` anything (Node refuses an unknown one) and the bare builtin names. */
export function isBuiltinModule(spec: string): boolean {
  return spec.startsWith("node:") || BUILTINS.has(spec);
}

export function normalizeModule(spec: string): string {
  let s = spec.startsWith("node:") ? spec.slice(5) : spec;
  if (s === "fs/promises") s = "fs.promises";
  else if (s === "dns/promises") s = "dns.promises";
  else if (s === "timers/promises") s = "timersp";
  else if (s === "module") s = "Module";
  else if (s.startsWith("child_process/") || s.startsWith("worker_threads/")) s = s.split("/")[0]!;
  return s;
}

export const NORMALIZE_ROOTS = new Set(["global", "process", "require", "module", "Module", "timers", "Function"]);

export function normalizePath(p: string): string {
  const dot = p.indexOf(".");
  if (dot === -1) return p;
  const root = p.slice(0, dot);
  if (!NORMALIZE_ROOTS.has(root) && !p.endsWith(".default")) return p;
  const rest = p.slice(dot + 1);
  if (root === "global") {
    const first = rest.split(".")[0]!;
    const g = GLOBAL_NAMES.get(first);
    if (g !== undefined) return normalizePath(g + rest.slice(first.length));
    return p;
  }
  if (p.startsWith("process.mainModule")) return normalizePath("module" + p.slice("process.mainModule".length));
  if (p.startsWith("require.main")) return normalizePath("module" + p.slice("require.main".length));
  if (p.startsWith("module.constructor")) return normalizePath("Module" + p.slice("module.constructor".length));
  if (root === "module" || root === "Module") {
    const last = p.slice(p.lastIndexOf(".") + 1);
    if (p.startsWith("module.exports")) return p;
    if (last === "require" || last === "_load") return "require";
    if (last === "createRequire" || last === "createRequireFromPath") return "createRequire";
    if (last === "register") return "module.register";
    if (p.startsWith("module.parent") || p.startsWith("module.children")) return "module";
  }
  if (p === "process.getBuiltinModule") return "require";
  if (root === "timers" && (rest === "setTimeout" || rest === "setInterval" || rest === "setImmediate")) return rest;
  if (p.endsWith(".default") && !p.startsWith("module.exports")) return normalizePath(p.slice(0, -8));
  if (p.startsWith("Function.prototype.constructor")) return "Function";
  return p;
}

export const RULE_CACHE = new Map<string, RuleId | null>();
export function basePathRule(p: string): RuleId | null {
  if (p === "process.env" || p.startsWith("process.env.")) return "env.read";
  if (p === "eval" || p === "Function") return "code.eval";
  if (p === "process.binding" || p === "process._linkedBinding" || p === "process.dlopen" || p === "process.reallyExit")
    return "process.native";
  if (p === "process.execve" || p === "process._fork") return "process.spawn";
  if (p === "WebAssembly" || p.startsWith("WebAssembly.")) return "module.forbidden";
  if (p === "module.register") return "module.forbidden";
  if (
    MODULE_LOADER.has(p) ||
    p.startsWith("Module._") ||
    p.startsWith("require.resolve") ||
    p.startsWith("require.cache")
  )
    return "module.loader";
  const dot = p.indexOf(".");
  const root = dot === -1 ? p : p.slice(0, dot);
  if (FORBIDDEN_MODULES.has(root)) return "module.forbidden";
  if (p.startsWith("fs.")) {
    const last = p.slice(p.lastIndexOf(".") + 1);
    if (FS_WRITE.has(last)) return "fs.write";
  }
  if (NET_GLOBALS.has(p) || NET_MODULES.has(p)) return "net.use";
  return null;
}
