// The Link's own version (its package.json, compiled in by build.mjs) and the one runner artifact
// it executes.
import { readFileSync } from "node:fs";
import { RUNNER_ARTIFACT } from "../lib/protocol/limits";

declare const PACKAGE_VERSION: string | undefined;

function sourceVersion(): string {
  const manifest: unknown = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"));
  return typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string" ? manifest.version : "0.0.0";
}

export const LINK_PACKAGE_VERSION: string = typeof PACKAGE_VERSION === "string" ? PACKAGE_VERSION : sourceVersion();

/** `openvibe-link --version`: the package and the artifact jobs must name. */
export function versionText(): string {
  return `openvibe-link ${LINK_PACKAGE_VERSION}\nrunner ${RUNNER_ARTIFACT.name}@${RUNNER_ARTIFACT.version}`;
}
