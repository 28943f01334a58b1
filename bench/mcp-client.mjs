// The bench's MCP agents (the official SDK client over Streamable HTTP), in a process of their own
// so that their client's CPU is not counted as the server's. Asked over IPC:
//   { id, connect: { url, tokens } }  one client per token, each with a session of its own → { id, ok: true }
//   { id, call: { agent, name, arguments } }  one tools/call by agent number → { id, status }
//   { id, close: true }  closes every client → { id, ok: true }
// A call's status is "succeeded", or "mcp_error: <first line of the tool's error>"; { id, error } when it threw.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const clients = [];

async function connect({ url, tokens }) {
  const made = await Promise.all(
    tokens.map(async (token) => {
      const client = new Client({ name: "bench-load", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL("/api/mcp", url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    }),
  );
  clients.push(...made);
}

async function call({ agent, name, arguments: args }) {
  const result = await clients[agent].callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  if (!result.isError) return "succeeded";
  const first = result.content?.[0]?.text ?? "";
  return `mcp_error: ${first.split("\n")[0].slice(0, 80)}`;
}

process.on("message", async (message) => {
  const { id } = message;
  try {
    if (message.connect) {
      await connect(message.connect);
      process.send({ id, ok: true });
    } else if (message.call) {
      process.send({ id, status: await call(message.call) });
    } else if (message.close) {
      await Promise.allSettled(clients.splice(0).map((c) => c.close()));
      process.send({ id, ok: true });
    }
  } catch (err) {
    process.send({ id, error: String(err?.stack ?? err) });
  }
});
process.on("disconnect", () => process.exit(0));
