// `openvibe mcp`: a stdio MCP server for clients that only launch local servers. Every JSON-RPC
// message from stdin goes to the registry's /api/mcp (Streamable HTTP, the SDK's own transports on
// both sides) as the agent the token belongs to, and every message back goes to stdout. stdout is
// the protocol: everything for people goes to stderr.
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";

export type McpBridgeOptions = { server: string; token: string | undefined };

const say = (text: string) => process.stderr.write(`openvibe mcp: ${text}\n`);

export async function mcpCommand(o: McpBridgeOptions): Promise<number> {
  if (!o.token) {
    say("no agent token: pass --token ova_… or set OPENVIBE_AGENT_TOKEN (create an agent on the dashboard's Agents page).");
    return 2;
  }
  let endpoint: URL;
  try {
    endpoint = new URL("/api/mcp", o.server);
  } catch {
    say(`--server ${o.server} is not a URL, e.g. http://localhost:3000.`);
    return 2;
  }
  const remote = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${o.token}` } },
  });
  const local = new StdioServerTransport();
  const initializing = new Set<RequestId>();

  local.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === "initialize") initializing.add(message.id);
    remote.send(message).catch((err: unknown) => {
      const words = explain(err, endpoint);
      say(words);
      // A request the registry never answered still gets an answer, so the client does not hang.
      if (isJSONRPCRequest(message)) void local.send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: words } });
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (err) => say(explain(err, endpoint));

  return new Promise<number>((resolve) => {
    local.onclose = () => {
      // End the session on the registry too; a server that is gone already needs nothing.
      void remote
        .terminateSession()
        .catch(() => undefined)
        .finally(() => remote.close().finally(() => resolve(0)));
    };
    process.stdin.on("end", () => void local.close());
    void remote.start().then(() => local.start());
  });
}

function explain(err: unknown, endpoint: URL): string {
  if (err instanceof StreamableHTTPError && err.code === 401) {
    return "the registry refused the agent token (401): check --token / OPENVIBE_AGENT_TOKEN, or whether the agent was revoked.";
  }
  if (err instanceof StreamableHTTPError && err.code === 404) return "the registry ended this MCP session; restart the client.";
  const message = err instanceof Error ? err.message : String(err);
  if (/fetch failed|ECONNREFUSED|ENOTFOUND/i.test(message)) return `could not reach ${endpoint.origin}: is the server running? Set --server.`;
  return message;
}
