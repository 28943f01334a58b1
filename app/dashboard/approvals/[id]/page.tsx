import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/auth";
import { AppError } from "@/lib/errors";
import { personStep } from "@/lib/mcp";
import { consentFacts } from "@/lib/steps/consent";
import { StepDecision, type OneStep } from "./step-decision";

export const metadata = { title: "Approve a run" };
export const dynamic = "force-dynamic";

/** One step's approval page: where an MCP client's URL elicitation sends the person. */
export default async function ApproveStepPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireUser(`/dashboard/approvals/${encodeURIComponent(id)}`);
  let step;
  try {
    step = await personStep(user.userId, id.slice(0, 64));
  } catch (err) {
    if (err instanceof AppError && err.code === "step.not_found") notFound();
    throw err;
  }
  const facts = await consentFacts(user.userId, [step.id]);
  const view = JSON.parse(JSON.stringify(step, (_k, v) => (typeof v === "bigint" ? v.toString() : v))) as OneStep;
  return (
    <>
      <p className="breadcrumb">
        <Link href="/dashboard">Dashboard</Link> / <Link href="/dashboard/approvals">Approvals</Link> / This run
      </p>
      <h1>Approve a run</h1>
      <p>
        Your agent asked to run a skill&apos;s code. It runs in a sandbox on one of your Links (or a pool machine),
        never on our servers, and only if you approve.
      </p>
      <StepDecision initial={view} cost={facts.costs[step.id]} balanceMicros={facts.balance_micros} />
    </>
  );
}
