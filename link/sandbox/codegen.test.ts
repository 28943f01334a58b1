// The trusted preload in the real sandbox: a tool cannot generate or run code at run time, nor
// load the modules that would let it, whichever way it asks, and cannot undo the preload. Each
// refusal must be the preload's own (its message), not only Node's permission model further on.
import { writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobResult, NetPolicy } from "./policy";
import { Sandbox } from "./run";

const REFUSED = /OpenVibe sandbox/;
const BLOCKED = ["vm", "worker_threads", "child_process", "inspector", "cluster"] as const;
/** The smallest valid WebAssembly module: magic and version. */
const EMPTY_WASM = "new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])";
const TEST_HOST = "api.openvibe.test";

let sandbox: Sandbox;
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end(JSON.stringify({ fetched: true })));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  sandbox = await Sandbox.create({ allowedHosts: [TEST_HOST], hosts: { [TEST_HOST]: `127.0.0.1:${port}` } });
});

afterAll(async () => {
  await sandbox.close();
  server.close();
});

/** Runs a tool made of `files` (the entry first) and returns the job result. */
async function runFiles(files: Record<string, string>, net: NetPolicy = "deny"): Promise<JobResult> {
  const folder = sandbox.newJobFolder();
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(folder.files, name), text);
  try {
    return await sandbox.run({ folder, entry: Object.keys(files)[0]!, input: Buffer.from("{}"), net, limits: { wall_ms: 15_000, mem_bytes: 134_217_728 } });
  } finally {
    await sandbox.idle();
    sandbox.removeJobFolder(folder);
  }
}

/** A CJS tool that runs each attempt and reports `{ got }` or `{ denied: "CODE message" }`. */
const attempts = (body: string) => `
const out = {};
const attempt = async (name, fn) => { try { const got = await fn(); out[name] = { got: typeof got === "object" || typeof got === "function" ? typeof got : got }; } catch (e) { out[name] = { denied: String(e && e.code) + " " + String(e && e.message) }; } };
(async () => { ${body}
  process.stdout.write(JSON.stringify(out));
})();`;

type Outcomes = Record<string, { got?: unknown; denied?: string }>;

function expectRefusedByPreload(result: JobResult): Outcomes {
  expect(result.status, result.stderr).toBe("ok");
  const output = result.output as Outcomes;
  expect(Object.keys(output).length).toBeGreaterThan(0);
  for (const [name, outcome] of Object.entries(output)) {
    expect(outcome, name).toHaveProperty("denied");
    expect(outcome.denied, name).toMatch(REFUSED);
  }
  return output;
}

