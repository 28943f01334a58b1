import { route } from "@/lib/http/route";
import { handleMcpRequest, mcpCaller } from "@/lib/mcp";

// Streamable HTTP (MCP 2025-11-25): POST for messages, GET for the server's own stream, DELETE to
// end a session. lib/mcp does the protocol; the wrapper rate-limits per agent (per IP without a
// valid token) and maps anything unexpected to a 500.
export const dynamic = "force-dynamic";

const handler = route({ auth: mcpCaller, handler: ({ req, principal }) => handleMcpRequest(req, principal) });
export { handler as GET, handler as POST, handler as DELETE, handler as OPTIONS };
