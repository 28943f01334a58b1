// Builds the server's programs outside Next.js — the worker host and the operators' commands —
// into plain JavaScript in dist/server/, so a production install (`npm ci --omit=dev`) runs them
// without tsx. npm packages stay in node_modules; run them with `node --conditions=react-server`
// (server-only). Two folders deep, like their sources, so paths from import.meta.dirname hold.
// `node scripts/build-server.mjs [--if-stale]`; part of `npm run build`.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildFromCommandLine, bundle, isStale } from "./bundle.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");

export const SERVER = {
  dir: ROOT,
  out: path.join(ROOT, "dist", "server"),
  entries: {
    workers: path.join(ROOT, "workers", "index.ts"),
    db: path.join(ROOT, "scripts", "db.ts"),
    backup: path.join(ROOT, "scripts", "backup.ts"),
    admin: path.join(ROOT, "scripts", "admin.ts"),
    seed: path.join(ROOT, "scripts", "seed.ts"),
  },
  sources: [path.join(ROOT, "lib"), path.join(ROOT, "workers"), path.join(ROOT, "scripts")],
  packagesExternal: true,
};

export const serverBuildIsStale = () => isStale(SERVER);
export const buildServer = () => bundle(SERVER);

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildFromCommandLine(SERVER);
