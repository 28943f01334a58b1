// vitest globalSetup: the tests run the Link (and the authors' CLIs) as people do, compiled; this
// rebuilds them first when a source is newer than the build.
import { buildLink, linkBuildIsStale } from "../../link/build.mjs";

export default async function setup(): Promise<void> {
  if (linkBuildIsStale()) await buildLink();
}
