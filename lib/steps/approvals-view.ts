// The approvals page in one read: the steps waiting for the person, the recent ones, and for each
// waiting step what it can cost against the balance (the page's first render and every refresh).
import "server-only";
import { consentFacts } from "./consent";
import { listStepsPage } from "./list";

export async function approvalsView(userId: string) {
  const [pending, recent] = await Promise.all([
    listStepsPage(userId, { pending: true }).then((p) => p.steps),
    listStepsPage(userId, { limit: 20 }).then((p) => p.steps),
  ]);
  const facts = await consentFacts(
    userId,
    pending.map((s) => s.id),
  );
  return { pending, recent, ...facts };
}
