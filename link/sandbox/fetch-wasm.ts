// The WebAssembly modules Node's own fetch compiles (undici's HTTP parser, llhttp). The preload
// refuses WebAssembly compiled from bytes except these, byte for byte, so they are taken from the
// tool Node itself: a probe run of that Node records what fetch hands to WebAssembly while it
// makes one request to a server of its own on loopback. The probe costs a few hundred ms, so its
// result is kept in the Link's folder, keyed by the Node binary, and hard-linked into each job.
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { EMPTY_ENV } from "./bwrap";

/** One module as the Link keeps it: the host file and its length. */
export type WasmFile = { file: string; bytes: number };

const PROBE = `
const seen = [];
const record = (bytes) => { try { seen.push(Buffer.from(ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes)).toString("base64")); } catch {} };
const W = WebAssembly, Original = W.Module, compile = W.compile, instantiate = W.instantiate;
W.Module = function Module(bytes, options) { record(bytes); return Reflect.construct(Original, [bytes, options], new.target === W.Module ? Original : new.target); };
W.Module.prototype = Original.prototype;
Object.assign(W.Module, { exports: Original.exports, imports: Original.imports, customSections: Original.customSections });
W.compile = (bytes, options) => { record(bytes); return compile(bytes, options); };
W.instantiate = (source, ...rest) => { if (!(source instanceof Original)) record(source); return instantiate(source, ...rest); };
const server = require("node:http").createServer((req, res) => res.end("ok"));
server.listen(0, "127.0.0.1", async () => {
  try { await (await fetch("http://127.0.0.1:" + server.address().port + "/")).text(); }
  finally { server.close(); process.stdout.write(JSON.stringify([...new Set(seen)])); process.exit(0); }
});`;

/**
 * The modules fetch compiles in `node`, as files under `base` (probed once per Node binary; the
 * folder is made whole, then renamed into place, so a half-written one is never used).
 */
export async function fetchWasmFiles(node: string, base: string, probe: (node: string) => Promise<Buffer[]> = fetchWasmModules): Promise<WasmFile[]> {
  const real = realpathSync(node);
  const stat = statSync(real);
  const key = createHash("sha256").update(`${real}\0${stat.dev}\0${stat.ino}\0${stat.size}\0${stat.mtimeMs}\0${PROBE}`).digest("hex").slice(0, 24);
  const cache = path.join(base, "fetch-wasm");
  const dir = path.join(cache, key);
  if (!existsSync(dir)) {
    const modules = await probe(real);
    mkdirSync(cache, { recursive: true, mode: 0o711 });
    const partial = path.join(cache, `.${key}-${randomBytes(4).toString("hex")}`);
    mkdirSync(partial, { mode: 0o711 });
    modules.forEach((bytes, i) => writeFileSync(path.join(partial, `${i}.wasm`), bytes, { mode: 0o444 }));
    chmodSync(partial, 0o711);
    try {
      renameSync(partial, dir);
    } catch {
      rmSync(partial, { recursive: true, force: true }); // Another Link finished first; its copy is the same.
    }
  }
  return readdirSync(dir)
    .filter((name) => /^\d+\.wasm$/.test(name))
    .sort()
    .map((name) => ({ file: path.join(dir, name), bytes: statSync(path.join(dir, name)).size }));
}

/** Runs the probe with the tool Node; resolves with each module's bytes (none if fetch needs none). */
export function fetchWasmModules(node: string): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    execFile(node, ["-e", PROBE], { env: EMPTY_ENV, timeout: 20_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
      if (err) return reject(new Error(`the fetch probe failed: ${err.message}`));
      try {
        const modules = JSON.parse(stdout) as unknown;
        if (!Array.isArray(modules) || !modules.every((m) => typeof m === "string")) throw new Error("not a list");
        resolve(modules.map((m) => Buffer.from(m, "base64")));
      } catch (parseError) {
        reject(new Error(`the fetch probe answered badly: ${(parseError as Error).message}`));
      }
    });
  });
}
