// The trusted preload every tool runs first (`node --require /job/.openvibe/boot.cjs`), written
// into the job folder by the Link from this file (preload.ts fills in CONFIG). Before any tool code
// runs, it takes away what compiles or runs code at run time, or reaches past Node's permission
// model:
//   - the vm, worker_threads, child_process, inspector, cluster, repl, wasi, sqlite and test
//     modules, however they are asked for: require (with or without `node:`), import, import(),
//     createRequire, process.mainModule.require, Module._load, process.getBuiltinModule;
//   - imports of anything but the tool's files and allowed built-ins (`data:` and every other
//     scheme), and wasm or addon modules;
//   - process.binding, _linkedBinding, dlopen, execve, _debugProcess, _debugEnd;
//   - Module.prototype._compile of anything but a tool file's own text (and a patched wrapper),
//     and Module._load's internal shortcuts (a resolved module, its source, skipping the hooks);
//   - module.register / registerHooks (the hooks below stay the only ones), v8.setFlagsFromString;
//   - WebAssembly compiled from bytes, except, byte for byte, the modules Node's own fetch
//     compiles (llhttp), and only when the job has a network.
// Every replacement is non-writable and non-configurable, and every check runs on functions
// captured here, before the tool could touch them, so the tool can neither undo the preload nor
// steer its checks (a patched String.prototype method, a Proxy, a typed array with a new prototype).
"use strict";

const CONFIG = { net: "deny", proxySocket: "", proxyPort: 0, wasm: [] }; // openvibe:config

