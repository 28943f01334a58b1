// Where a person's runs may go: always their own Links first; OpenVibe's pool (operator-approved
// machines) only when the project allows it. Allowed by default, as ADR-060 says; the person
// chooses per project on the Links page.
import "server-only";
import { db } from "../db";
import { AppError } from "../errors";
import { recordAudit } from "../audit";

export async function projectPoolChoices(userId: string) {
  const projects = await db.project.findMany({
    where: { ownerId: userId },
    orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }],
    select: { id: true, name: true, slug: true, allowPool: true },
  });
  return projects.map((p) => ({ id: p.id, name: p.name, slug: p.slug, allow_pool: p.allowPool }));
}

/** Applies to runs submitted from now on; a job already queued keeps the choice it was made with. */
export async function setProjectPool(userId: string, projectId: string, allowPool: boolean) {
  const { count } = await db.project.updateMany({ where: { id: projectId, ownerId: userId }, data: { allowPool } });
  if (count !== 1) throw new AppError("project.not_found", "That project was not found.");
  await recordAudit(db, {
    userId,
    actor: `user:${userId}`,
    action: allowPool ? "project.pool_allowed" : "project.pool_refused",
    subjectType: "project",
    subjectId: projectId,
  });
  return { id: projectId, allow_pool: allowPool };
}
