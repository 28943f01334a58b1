// The copy-paste blocks the agents page shows for connecting a client to /api/mcp: the server URL,
// a config for Claude Desktop (through the stdio bridge), VS Code and Cursor, and the bridge's
// command. With the agent's token (only right after creating it) the blocks carry it; otherwise a
// placeholder says where it goes. Pure.

export type ConnectionSnippets = {
  serverUrl: string;
  claudeDesktop: string;
  vscode: string;
  cursor: string;
  stdio: string;
};

export const TOKEN_PLACEHOLDER = "ova_PASTE_THIS_AGENTS_TOKEN";
const SERVER_KEY = "openvibe";

const pretty = (value: unknown) => JSON.stringify(value, null, 2);
const shellQuote = (s: string) => (/^[A-Za-z0-9_./:@=-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

export function connectionSnippets(appUrl: string, token?: string): ConnectionSnippets {
  const base = appUrl.replace(/\/+$/, "");
  const serverUrl = `${base}/api/mcp`;
  const secret = token ?? TOKEN_PLACEHOLDER;
  return {
    serverUrl,
    // Claude Desktop's config file launches local servers only: it runs the bridge.
    claudeDesktop: pretty({
      mcpServers: {
        [SERVER_KEY]: { command: "openvibe", args: ["mcp", "--server", base], env: { OPENVIBE_AGENT_TOKEN: secret } },
      },
    }),
    // VS Code asks for the token once and keeps it in its secret storage, not in the file.
    vscode: pretty({
      servers: {
        [SERVER_KEY]: { type: "http", url: serverUrl, headers: { Authorization: "Bearer ${input:openvibe-agent-token}" } },
      },
      inputs: [{ type: "promptString", id: "openvibe-agent-token", description: "OpenVibe agent token (ova_…)", password: true }],
    }),
    cursor: pretty({ mcpServers: { [SERVER_KEY]: { url: serverUrl, headers: { Authorization: `Bearer ${secret}` } } } }),
    stdio: `OPENVIBE_AGENT_TOKEN=${shellQuote(secret)} openvibe mcp --server ${shellQuote(base)}`,
  };
}