(function preload(config) {
  delete process.env.PWD;

  const { create, defineProperty, freeze, getOwnPropertyDescriptor, getPrototypeOf } = Object;
  const { apply, construct } = Reflect;
  const $Error = Error;
  const $TypeError = TypeError;
  const $Uint8Array = Uint8Array;
  const promiseReject = Promise.reject.bind(Promise);
  const isView = ArrayBuffer.isView;
  const uncurry = Function.prototype.bind.bind(Function.prototype.call);
  const startsWith = uncurry(String.prototype.startsWith);
  const indexOf = uncurry(String.prototype.indexOf);
  const slice = uncurry(String.prototype.slice);
  const getter = (proto, name) => uncurry(getOwnPropertyDescriptor(proto, name).get);
  const typedArray = getPrototypeOf($Uint8Array.prototype);
  const typedBuffer = getter(typedArray, "buffer");
  const typedOffset = getter(typedArray, "byteOffset");
  const typedLength = getter(typedArray, "byteLength");
  const viewBuffer = getter(DataView.prototype, "buffer");
  const viewOffset = getter(DataView.prototype, "byteOffset");
  const viewLength = getter(DataView.prototype, "byteLength");
  const bufferLength = getter(ArrayBuffer.prototype, "byteLength");
  const sharedLength = getter(SharedArrayBuffer.prototype, "byteLength");
  const compareBytes = Buffer.compare;
  const getBuiltin = process.getBuiltinModule;
  if (typeof getBuiltin !== "function") throw new $Error("The OpenVibe sandbox needs Node 22.15 or newer.");
  const builtin = (id) => apply(getBuiltin, process, [id]);
  const { readFileSync } = builtin("node:fs");
  const Module = builtin("node:module");
  if (typeof Module.registerHooks !== "function") throw new $Error("The OpenVibe sandbox needs Node 22.15 or newer (module.registerHooks).");

  function refusal(what) {
    const error = new $Error(`${what} is not available to tools in the OpenVibe sandbox`);
    defineProperty(error, "code", { value: "ERR_ACCESS_DENIED", writable: true, enumerable: true, configurable: true });
    return error;
  }
  const refuser = (what) =>
    function refused() {
      throw refusal(what);
    };
  const lock = (object, name, value) => {
    const enumerable = getOwnPropertyDescriptor(object, name)?.enumerable ?? false;
    defineProperty(object, name, { value, writable: false, enumerable, configurable: false });
  };

  const BLOCKED = create(null);
  for (const id of ["child_process", "cluster", "inspector", "inspector/promises", "repl", "sqlite", "test", "test/reporters", "vm", "wasi", "worker_threads"]) {
    BLOCKED[id] = true;
    BLOCKED[`node:${id}`] = true;
  }
  freeze(BLOCKED);

  let v8Locked = false;
  function lockV8() {
    if (v8Locked) return;
    v8Locked = true;
    lock(builtin("node:v8"), "setFlagsFromString", refuser("v8.setFlagsFromString"));
  }

  /** A module may come from the tool's files or be an allowed built-in; nothing else. */
  function checkURL(url) {
    if (typeof url !== "string") throw refusal("a module without a URL");
    if (startsWith(url, "file:")) return;
    if (startsWith(url, "node:")) {
      if (BLOCKED[url] === true) throw refusal(url);
      if (url === "node:v8") lockV8();
      return;
    }
    throw refusal(`importing ${slice(url, 0, indexOf(url, ":") + 1) || "this"} URLs`);
  }

  // In-thread hooks run for require(), import and import() alike, builtins included.
  Module.registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      checkURL(resolved.url);
      return resolved;
    },
    load(url, context, nextLoad) {
      checkURL(url);
      const loaded = nextLoad(url, context);
      if (loaded.format === "wasm" || loaded.format === "addon") throw refusal(`a ${loaded.format} module`);
      return loaded;
    },
  });
  lock(Module, "register", refuser("module.register"));
  lock(Module, "registerHooks", refuser("module.registerHooks"));
  // Node's own callers hand Module._load shortcuts as a fourth argument (`resolved`, `source`,
  // `shouldSkipModuleHooks`); from a tool they would step around the hooks, so they are dropped and
  // the module is resolved and read again, as under any patched Module._load.
  const load = Module._load;
  lock(Module, "_load", function _load(request, parent, isMain) {
    return apply(load, Module, [request, parent, isMain]);
  });

  lock(process, "getBuiltinModule", function getBuiltinModule(id) {
    if (typeof id === "string") {
      if (BLOCKED[id] === true) throw refusal(startsWith(id, "node:") ? id : `node:${id}`);
      if (id === "v8" || id === "node:v8") lockV8();
    }
    return apply(getBuiltin, process, [id]);
  });
  for (const name of ["binding", "_linkedBinding", "dlopen", "execve", "_debugProcess", "_debugEnd"]) {
    lock(process, name, refuser(`process.${name}`));
  }

  // The CJS loader compiles each file's text through _compile; anything else handed to it is code
  // made at run time. Once Module.wrap or Module.wrapper was ever set, Node compiles through
  // Module.wrap, so the wrapper in use must still be the original, holding its original text
  // (checked through descriptors: reading an element could run a getter the tool put there).
  const hasOwn = Object.hasOwn;
  const wrap = Module.wrap;
  const wrapper = Module.wrapper;
  const wrapperText = [wrapper[0], wrapper[1]];
  function originalWrapper() {
    if (Module.wrap !== wrap || Module.wrapper !== wrapper) return false;
    for (let i = 0; i < 2; i++) {
      const descriptor = getOwnPropertyDescriptor(wrapper, i);
      if (!descriptor || !hasOwn(descriptor, "value") || descriptor.value !== wrapperText[i]) return false;
    }
    return true;
  }
  const compile = Module.prototype._compile;
  function isToolFile(filename, content) {
    let text;
    try {
      text = readFileSync(filename, "utf8");
    } catch {
      return false;
    }
    return text === content || text === `\uFEFF${content}`;
  }
  lock(Module.prototype, "_compile", function _compile(content, filename, format) {
    const knownFormat = format === undefined || format === "commonjs" || format === "module";
    if (typeof content !== "string" || typeof filename !== "string" || !knownFormat || !originalWrapper() || !isToolFile(filename, content)) {
      throw refusal("compiling code that is not one of the tool's own files");
    }
    return apply(compile, this, [content, filename, format]);
  });

  // WebAssembly: bytes are compiled only when they equal, byte for byte, a module the Link allowed,
  // and what is compiled is then our copy, never the caller's buffer.
  const wasm = WebAssembly;
  const OriginalModule = wasm.Module;
  const originalCompile = wasm.compile;
  const originalInstantiate = wasm.instantiate;
  const moduleImports = OriginalModule.imports;
  const allowed = freeze(config.wasm.map((entry) => freeze({ file: String(entry.file), bytes: Number(entry.bytes) })));

  function viewOf(source) {
    if (isView(source)) {
      try {
        return new $Uint8Array(typedBuffer(source), typedOffset(source), typedLength(source));
      } catch {
        return new $Uint8Array(viewBuffer(source), viewOffset(source), viewLength(source));
      }
    }
    try {
      bufferLength(source);
    } catch {
      sharedLength(source);
    }
    return new $Uint8Array(source);
  }
  function trustedBytes(source) {
    let view;
    try {
      view = viewOf(source);
    } catch {
      throw new $TypeError("WebAssembly needs an ArrayBuffer or a view of one");
    }
    const length = typedLength(view);
    for (let i = 0; i < allowed.length; i++) {
      if (allowed[i].bytes !== length) continue;
      let bytes;
      try {
        bytes = readFileSync(allowed[i].file);
      } catch {
        continue;
      }
      if (compareBytes(view, bytes) === 0) return bytes;
    }
    throw refusal("compiling WebAssembly from bytes");
  }
  function isCompiledModule(value) {
    try {
      apply(moduleImports, undefined, [value]);
      return true;
    } catch {
      return false;
    }
  }

  function WasmModule(bytes, options) {
    if (new.target === undefined) throw new $TypeError("WebAssembly.Module must be called with new");
    return construct(OriginalModule, [trustedBytes(bytes), options], new.target);
  }
  defineProperty(WasmModule, "name", { value: "Module" });
  defineProperty(WasmModule, "prototype", { value: OriginalModule.prototype, writable: false, enumerable: false, configurable: false });
  for (const name of ["exports", "imports", "customSections"]) lock(WasmModule, name, OriginalModule[name]);
  lock(OriginalModule.prototype, "constructor", WasmModule);
  lock(wasm, "Module", WasmModule);
  lock(wasm, "compile", function compile(bytes, options) {
    let trusted;
    try {
      trusted = trustedBytes(bytes);
    } catch (error) {
      return promiseReject(error);
    }
    return apply(originalCompile, wasm, [trusted, options]);
  });
  lock(wasm, "instantiate", function instantiate(source, imports, options) {
    if (isCompiledModule(source)) return apply(originalInstantiate, wasm, [source, imports]);
    let trusted;
    try {
      trusted = trustedBytes(source);
    } catch (error) {
      return promiseReject(error);
    }
    return apply(originalInstantiate, wasm, [trusted, imports, options]);
  });
  lock(wasm, "compileStreaming", function compileStreaming() {
    return promiseReject(refusal("compiling WebAssembly from a stream"));
  });
  lock(wasm, "instantiateStreaming", function instantiateStreaming() {
    return promiseReject(refusal("compiling WebAssembly from a stream"));
  });
  freeze(wasm);
  defineProperty(globalThis, "WebAssembly", { value: wasm, writable: false, enumerable: false, configurable: false });

  // Under a net policy, 127.0.0.1:<port> inside the sandbox forwards to the Link's proxy socket.
  if (config.net !== "deny") {
    const net = builtin("node:net");
    const server = net.createServer((client) => {
      const upstream = net.connect(config.proxySocket);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    server.listen(config.proxyPort, "127.0.0.1");
    server.unref();
  }
})(CONFIG);
