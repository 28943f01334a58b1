// One more web process for the MCP tests: the same route handlers, in a Node process of its own
// (its own memory, its own Redis connections), as a second `next start` behind a load balancer
// would be. `node --import ./scripts/no-server-only.mjs --import tsx test/helpers/web-process.ts`.
import { mcpRoutes, serveStreaming } from "./stream-server";

const server = await serveStreaming(await mcpRoutes(), 0);
process.stdout.write(`listening ${server.port}\n`);
process.on("SIGTERM", () => {
  void server.close().finally(() => process.exit(0));
});
