// Builds the authors' CLIs into plain JavaScript: dist/openvibe.mjs (cli/main.ts) and
// dist/openvibe-scan.mjs (lib/scan/cli.ts), everything bundled in but the scanner's native parser
// and the instruction audit's WASM grammars (copied beside the bundle),
// which @swc/core loads from its per-platform package (this package's optional dependencies).
// `node cli/build.mjs` builds; `--if-stale` only when a source is newer than the build.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildFromCommandLine, bundle, isStale } from "../scripts/bundle.mjs";

const here = import.meta.dirname;
const lib = path.join(here, "..", "lib");

export const CLI = {
  dir: here,
  entries: { openvibe: path.join(here, "main.ts"), "openvibe-scan": path.join(lib, "scan", "cli.ts") },
  sources: [here, ...["contracts", "errors", "instructions", "protocol", "registry", "scan", "tlog"].map((domain) => path.join(lib, domain))],
  // The instruction audit's tree-sitter runtime and grammars, found beside the bundle.
  copy: Object.fromEntries(
    ["web-tree-sitter/tree-sitter.wasm", "tree-sitter-bash/tree-sitter-bash.wasm", "tree-sitter-python/tree-sitter-python.wasm"].map(
      (id) => [path.basename(id), path.join(here, "..", "node_modules", id)],
    ),
  ),
  external: ["@swc/core-*", "@swc/wasm"],
  shebang: true,
  splitting: true,
};

export const cliBuildIsStale = () => isStale(CLI);
export const buildCli = () => bundle(CLI);

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildFromCommandLine(CLI);
