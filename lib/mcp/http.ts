// /api/mcp: the Streamable HTTP transport (protocol 2025-11-25) on the SDK's own server transport,
// with sessions any web process can serve. The session (agent + the client's initialize) is a row
// in PostgreSQL; each request builds a fresh SDK server, replays that initialize into it, handles
// the request and is discarded when its response stream ends. What must reach the server that is
// waiting for it — the client's answer to an elicitation, a cancel, "session closed" — is relayed
// over Redis (relay.ts), addressed by ids that name the server (routed-transport.ts).
import "server-only";
import { randomBytes } from "node:crypto";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  InitializeRequestSchema,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  type InitializeRequest,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { AgentPrincipal } from "../agents";
import { AppError } from "../errors";
import { log } from "../log";
import { watchListChanges } from "./list-changed";
import { mcpPrincipal, unauthorized } from "./principal";
import { listenToSession, publishToSession } from "./relay";
import { RoutedTransport } from "./routed-transport";
import { createMcpServer } from "./server";
import { createSession, deleteSession, findSession, newSessionId, type McpSessionRecord } from "./sessions";

export const MCP_BODY_MAX_BYTES = 1024 * 1024;
const MAX_BATCH = 20;
const RESTORE_ID = "openvibe-restore";

// Bearer tokens, never cookies, authenticate here, so any origin may call (browser-based clients
// such as the MCP Inspector); a page on another site has no token to send.
const CORS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id",
  "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
  "access-control-max-age": "600",
};

/** What the route wrapper learns of the caller: the agent (rate limited per agent), or why not. */
export type McpCaller = AgentPrincipal | { refused: AppError };

/** The route wrapper's verifier: a 401 is kept for the handler, which answers it with WWW-Authenticate. */
export async function mcpCaller(req: Request): Promise<McpCaller> {
  try {
    return await mcpPrincipal(req);
  } catch (err) {
    if (err instanceof AppError && err.status === 401) return { refused: err };
    throw err;
  }
}

export async function handleMcpRequest(req: Request, caller: McpCaller): Promise<Response> {
  if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  if ("refused" in caller) return unauthorized(caller.refused, CORS);
  return withCors(await dispatch(req, caller));
}

async function dispatch(req: Request, agent: AgentPrincipal): Promise<Response> {
  if (req.method === "POST") return post(req, agent);
  if (req.method === "GET" || req.method === "DELETE") {
    const session = await sessionOf(req, agent);
    if (session instanceof Response) return session;
    if (req.method === "DELETE") {
      await deleteSession(agent, session.id);
      await publishToSession(session.id, { kind: "closed" }).catch(() => undefined);
      return new Response(null, { status: 200 });
    }
    const open = await openServer(agent, session, { relay: true });
    const res = await open.transport.inner.handleRequest(req);
    if (res.status === 200) {
      void watchListChanges(open.server, agent, open.signal).catch((err: unknown) =>
        log.warn("mcp: list_changed watcher stopped", { agentId: agent.agentId, err }),
      );
    }
    return closeWhenDone(res, open.close);
  }
  return rpcError(405, -32000, "Method not allowed: use POST, GET or DELETE.", { allow: "GET, POST, DELETE, OPTIONS" });
}