describe("the preload refuses", () => {
  it.each(BLOCKED)("node:%s whichever way it is loaded", async (id) => {
    const result = await runFiles({
      "tool.js": attempts(`
        const Module = require("node:module");
        await attempt("require", () => require(${JSON.stringify(id)}));
        await attempt("requirePrefixed", () => require("node:${id}"));
        await attempt("mainModuleRequire", () => process.mainModule.require(${JSON.stringify(id)}));
        await attempt("constructorLoad", () => module.constructor._load(${JSON.stringify(id)}));
        await attempt("moduleLoad", () => Module._load("node:${id}", module));
        await attempt("moduleLoadSkippingHooks", () => Module._load(${JSON.stringify(id)}, module, false, { shouldSkipModuleHooks: true }));
        await attempt("moduleLoadResolved", () => Module._load(${JSON.stringify(id)}, module, false, { resolved: { url: "node:${id}", format: "builtin", filename: ${JSON.stringify(id)} }, shouldSkipModuleHooks: true }));
        await attempt("prototypeRequire", () => Module.prototype.require.call(module, ${JSON.stringify(id)}));
        await attempt("createRequire", () => Module.createRequire(__filename)(${JSON.stringify(id)}));
        await attempt("createRequireElsewhere", () => Module.createRequire("/job/nowhere/x.js")("node:${id}"));
        await attempt("getBuiltinModule", () => process.getBuiltinModule(${JSON.stringify(id)}));
        await attempt("getBuiltinModulePrefixed", () => process.getBuiltinModule("node:${id}"));
        await attempt("dynamicImport", () => import(${JSON.stringify(id)}));
        await attempt("dynamicImportPrefixed", () => import("node:${id}"));
        await attempt("staticImport", () => import("./static.mjs"));
        await attempt("esmCreateRequire", () => import("./esm-require.mjs"));
        await attempt("esmGetBuiltin", () => import("./esm-builtin.mjs"));
        await attempt("requireEsm", () => require("./static.mjs"));
        await attempt("requireCacheFake", () => { require.cache[${JSON.stringify(id)}] = { id: "x", loaded: true, exports: {} }; require.cache["node:${id}"] = require.cache[${JSON.stringify(id)}]; return require(${JSON.stringify(id)}); });
        await attempt("requireCacheCleared", () => { for (const key of Object.keys(require.cache)) delete require.cache[key]; return require("node:${id}"); });`),
      "static.mjs": `import * as m from "node:${id}"; export default m;`,
      "esm-require.mjs": `import { createRequire } from "node:module"; export default createRequire(import.meta.url)("${id}");`,
      "esm-builtin.mjs": `export default process.getBuiltinModule("${id}");`,
    });
    expectRefusedByPreload(result);
  });

  it("vm.runInNewContext, the hole the permission model leaves open", async () => {
    const result = await runFiles({ "tool.js": attempts(`await attempt("runInNewContext", () => require("vm").runInNewContext("1 + 1"));`) });
    expectRefusedByPreload(result);
  });

  it("process.binding, _linkedBinding, dlopen, execve and the inspector signal", async () => {
    const result = await runFiles({
      "tool.js": attempts(`
        await attempt("binding", () => process.binding("fs"));
        await attempt("bindingNatives", () => process.binding("natives"));
        await attempt("linkedBinding", () => process._linkedBinding("fs"));
        await attempt("dlopen", () => process.dlopen({ exports: {} }, "/job/addon.node"));
        await attempt("execve", () => process.execve("/usr/bin/node", ["node", "-e", "0"]));
        await attempt("debugProcess", () => process._debugProcess(1));
        await attempt("debugEnd", () => process._debugEnd());`),
    });
    expectRefusedByPreload(result);
  });

  it("the inspector through SIGUSR1 (the permission model and --disable-sigusr1: it never listens)", async () => {
    const result = await runFiles({
      "tool.js": `process.kill(process.pid, "SIGUSR1");
        setTimeout(() => {
          const socket = require("node:net").connect(9229, "127.0.0.1", () => { process.stdout.write('{"inspector":"listening"}'); socket.destroy(); });
          socket.on("error", (e) => process.stdout.write(JSON.stringify({ inspector: e.code })));
        }, 300);`,
    });
    expect(result).toMatchObject({ status: "ok", output: { inspector: "ECONNREFUSED" } });
  });

  it("imports that are not the tool's files: data:, http:, blob:, however they are written", async () => {
    const result = await runFiles({
      "tool.js": attempts(`
        await attempt("dataImport", () => import("data:text/javascript,export default 42"));
        await attempt("dataImportBase64", () => import("data:text/javascript;base64," + Buffer.from("export default 42").toString("base64")));
        await attempt("dataJson", () => import('data:application/json,{"a":1}', { with: { type: "json" } }));
        await attempt("staticData", () => import("./data.mjs"));
        await attempt("httpImport", () => import("http://${TEST_HOST}/x.js"));
        await attempt("blobImport", () => import(URL.createObjectURL(new Blob(["export default 42"], { type: "text/javascript" }))));
        await attempt("requireData", () => require("data:text/javascript,module.exports=42"));`),
      "data.mjs": `export { default } from "data:text/javascript,export default 42";`,
    });
    const output = result.output as Outcomes;
    expect(result.status, result.stderr).toBe("ok");
    for (const [name, outcome] of Object.entries(output)) expect(outcome, name).toHaveProperty("denied");
    // Node itself refuses a require of data: (there is no such file); the rest are ours.
    for (const name of ["dataImport", "dataImportBase64", "dataJson", "staticData", "httpImport", "blobImport"]) expect(output[name]!.denied, name).toMatch(REFUSED);
  });

  it("WebAssembly compiled from bytes, in every form", async () => {
    const result = await runFiles({
      "tool.js": attempts(`
        const bytes = ${EMPTY_WASM};
        await attempt("moduleCtor", () => new WebAssembly.Module(bytes));
        await attempt("moduleFromBuffer", () => new WebAssembly.Module(bytes.buffer));
        await attempt("moduleFromDataView", () => new WebAssembly.Module(new DataView(bytes.buffer)));
        await attempt("compile", () => WebAssembly.compile(bytes));
        await attempt("instantiate", () => WebAssembly.instantiate(bytes));
        await attempt("compileStreaming", () => WebAssembly.compileStreaming(new Response(bytes, { headers: { "content-type": "application/wasm" } })));
        await attempt("instantiateStreaming", () => WebAssembly.instantiateStreaming(new Response(bytes, { headers: { "content-type": "application/wasm" } })));
        await attempt("disguisedAsModule", () => { const fake = new Uint8Array(bytes); Object.setPrototypeOf(fake, WebAssembly.Module.prototype); return WebAssembly.instantiate(fake); });
        await attempt("constructorOfPrototype", () => new WebAssembly.Module.prototype.constructor(bytes));
        await attempt("subclass", () => new (class extends WebAssembly.Module {})(bytes));
        await attempt("wasmModuleImport", () => import("./empty.wasm"));`),
      "empty.wasm": "\0asm\u0001\0\0\0",
    });
    expectRefusedByPreload(result);
  });

  it("compiling text that is not one of the tool's files through the CJS loader", async () => {
    const result = await runFiles({
      "tool.js": attempts(`
        const Module = module.constructor;
        await attempt("compileString", () => { const m = new Module("/job/x.js"); m._compile("module.exports = 42", "/job/x.js"); return m.exports; });
        await attempt("compileOverFile", () => { const m = new Module("/job/tool.js"); m._compile("module.exports = 42", "/job/tool.js"); return m.exports; });
        await attempt("compileAsModule", () => { const m = new Module("/job/x.mjs"); m._compile("export default 42", "/job/x.mjs", "module"); return m.exports; });
        await attempt("extensionHandler", () => { Module._extensions[".txt"] = (m, file) => m._compile("module.exports = 42", file); return require("./note.txt"); });
        await attempt("patchedWrap", () => { Module.wrap = (script) => "(function (exports, require, module) { module.exports = 'patched'; })"; return require("./other.js"); });
        await attempt("registerHooks", () => Module.registerHooks({ load: (url, context, next) => next(url, context) }));
        await attempt("register", () => Module.register("data:text/javascript,export {}"));
        await attempt("setFlags", () => require("v8").setFlagsFromString("--allow-natives-syntax"));
        await attempt("setFlagsImported", async () => (await import("node:v8")).setFlagsFromString("--allow-natives-syntax"));
        await attempt("setFlagsBuiltin", () => process.getBuiltinModule("v8").setFlagsFromString("--allow-natives-syntax"));
        await attempt("repl", () => require("node:repl"));
        await attempt("wasi", () => require("node:wasi"));
        await attempt("testRunner", () => require("node:test"));`),
      "note.txt": "module.exports = 'a note';",
      "other.js": "module.exports = 'other';",
    });
    expectRefusedByPreload(result);
  });

  it("Module._load's internal shortcuts: a source handed to it is ignored, the file's own text loads", async () => {
    const result = await runFiles({
      "tool.js": `const loaded = module.constructor._load("/job/other.js", module, false, { resolved: { url: "file:///job/other.js", format: "commonjs", filename: "/job/other.js" }, shouldSkipModuleHooks: true, source: "module.exports = 42" });
        process.stdout.write(JSON.stringify({ loaded }));`,
      "other.js": "module.exports = 'other';",
    });
    expect(result).toMatchObject({ status: "ok", output: { loaded: "other" } });
  });

  it("the patched wrapper text, even once set back", async () => {
    const result = await runFiles({
      "tool.js": attempts(`
        const Module = module.constructor;
        const original = Module.wrapper[0];
        await attempt("patchedWrapper", () => { Module.wrapper[0] = original + "module.exports = 'patched';"; return require("./other.js"); });
        await attempt("getterWrapper", () => { let n = 0; Object.defineProperty(Module.wrapper, 0, { get: () => (n++ ? original + "module.exports = 'patched';" : original) }); return require("./other2.js"); });`),
      "other.js": "module.exports = 'other';",
      "other2.js": "module.exports = 'other2';",
    });
    expectRefusedByPreload(result);
  });
});

