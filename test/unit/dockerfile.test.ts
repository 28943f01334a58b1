// The Dockerfile, checked where no Docker engine runs: it parses and lints clean (dockerfile-utils,
// the validator behind VS Code's Dockerfile support), and it keeps the rules docs/deploy.md
// promises: multi-stage, `npm ci` from the lock file, a non-root runtime user, nothing fetched
// from outside the npm registry and Debian's apt, and an entrypoint whose roles exist.
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { SERVER } from "../../scripts/build-server.mjs";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const text = readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
const dockerfile = DockerfileParser.parse(text);
const instructions = dockerfile.getInstructions();
const runs = instructions.filter((i) => i.getKeyword() === "RUN").map((i) => i.getArgumentsContent() ?? "");
const froms = dockerfile.getFROMs();
const stageOf = (line: number) => froms.filter((f) => f.getRange().start.line <= line).at(-1);

describe("Dockerfile", () => {
  it("parses and lints without a diagnostic", () => {
    const diagnostics = validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(diagnostics).toEqual([]);
  });

  it("builds in stages from one pinned base image, and copies only from earlier stages", () => {
    const stages = froms.map((f) => f.getBuildStage());
    expect(stages).toEqual(["deps", "build", "runtime"]);
    // Each stage starts from the one base image or from an earlier stage.
    froms.forEach((f, i) => expect(["${NODE_IMAGE}", ...stages.slice(0, i)]).toContain(f.getImage()));
    const arg = dockerfile.getInitialARGs().find((a) => a.getProperty()?.getName() === "NODE_IMAGE");
    expect(arg?.getProperty()?.getValue()).toMatch(/^node:20(\.\d+)*-bookworm-slim$/);
    for (const copy of dockerfile.getCOPYs()) {
      const from = copy.getFromFlag()?.getValue();
      if (from)
        expect(stages.slice(0, stages.indexOf(stageOf(copy.getRange().start.line)!.getBuildStage()))).toContain(from);
    }
  });

  it("installs exactly the lock file with npm ci, under an npm that honours allowScripts", () => {
    expect(runs.some((r) => /^npm ci$/.test(r.trim()))).toBe(true);
    const npmInstalls = runs.filter((r) => /\bnpm (install|i)\b/.test(r));
    expect(npmInstalls).toEqual(["npm install --global npm@11.19.1"]);
    const copied = dockerfile.getCOPYs().map((c) => c.getArgumentsContent());
    expect(copied).toContain("package.json package-lock.json prisma.config.ts ./");
    expect(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).allowScripts).toBeDefined();
  });

  it("fetches nothing but npm packages and Debian packages", () => {
    expect(instructions.some((i) => i.getKeyword() === "ADD")).toBe(false);
    for (const run of runs) {
      expect(run).not.toMatch(/\b(curl|wget|git clone|pip|gem|go get|npx (?!--))\b|https?:\/\//);
    }
    const apt = runs.filter((r) => r.includes("apt-get install"));
    expect(apt.length).toBe(1);
    expect(apt[0]).toMatch(/apt-get install --yes --no-install-recommends tini postgresql-client/);
  });

  it("runs as the unprivileged node user, with only DATA_DIR and Next's cache writable", () => {
    const runtimeLine = froms.at(-1)!.getRange().start.line;
    const users = instructions.filter((i) => i.getKeyword() === "USER" && i.getRange().start.line > runtimeLine);
    expect(users.map((u) => u.getArgumentsContent())).toEqual(["node"]);
    expect(text).toMatch(/DATA_DIR=\/data/);
    expect(text).toMatch(/chown node:node \/data \/app\/\.next\/cache\n/);
  });

  it("starts through tini and an entrypoint whose roles run files that exist", () => {
    const entry = dockerfile.getENTRYPOINTs().at(-1)!.getArgumentsContent();
    expect(entry).toBe('["/usr/bin/tini", "--", "/app/scripts/docker-entrypoint.sh"]');
    const script = path.join(ROOT, "scripts/docker-entrypoint.sh");
    accessSync(script, constants.X_OK);
    const body = readFileSync(script, "utf8");
    for (const role of ["web", "workers", "migrate", "backup", "restore"])
      expect(body).toMatch(new RegExp(`^\\s+${role}\\) exec `, "m"));
    for (const file of body.matchAll(/\b((?:workers|scripts)\/[\w-]+\.ts|node_modules\/next\/dist\/bin\/next)\b/g)) {
      expect(existsSync(path.join(ROOT, file[1]!)), file[1]).toBe(true);
    }
    const built = [...body.matchAll(/\bdist\/server\/([\w-]+)\.mjs\b/g)].map((m) => m[1]!);
    expect(built).toEqual(expect.arrayContaining(["workers", "db", "backup"]));
    for (const name of built) expect(Object.keys(SERVER.entries), name).toContain(name);
  });

  it("keeps local state, secrets and installed modules out of the build context", () => {
    const ignored = readFileSync(path.join(ROOT, ".dockerignore"), "utf8").split("\n");
    for (const entry of ["node_modules", ".data", ".next", ".env", ".git"]) expect(ignored).toContain(entry);
  });
});
