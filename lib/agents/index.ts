// Agents act for one person in one project. Each has a token (`ova_…`) shown once and stored as
// its sha256; a revoked agent is refused at once. Its daily spend allowance (HO7) lives here too.
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db, sqlPool } from "../db";
import { batchedLookup } from "../db/batched";
import { AppError } from "../errors";
import { recordAudit } from "../audit";

export const AGENT_TOKEN_PREFIX = "ova_";
const SECRET_PATTERN = /^ova_[A-Za-z0-9_-]{43}$/;
/** A new agent may spend this much per day on its own (1.00) until the person changes it. */
export const DEFAULT_DAILY_ALLOWANCE_MICROS = 1_000_000n;

export type AgentPrincipal = { agentId: string; userId: string; projectId: string; name: string };

const hash = (secret: string) => createHash("sha256").update(secret).digest("hex");

export async function createAgent(userId: string, input: { name: string; projectId?: string }) {
  const name = input.name.trim();
  if (!name || name.length > 64) {
    throw new AppError("request.invalid", "An agent name is 1-64 characters.", {
      details: [{ path: "/name", message: "must be 1-64 characters" }],
    });
  }
  const project = input.projectId
    ? await db.project.findFirst({ where: { id: input.projectId, ownerId: userId }, select: { id: true } })
    : await db.project.findFirst({ where: { ownerId: userId, isDefault: true }, select: { id: true } });
  if (!project) throw new AppError("project.not_found", "That project was not found.");
  const secret = AGENT_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const agent = await db.$transaction(async (tx) => {
    const created = await tx.agent.create({
      data: {
        userId,
        projectId: project.id,
        name,
        tokenPrefix: secret.slice(AGENT_TOKEN_PREFIX.length, AGENT_TOKEN_PREFIX.length + 8),
        tokenHash: hash(secret),
        allowance: { create: { dailyLimitMicros: DEFAULT_DAILY_ALLOWANCE_MICROS } },
      },
      select: { id: true, name: true, projectId: true, tokenPrefix: true, createdAt: true },
    });
    await recordAudit(tx, {
      userId,
      actor: `user:${userId}`,
      action: "agent.created",
      subjectType: "agent",
      subjectId: created.id,
      data: { name },
    });
    return created;
  });
  return { agent, token: secret };
}

export async function listAgents(userId: string) {
  return db.agent.findMany({
    where: { userId },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      projectId: true,
      tokenPrefix: true,
      createdAt: true,
      revokedAt: true,
      allowance: { select: { dailyLimitMicros: true } },
    },
  });
}

export async function revokeAgent(userId: string, agentId: string) {
  const agent = await db.agent.findFirst({ where: { id: agentId, userId }, select: { id: true, revokedAt: true } });
  if (!agent) throw new AppError("agent.not_found", "That agent was not found.");
  if (agent.revokedAt) return { id: agent.id, revokedAt: agent.revokedAt };
  const revokedAt = new Date();
  await db.$transaction([
    db.agent.update({ where: { id: agent.id }, data: { revokedAt } }),
    recordAudit(db, {
      userId,
      actor: `user:${userId}`,
      action: "agent.revoked",
      subjectType: "agent",
      subjectId: agent.id,
    }),
  ]);
  return { id: agent.id, revokedAt };
}

export async function setAllowance(userId: string, agentId: string, dailyLimitMicros: bigint) {
  if (dailyLimitMicros < 0n || dailyLimitMicros > 1_000_000_000_000n) {
    throw new AppError("request.invalid", "An allowance is between 0 and 1 000 000 per day.");
  }
  const agent = await db.agent.findFirst({ where: { id: agentId, userId }, select: { id: true } });
  if (!agent) throw new AppError("agent.not_found", "That agent was not found.");
  await db.agentAllowance.upsert({
    where: { agentId },
    create: { agentId, dailyLimitMicros },
    update: { dailyLimitMicros },
  });
  return { agentId, dailyLimitMicros };
}

/** The agent behind a bearer token, or 401. */
type AgentRow = { tokenHash: string; id: string; userId: string; projectId: string; name: string; revoked: boolean };

// Every agent call starts here: one prepared statement for the tokens of every call that came in
// the same turn, without the ORM's work per query.
const agentByTokenHash = batchedLookup(async (hashes: string[]) => {
  const { rows } = await sqlPool().query<AgentRow>({
    name: "agents-by-token",
    text: `SELECT "tokenHash", id, "userId", "projectId", name, "revokedAt" IS NOT NULL AS revoked
             FROM "Agent" WHERE "tokenHash" = ANY($1::text[])`,
    values: [hashes],
  });
  const byHash = new Map(rows.map((row) => [row.tokenHash, row]));
  return hashes.map((h) => byHash.get(h) ?? null);
});

export async function verifyAgentToken(secret: string): Promise<AgentPrincipal> {
  if (!SECRET_PATTERN.test(secret)) throw new AppError("auth.token_invalid", "That agent token is not valid.");
  const agent = await agentByTokenHash(hash(secret));
  if (!agent) throw new AppError("auth.token_invalid", "That agent token is not valid.");
  if (agent.revoked) throw new AppError("auth.token_revoked", "That agent was revoked by its person.");
  return { agentId: agent.id, userId: agent.userId, projectId: agent.projectId, name: agent.name };
}

/** For agent API routes: `Authorization: Bearer ova_…`. */
export async function agentPrincipal(req: Request): Promise<AgentPrincipal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  if (!match?.[1]) throw new AppError("auth.required", "Send the agent token as `Authorization: Bearer ova_…`.");
  return verifyAgentToken(match[1]);
}
