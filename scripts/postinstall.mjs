// npm's postinstall: generates the Prisma client into lib/db/generated (`npm run db:generate`).
// A production install (`npm ci --omit=dev`) has no Prisma CLI, and needs none: the client is
// compiled into the build (.next, dist/server), made where the dev dependencies are.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
if (!existsSync(path.join(root, "node_modules", "prisma", "package.json"))) {
  console.log("postinstall: no Prisma CLI (a production install); the Prisma client comes with the build.");
} else {
  const result = spawnSync("npm", ["run", "--silent", "db:generate"], { cwd: root, stdio: "inherit" });
  process.exitCode = result.status ?? 1;
}
