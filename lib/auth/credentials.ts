// Email + password sign-in: the check next-auth's Credentials provider calls, with the Redis
// failure limit in front of it. Unknown emails cost the same scrypt work as wrong passwords, so
// timing does not reveal who has an account.
import "server-only";
import { AppError } from "../errors";
import { db } from "../db";
import { hashPassword, needsRehash, verifyPassword } from "./password";
import { assertSignInAllowed, clearSignInFailures, recordSignInFailure } from "./rate-limit";
import { normalizeEmail, type PublicUser } from "./users";

let dummyHash: Promise<string> | undefined;

function invalid() {
  return new AppError("auth.invalid_credentials", "That email and password do not match an account.");
}

/** The signed-in person, or throws `auth.invalid_credentials` (401) / `auth.rate_limited` (429). */
export async function signInWithPassword(input: { email: string; password: string; ip: string }): Promise<PublicUser> {
  const email = normalizeEmail(input.email ?? "");
  const password = input.password ?? "";
  if (!email || email.length > 254 || !password || password.length > 200) throw invalid();
  await assertSignInAllowed(email, input.ip);

  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, handle: true, passwordHash: true },
  });
  const ok = user?.passwordHash
    ? await verifyPassword(password, user.passwordHash)
    : await verifyPassword(password, await (dummyHash ??= hashPassword("not a real password"))).then(() => false);
  if (!user || !ok) {
    await recordSignInFailure(email, input.ip);
    throw invalid();
  }
  await clearSignInFailures(email, input.ip);
  // A hash from before today's scrypt cost is replaced now, while the password is at hand.
  if (user.passwordHash && needsRehash(user.passwordHash)) {
    const fresh = await hashPassword(password);
    await db.user.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash: fresh } });
  }
  return { id: user.id, email: user.email, name: user.name, handle: user.handle };
}

/** The caller's IP: the TCP peer, or what trusted proxies report (lib/http/client-ip.ts). */
export { clientIp } from "../http/client-ip";

const MAX_SIGNIN_FIELD = 512;

/**
 * Checks the shape of a credentials sign-in form (what next-auth's callback receives): an AppError
 * for malformed input, null when next-auth should judge the credentials themselves.
 */
export async function credentialsFormError(req: Request): Promise<AppError | null> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type) && !/^application\/json\b/i.test(type)) {
    return new AppError(
      "request.unsupported_media_type",
      "Send the sign-in form as application/x-www-form-urlencoded.",
    );
  }
  const text = await req.text();
  if (text.length > 8 * 1024) return new AppError("request.too_large", "The sign-in form is too large.");
  let fields: Record<string, unknown>;
  try {
    fields = /json/i.test(type)
      ? (JSON.parse(text) as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(text));
  } catch {
    return new AppError("request.invalid_json", "The sign-in body is not valid JSON.");
  }
  const details: { path: string; message: string }[] = [];
  for (const name of ["email", "password"]) {
    const value = fields?.[name];
    if (typeof value !== "string" || value.length === 0)
      details.push({ path: `/${name}`, message: `${name} is required` });
    else if (value.length > MAX_SIGNIN_FIELD) details.push({ path: `/${name}`, message: `${name} is too long` });
  }
  return details.length ? new AppError("request.invalid", "Enter your email and password.", { details }) : null;
}
