// The session token next-auth sets when a person signs in: a session row (lib/auth/sessions.ts)
// and the JWT that names it. Import after the environment points at the test database.
import { encode } from "next-auth/jwt";

export async function sessionToken(userId: string, secret: string): Promise<string> {
  const { startSession } = await import("../../lib/auth/sessions");
  return encode({ token: { sub: userId, sid: await startSession(userId, 3600) }, secret });
}
