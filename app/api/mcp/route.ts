import { route } from "@/lib/http/route";
import { handleMcpRequest } from "@/lib/mcp";

// Streamable HTTP (MCP 2025-11-25): POST for messages, GET for the server's own stream, DELETE to
// end a session. lib/mcp does the protocol; the wrapper maps anything unexpected to a 500.
export const dynamic = "force-dynamic";

const handler = route({ handler: ({ req }) => handleMcpRequest(req) });
export { handler as GET, handler as POST, handler as DELETE, handler as OPTIONS };
