// Operators: the people who run OpenVibe itself. They approve machines for OpenVibe's pool
// (`npm run admin`, /admin). To anyone else the admin surface does not exist: it answers 404.
import "server-only";
import { normalizeEmail } from "../auth/handles";
import { db } from "../db";
import { AppError } from "../errors";
import { recordAudit } from "../audit";

export async function isOperator(userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { role: true } });
  return user?.role === "operator";
}

/** For admin routes: a person who is not an operator gets the same 404 as a path that does not exist. */
export async function requireOperator(userId: string): Promise<void> {
  if (!(await isOperator(userId))) throw new AppError("not_found", "That page was not found.");
}

/** Makes a person an operator, or a person again (the admin command line only). */
export async function setOperator(email: string, operator: boolean) {
  const user = await db.user.findUnique({ where: { email: normalizeEmail(email) }, select: { id: true } });
  if (!user) throw new AppError("not_found", `Nobody signed up as ${email}.`);
  await db.$transaction([
    db.user.update({ where: { id: user.id }, data: { role: operator ? "operator" : "person" } }),
    recordAudit(db, {
        userId: user.id,
        actor: "admin-cli",
        action: operator ? "user.operator_granted" : "user.operator_revoked",
        subjectType: "user",
        subjectId: user.id,
      }),
  ]);
  return { id: user.id, role: operator ? ("operator" as const) : ("person" as const) };
}
