// @ts-check
// The production web server (`npm start`, the e2e suite, the container's `web`): Next.js, with the
// calls on every tool call's path (an agent's step and its long poll, MCP, and a Link's poll, start,
// inputs and result) handed straight to their route handlers. Those are the compiled modules Next.js
// itself loads, so the process holds one copy of every lib/ module; what they skip is Next's routing,
// proxy and response machinery, about a third of the web server's work per call (bench:load). Their
// answers carry the headers next.config.mjs gives every API answer. A path with "%" or a trailing
// slash, another method, and every other route go to Next.js as before.
// `node scripts/web-server.mjs --hostname H --port P`
import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import { Readable } from "node:stream";
import { API_CSP, SECURITY_HEADERS } from "../lib/http/security-headers.mjs";
import { matchDirectRoute, DIRECT_ROUTES } from "./direct-routes.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const requireFromRoot = createRequire(path.join(ROOT, "package.json"));
const API_HEADERS = Object.entries({ ...SECURITY_HEADERS, "Content-Security-Policy": API_CSP });
/** A body up to this size (by its Content-Length) is read whole before the handler runs. */
const BUFFERED_BODY_BYTES = 256 * 1024;

/** @param {http.IncomingMessage} req @returns {Promise<Buffer>} */
function readWhole(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
    req.once("close", () => {
      if (!req.complete) reject(new Error("the caller hung up before its body arrived"));
    });
  });
}

/**
 * A Node request as the Fetch API Request a route handler takes. Its signal aborts when the caller
 * hangs up before the answer is sent (a long poll then stops waiting).
 * @param {http.IncomingMessage} req @param {http.ServerResponse} res
 */
async function toRequest(req, res) {
  const abort = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(/** @type {string} */ (req.rawHeaders[i]), /** @type {string} */ (req.rawHeaders[i + 1]));
  }
  const method = req.method ?? "GET";
  /** @type {RequestInit & { duplex?: "half" }} */
  const init = { method, headers, signal: abort.signal };
  if (method !== "GET" && method !== "HEAD") {
    // The handler still applies its own limit to what it reads.
    const declared = Number(req.headers["content-length"]);
    if (Number.isSafeInteger(declared) && declared <= BUFFERED_BODY_BYTES) init.body = await readWhole(req);
    else {
      init.body = /** @type {ReadableStream} */ (Readable.toWeb(req));
      init.duplex = "half";
    }
  }
  return new Request(`http://${req.headers.host || "localhost"}${req.url}`, init);
}

/** Writes a handler's answer; a one-chunk body (a JSON answer) goes out whole, with its length. */
/** @param {Response} answer @param {http.ServerResponse} res */
async function send(answer, res) {
  for (const [name, value] of API_HEADERS) res.setHeader(name, value);
  answer.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) res.setHeader("set-cookie", cookies);
  res.statusCode = answer.status;
  if (!answer.body) return void res.end();
  const reader = answer.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => undefined));
  const first = await reader.read();
  if (first.done) return void res.end();
  let next = await reader.read();
  if (next.done) {
    res.setHeader("content-length", first.value.byteLength);
    return void res.end(first.value);
  }
  res.write(first.value);
  while (!next.done) {
    if (!res.write(next.value)) await new Promise((resolve) => res.once("drain", resolve));
    next = await reader.read();
  }
  res.end();
}

/** @param {http.ServerResponse} res @param {unknown} err */
function failed(res, err) {
  if (res.destroyed) return; // the caller hung up: nobody to answer, and not a fault of ours
  const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
  console.error(JSON.stringify({ t: new Date().toISOString(), level: "error", msg: "web.direct_route_failed", error }));
  if (res.headersSent) return void res.destroy();
  res.statusCode = 500;
  for (const [name, value] of API_HEADERS) res.setHeader(name, value);
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.end(JSON.stringify({ error: { code: "internal", message: "Something went wrong on our side; try again shortly." } }));
}

/** Each direct route's handlers (the route module's exports), loaded as Next.js loads them. */
async function loadHandlers() {
  /** @type {Map<string, Record<string, (req: Request, ctx: object) => Promise<Response>>>} */
  const byFolder = new Map();
  for (const { folder } of DIRECT_ROUTES) {
    const mod = requireFromRoot(path.join(ROOT, ".next/server/app", folder, "route.js"));
    if (typeof mod.routeModule?.ensureUserland !== "function") {
      throw new Error(`${folder}/route.js is not an app route module this server knows (a Next.js upgrade?)`);
    }
    await mod.routeModule.ensureUserland();
    byFolder.set(folder, mod.routeModule.userland);
  }
  return byFolder;
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (/** @type {string} */ name, /** @type {string} */ fallback) => {
    const i = args.indexOf(name);
    return (i >= 0 && args[i + 1]) || fallback;
  };
  const hostname = opt("--hostname", "127.0.0.1");
  const port = Number(opt("--port", "3000"));
  // As `next start` does, before Next.js loads (it reads this once).
  process.env.NODE_ENV ??= "production";
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: ROOT, hostname, port });
  await app.prepare();
  // instrumentation.ts ran in prepare(); without its peer-address hook every caller would share
  // one rate-limit bucket, so this server does not start.
  if (/** @type {{ openvibePeerHook?: boolean }} */ (globalThis).openvibePeerHook !== true) {
    throw new Error("instrumentation.ts did not install the peer-address hook");
  }
  const handle = app.getRequestHandler();
  const handlers = await loadHandlers();

  const server = http.createServer((req, res) => {
    const direct = matchDirectRoute(req.method ?? "GET", req.url ?? "/");
    const handler = direct && handlers.get(direct.folder)?.[/** @type {string} */ (req.method)];
    if (!direct || !handler) return void handle(req, res);
    toRequest(req, res)
      .then((request) => handler(request, { params: Promise.resolve(direct.params) }))
      .then((answer) => send(answer, res))
      .catch((err) => failed(res, err));
  });
  server.listen(port, hostname, () => console.log(`  ▲ Next.js (production) on http://${hostname}:${port}`));
  // As `next start` stops: no new connections, the requests in flight (long polls among them)
  // finish, Next.js closes, and the exit code says which signal it was.
  let stopping = false;
  const stop = (/** @type {NodeJS.Signals} */ signal) => {
    if (stopping) return;
    stopping = true;
    server.close((err) => {
      if (err) console.error(err);
      void app
        .close()
        .catch(console.error)
        .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
    });
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

await main();