describe("the tool cannot undo the preload", () => {
  it("by deleting, assigning or redefining what it replaced", async () => {
    const result = await runFiles({
      "tool.js": attempts(`
        const Module = require("node:module");
        const tryAll = (fn) => { try { fn(); } catch {} };
        tryAll(() => delete process.binding);
        tryAll(() => { process.binding = () => "mine"; });
        tryAll(() => Object.defineProperty(process, "getBuiltinModule", { value: () => "mine" }));
        tryAll(() => { WebAssembly.Module = function () {}; });
        tryAll(() => { globalThis.WebAssembly = {}; });
        tryAll(() => Object.defineProperty(globalThis, "WebAssembly", { value: {} }));
        tryAll(() => { Module.registerHooks = () => {}; });
        tryAll(() => { Module.prototype._compile = function () {}; });
        tryAll(() => Object.setPrototypeOf(WebAssembly, {}));
        await attempt("binding", () => process.binding("fs"));
        await attempt("getBuiltinModule", () => process.getBuiltinModule("vm"));
        await attempt("wasm", () => new WebAssembly.Module(${EMPTY_WASM}));
        await attempt("registerHooks", () => Module.registerHooks({}));
        await attempt("compile", () => { const m = new Module("/job/x.js"); m._compile("module.exports = 1", "/job/x.js"); });`),
    });
    expectRefusedByPreload(result);
  });

  it("by patching the built-ins its checks use", async () => {
    const result = await runFiles({
      "tool.js": attempts(`
        String.prototype.startsWith = () => true;
        String.prototype.indexOf = () => 4;
        Object.hasOwn = () => true;
        Object.getOwnPropertyDescriptor = () => ({ value: "x" });
        Reflect.apply = (fn, self, args) => fn(...args);
        Buffer.compare = () => 0;
        ArrayBuffer.isView = () => false;
        Object.defineProperty(Uint8Array.prototype, "byteLength", { get: () => 8 });
        require("node:fs").readFileSync = () => Buffer.from([0, 97, 115, 109, 1, 0, 0, 0]);
        await attempt("dataImport", () => import("data:text/javascript,export default 42"));
        await attempt("vm", () => require("vm"));
        await attempt("wasm", () => new WebAssembly.Module(${EMPTY_WASM}));
        await attempt("compile", () => { const m = new module.constructor("/job/x.js"); m._compile("module.exports = 1", "/job/x.js"); });`),
    });
    expectRefusedByPreload(result);
  });

  it("and reaches none of the originals through what it can see", async () => {
    const result = await runFiles({
      "tool.js": `
        const proto = WebAssembly.Module.prototype;
        const out = {
          constructorIsWrapper: proto.constructor === WebAssembly.Module,
          frozen: Object.isFrozen(WebAssembly),
          bindingLocked: !Object.getOwnPropertyDescriptor(process, "binding").configurable,
          registerHooksLocked: !Object.getOwnPropertyDescriptor(require("node:module"), "registerHooks").writable,
        };
        process.stdout.write(JSON.stringify(out));`,
    });
    expect(result).toMatchObject({ status: "ok", output: { constructorIsWrapper: true, frozen: true, bindingLocked: true, registerHooksLocked: true } });
  });
});

