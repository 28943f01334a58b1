// MCP sessions live in PostgreSQL: the agent they belong to and the client's initialize request,
// which every request's server replays, so a session works on whichever web process a request
// reaches. A session idle for a day is gone (the client starts a new one, as the protocol says).
import "server-only";
import { randomBytes } from "node:crypto";
import type { InitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { AgentPrincipal } from "../agents";
import { db, Prisma } from "../db";

export const SESSION_IDLE_MS = 24 * 3_600_000;
/** lastSeenAt is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;
const MAX_SESSIONS_PER_AGENT = 50;

export type McpSessionRecord = { id: string; agentId: string; initialize: InitializeRequest["params"] };

/** Visible ASCII only, as the transport requires, and unguessable. */
export const newSessionId = () => randomBytes(24).toString("base64url");

export async function createSession(agent: AgentPrincipal, id: string, initialize: InitializeRequest["params"]) {
  const now = Date.now();
  await db.$transaction([
    db.mcpSession.deleteMany({ where: { agentId: agent.agentId, lastSeenAt: { lt: new Date(now - SESSION_IDLE_MS) } } }),
    db.mcpSession.create({
      data: {
        id,
        agentId: agent.agentId,
        protocolVersion: initialize.protocolVersion,
        initialize: initialize as unknown as Prisma.InputJsonValue,
      },
    }),
  ]);
  // A client that opens sessions in a loop keeps only its newest ones.
  const stale = await db.mcpSession.findMany({
    where: { agentId: agent.agentId },
    orderBy: { lastSeenAt: "desc" },
    skip: MAX_SESSIONS_PER_AGENT,
    select: { id: true },
  });
  if (stale.length) await db.mcpSession.deleteMany({ where: { id: { in: stale.map((s) => s.id) } } });
}

/** The session, if it exists, belongs to this agent and is not idle too long. */
export async function findSession(agent: AgentPrincipal, id: string): Promise<McpSessionRecord | null> {
  if (id.length > 100) return null;
  const row = await db.mcpSession.findUnique({ where: { id } });
  if (!row || row.agentId !== agent.agentId) return null;
  const now = Date.now();
  if (row.lastSeenAt.getTime() < now - SESSION_IDLE_MS) return null;
  if (row.lastSeenAt.getTime() < now - TOUCH_EVERY_MS) {
    await db.mcpSession.updateMany({ where: { id }, data: { lastSeenAt: new Date(now) } });
  }
  return { id: row.id, agentId: row.agentId, initialize: row.initialize as unknown as InitializeRequest["params"] };
}

export async function deleteSession(agent: AgentPrincipal, id: string): Promise<boolean> {
  const { count } = await db.mcpSession.deleteMany({ where: { id, agentId: agent.agentId } });
  return count > 0;
}
