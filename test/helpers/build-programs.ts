// vitest globalSetup: tests run the Link and the authors' CLIs as people do, compiled (link/dist,
// cli/dist); each is rebuilt first when a source is newer than its build.
import { buildCli, cliBuildIsStale } from "../../cli/build.mjs";
import { buildLink, linkBuildIsStale } from "../../link/build.mjs";

export default async function setup(): Promise<void> {
  if (linkBuildIsStale()) await buildLink();
  if (cliBuildIsStale()) await buildCli();
}
