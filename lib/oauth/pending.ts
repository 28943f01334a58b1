// An authorization request waiting for the person to sign in. Sign-in returns to a path of at
// most 512 characters, which a long request can outgrow, so the query is kept in Redis for ten
// minutes under a random id and the path carries only the id. Losing it only restarts the sign-in.
import "server-only";
import { randomBytes } from "node:crypto";
import { key, redis } from "../redis";

const PENDING_TTL_S = 600;
const MAX_QUERY = 8_000;

export async function stashAuthorization(query: string): Promise<string> {
  const id = randomBytes(18).toString("base64url");
  await redis().set(key("oauth", "pending", id), query.slice(0, MAX_QUERY), "EX", PENDING_TTL_S);
  return id;
}

export async function takeStashedAuthorization(id: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{24}$/.test(id)) return null;
  return redis().get(key("oauth", "pending", id));
}
