// The remote MCP server (/api/mcp) an agent reaches its person's installed skills through, and
// what the dashboard shows to connect a client to it.
export { handleMcpRequest, mcpCaller, MCP_BODY_MAX_BYTES, type McpCaller } from "./http";
export { mcpToolNames, MCP_TOOL_NAME_MAX } from "./tool-names";
export { connectionSnippets, type ConnectionSnippets } from "./snippets";
export { personStep } from "./steps-adapter";
export { closeRelay } from "./relay";
