// Bundles a program of this repository (the Link, the authors' CLIs) into plain JavaScript with
// esbuild: ES modules in `<package>/dist`, everything they import inlined except what is listed
// external, so the package installs with (almost) no dependencies and runs no TypeScript.
// Used by link/build.mjs and cli/build.mjs; `ifStale` builds only when a source is newer.
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";

/** The newest mtime of a source file under dir (tests, builds and node_modules aside). */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (/^(dist|node_modules|corpus)$/.test(entry.name) || entry.name.startsWith("dist.")) continue;
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(file));
    else if (/\.(ts|cjs|mjs|json)$/.test(entry.name) && !entry.name.endsWith(".test.ts")) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * @param {{ dir: string, entries: Record<string, string>, sources: string[], copy?: Record<string, string>,
 *   external?: string[], packagesExternal?: boolean, out?: string, shebang?: boolean, splitting?: boolean }} program
 *   dir: the package folder (its package.json gives the version); entries: output name → entry
 *   file; sources: folders whose change means a rebuild; copy: output name → file copied beside
 *   the bundle; packagesExternal: leave every npm package to node_modules; out: default dir/dist;
 *   splitting: what an entry imports dynamically goes in chunks of its own (`chunk-*.mjs`), loaded
 *   only when asked for.
 */
export function isStale(program) {
  const dist = program.out ?? path.join(program.dir, "dist");
  const outputs = [...Object.keys(program.entries).map((name) => `${name}.mjs`), ...Object.keys(program.copy ?? {})];
  if (outputs.some((name) => !existsSync(path.join(dist, name)))) return true;
  const built = Math.min(...outputs.map((name) => statSync(path.join(dist, name)).mtimeMs));
  return program.sources.some((dir) => newestSource(dir) > built);
}

/**
 * Node's own modules are loaded with require, not import: an import makes Node build an ES module
 * facade of the whole builtin, which reads every export, lazy ones included (node:http's loads
 * undici), so a CLI paid ~40 ms at every start for modules it might never use.
 */
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.namespace === "builtin" ? { path: args.path, external: true } : { path: args.path, namespace: "builtin" },
    );
    build.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

export async function bundle(program) {
  const { build } = await import("esbuild");
  const { version } = JSON.parse(readFileSync(path.join(program.dir, "package.json"), "utf8"));
  const dist = program.out ?? path.join(program.dir, "dist");
  const next = `${dist}.${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  try {
    await build({
      entryPoints: Object.entries(program.entries).map(([out, file]) => ({ out, in: file })),
      outdir: next,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: Boolean(program.splitting),
      chunkNames: "chunk-[hash]",
      platform: "node",
      format: "esm",
      target: "node20",
      external: program.external ?? [],
      ...(program.packagesExternal ? { packages: "external" } : {}),
      define: { PACKAGE_VERSION: JSON.stringify(version) },
      // CommonJS dependencies inside an ES module still find require, __filename and __dirname.
      banner: {
        js: [
          ...(program.shebang ? ["#!/usr/bin/env node"] : []),
          'import { createRequire as __createRequire } from "node:module";',
          'import { fileURLToPath as __fileURLToPath } from "node:url";',
          "const require = __createRequire(import.meta.url);",
          "const __filename = __fileURLToPath(import.meta.url);",
          'const __dirname = __fileURLToPath(new URL(".", import.meta.url));',
        ].join("\n"),
      },
      legalComments: "none",
      logLevel: "warning",
      plugins: [builtinsByRequire],
    });
    if (program.shebang) for (const name of Object.keys(program.entries)) chmodSync(path.join(next, `${name}.mjs`), 0o755);
    for (const [name, file] of Object.entries(program.copy ?? {})) copyFileSync(file, path.join(next, name));
    // File by file into place: a program starting meanwhile sees the old build or the new one.
    mkdirSync(dist, { recursive: true });
    const built = readdirSync(next);
    for (const name of built) renameSync(path.join(next, name), path.join(dist, name));
    // Chunks are named by their content: the modules of earlier builds are no longer asked for.
    for (const name of readdirSync(dist)) if (name.endsWith(".mjs") && !built.includes(name)) rmSync(path.join(dist, name));
  } finally {
    rmSync(next, { recursive: true, force: true });
  }
}

/** `node <package>/build.mjs [--if-stale]`. */
export async function buildFromCommandLine(program) {
  if (!process.argv.includes("--if-stale") || isStale(program)) await bundle(program);
}