async function post(req: Request, agent: AgentPrincipal): Promise<Response> {
  if (!/^application\/json\b/i.test(req.headers.get("content-type") ?? "")) {
    return rpcError(415, -32000, "Unsupported Media Type: send JSON-RPC as application/json.");
  }
  const text = await readCapped(req);
  if (text === null) return rpcError(413, -32000, `The request body is over ${MCP_BODY_MAX_BYTES} bytes.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return rpcError(400, -32700, "Parse error: the body is not JSON.");
  }
  const raw = Array.isArray(parsed) ? parsed : [parsed];
  if (raw.length === 0 || raw.length > MAX_BATCH) return rpcError(400, -32600, `Send 1 to ${MAX_BATCH} messages.`);
  const messages: JSONRPCMessage[] = [];
  for (const m of raw) {
    const ok = JSONRPCMessageSchema.safeParse(m);
    if (!ok.success) return rpcError(400, -32700, "Parse error: not a JSON-RPC 2.0 message.");
    messages.push(ok.data);
  }

  if (messages.some(isInitializeRequest)) {
    const init = InitializeRequestSchema.safeParse(messages[0]);
    if (messages.length > 1 || !init.success) return rpcError(400, -32600, "Invalid Request: send initialize alone, with its params.");
    const id = newSessionId();
    const open = await openServer(agent, { id, initialize: null }, {
      relay: false,
      onInitialized: () => createSession(agent, id, init.data.params),
    });
    return closeWhenDone(await open.transport.inner.handleRequest(req, { parsedBody: parsed }), open.close);
  }

  const session = await sessionOf(req, agent);
  if (session instanceof Response) return session;
  // Answers to our requests and cancels go to whichever process holds the server they are for.
  for (const m of messages) {
    const forServer = isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m) || (isJSONRPCNotification(m) && m.method === "notifications/cancelled");
    if (forServer) await publishToSession(session.id, { kind: "jsonrpc", message: m });
  }
  const rest = messages.filter((m) => isJSONRPCRequest(m) || isJSONRPCNotification(m));
  if (!rest.some(isJSONRPCRequest)) return new Response(null, { status: 202 });
  const open = await openServer(agent, session, { relay: rest.some((m) => isJSONRPCRequest(m) && m.method === "tools/call") });
  const res = await open.transport.inner.handleRequest(req, { parsedBody: Array.isArray(parsed) ? rest : rest[0] });
  return closeWhenDone(res, open.close);
}

async function sessionOf(req: Request, agent: AgentPrincipal): Promise<McpSessionRecord | Response> {
  const id = req.headers.get("mcp-session-id");
  if (!id) return rpcError(400, -32000, "Bad Request: send the Mcp-Session-Id header you got from initialize.");
  const session = await findSession(agent, id);
  // Someone else's session, an ended one and an unknown one all look the same.
  if (!session) return rpcError(404, -32001, "Session not found: initialize a new session.");
  return session;
}

type OpenServer = { server: Server; transport: RoutedTransport; signal: AbortSignal; close: () => Promise<void> };

async function openServer(
  agent: AgentPrincipal,
  session: { id: string; initialize: InitializeRequest["params"] | null },
  options: { relay: boolean; onInitialized?: () => Promise<void> },
): Promise<OpenServer> {
  const abort = new AbortController();
  const inner = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => session.id,
    ...(options.onInitialized ? { onsessioninitialized: options.onInitialized } : {}),
    maxRequestBodySize: MCP_BODY_MAX_BYTES,
  });
  const transport = new RoutedTransport(inner, randomBytes(9).toString("base64url"));
  const server = createMcpServer(agent);
  server.onerror = (err) => log.debug("mcp: protocol error", { err });
  await server.connect(transport);

  let closing: Promise<void> | undefined;
  let stopRelay: () => Promise<void> = async () => undefined;
  const close = () =>
    (closing ??= (async () => {
      abort.abort();
      await stopRelay();
      await server.close().catch(() => undefined);
    })());
  if (options.relay) {
    stopRelay = await listenToSession(session.id, (m) => {
      if (m.kind === "closed") void close();
      else if (!transport.deliverResponse(m.message) && isJSONRPCNotification(m.message)) transport.deliverNotification(m.message);
    });
  }
  if (session.initialize) await restore(inner, session.initialize);
  return { server, transport, signal: abort.signal, close };
}

/** Puts a fresh server in the state the session's initialize left it: capabilities, version. */
async function restore(inner: WebStandardStreamableHTTPServerTransport, params: InitializeRequest["params"]) {
  const res = await inner.handleRequest(
    new Request("http://openvibe.internal/api/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
    }),
    { parsedBody: { jsonrpc: "2.0", id: RESTORE_ID, method: "initialize", params } },
  );
  await res.text();
  if (res.status !== 200) throw new Error(`mcp: could not restore a session (${res.status})`);
}

/** The response as it streams, and the server closed once it has ended or the client went away. */
function closeWhenDone(res: Response, close: () => Promise<void>): Response {
  if (!res.body) {
    void close();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          void close();
        } else controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        void close();
      }
    },
    cancel(reason) {
      void close();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

function withCors(res: Response): Response {
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries(CORS)) headers.set(k, v);
  return new Response(res.body, { status: res.status, headers });
}

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function readCapped(req: Request): Promise<string | null> {
  if (Number(req.headers.get("content-length") ?? "0") > MCP_BODY_MAX_BYTES) return null;
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MCP_BODY_MAX_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