describe("what a tool may still do", () => {
  it("loads its own CJS and ESM files in every combination, JSON, a BOM and a shebang", async () => {
    const result = await runFiles({
      "main.mjs": `
        import cjs from "./lib.cjs";
        import data from "./data.json" with { type: "json" };
        import { createRequire } from "node:module";
        import { getHeapStatistics } from "node:v8";
        const require = createRequire(import.meta.url);
        const esm = require("./lib-esm.mjs");
        const detected = await import("./detected.js");
        const bom = require("./bom.js");
        const shebang = require("./shebang.js");
        const fs = process.getBuiltinModule("node:fs");
        process.stdout.write(JSON.stringify({ cjs, data, esm: esm.default, detected: detected.default, bom, shebang, heap: getHeapStatistics().total_heap_size > 0, fs: typeof fs.readFileSync, validate: WebAssembly.validate(${EMPTY_WASM}) }));`,
      "lib.cjs": `module.exports = require("./inner.js") + 1;`,
      "inner.js": `module.exports = 41;`,
      "data.json": `{"a":1}`,
      "lib-esm.mjs": `export default "esm";`,
      "detected.js": `export default "detected";`,
      "bom.js": `\uFEFFmodule.exports = "bom";`,
      "shebang.js": `#!/usr/bin/env node\nmodule.exports = "shebang";`,
    });
    expect(result, result.stderr).toMatchObject({
      status: "ok",
      output: { cjs: 42, data: { a: 1 }, esm: "esm", detected: "detected", bom: "bom", shebang: "shebang", heap: true, fs: "function", validate: true },
    });
  });

  it("uses fetch under a net policy: the WebAssembly Node's own fetch compiles is let through, byte for byte", async () => {
    const result = await runFiles(
      {
        "tool.js": attempts(`
          await attempt("fetch", async () => (await (await fetch("http://${TEST_HOST}/")).json()).fetched);
          await attempt("otherWasm", () => new WebAssembly.Module(${EMPTY_WASM}));`),
      },
      "openvibe-only",
    );
    expect(result.status, result.stderr).toBe("ok");
    const output = result.output as Outcomes;
    expect(output.fetch).toEqual({ got: true });
    expect(output.otherWasm!.denied).toMatch(REFUSED);
  });
});
