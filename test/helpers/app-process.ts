// One web process of the registry for the multi-instance and fault tests: the app's route handlers
// in a Node process of its own (its own memory, pools and Redis connections), as one `next start`
// among several would be. `node --import ./scripts/no-server-only.mjs --import tsx
// test/helpers/app-process.ts [PORT]`; prints `listening PORT`, and on SIGTERM stops taking
// connections and lets requests in flight finish.
import { appRoutes } from "./app-routes";
import { serveStreaming } from "./stream-server";

const server = await serveStreaming(await appRoutes(), Number(process.argv[2] ?? 0));
process.stdout.write(`listening ${server.port}\n`);
process.on("SIGTERM", () => {
  void server.close().finally(() => process.exit(0));
});
