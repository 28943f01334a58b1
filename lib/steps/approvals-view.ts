// The approvals page in one read: the steps waiting for the person, the recent ones, and for each
// waiting step what it can cost against the balance (the page's first render and every refresh).
import "server-only";
import { consentFacts } from "./consent";
import { listSteps } from "./index";

export async function approvalsView(userId: string) {
  const [pending, recent] = await Promise.all([listSteps(userId, { pending: true }), listSteps(userId, { limit: 20 })]);
  const facts = await consentFacts(
    userId,
    pending.map((s) => s.id),
  );
  return { pending, recent, ...facts };
}
