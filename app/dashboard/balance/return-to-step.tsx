// Reached from an approval card's "Top up and approve": names the waiting step and leads back to it,
// where it can be approved once the balance covers it. Another person's step shows nothing.
import Link from "next/link";
import { formatMicros } from "@/lib/billing/rates";
import { AppError } from "@/lib/errors";
import { personStep } from "@/lib/mcp";
import { consentFacts } from "@/lib/steps/consent";

const STEP_ID = /^[A-Za-z0-9_-]{1,64}$/;

export async function ReturnToStep({ userId, stepId }: { userId: string; stepId: string | undefined }) {
  if (!stepId || !STEP_ID.test(stepId)) return null;
  let step;
  try {
    step = await personStep(userId, stepId);
  } catch (err) {
    if (err instanceof AppError && err.code === "step.not_found") return null;
    throw err;
  }
  const cost = (await consentFacts(userId, [step.id])).costs[step.id];
  if (!cost) return null;
  const back = `/dashboard/approvals/${encodeURIComponent(step.id)}`;
  const waiting = step.status === "pending_approval";
  return (
    <section className="panel" aria-labelledby="return-title" data-testid="return-to-step">
      <h2 id="return-title">Your run is waiting</h2>
      <p>
        <span className="mono">{step.target}</span> holds up to {formatMicros(BigInt(cost.hold_micros))} while it runs.{" "}
        {!waiting
          ? "It is no longer waiting for you."
          : cost.covered
            ? "Your balance covers it now."
            : "Top up below, then go back to approve it."}
      </p>
      <p>
        <Link href={back} className={`button ${waiting && cost.covered ? "button-primary" : ""}`}>
          Back to the step
        </Link>
      </p>
    </section>
  );
}
