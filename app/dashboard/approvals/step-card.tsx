// What an approval card shows of one step (the list's cards and a step's own page): the call, its
// facts and input, and the decision buttons, with "Top up and approve" when the balance falls short.
import Link from "next/link";
import type { ReactNode } from "react";
import { readApiError } from "@/components/api-error";
import styles from "./approvals.module.css";
import { CostFacts, Shortfall, TopUpAndApprove, type StepCost } from "./consent";
import type { StepView } from "./page-client";

export type Decision = "once" | "always" | "deny";

const timeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
export const when = (iso: string) => `${timeFormat.format(new Date(iso))} UTC`;

export type DecisionAnswer =
  { ok: true; step: StepView } | { ok: false; reached: boolean; error: { message: string; details: string[] } };

/** POSTs the person's decision; `reached` false when the server could not be reached at all. */
export async function postDecision(stepId: string, decision: Decision): Promise<DecisionAnswer> {
  try {
    const res = await fetch(`/api/v1/steps/${encodeURIComponent(stepId)}/decision`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ decision }),
    });
    if (!res.ok) {
      const e = await readApiError(res);
      return { ok: false, reached: true, error: { message: e.message, details: e.details } };
    }
    return { ok: true, step: (await res.json()) as StepView };
  } catch {
    const message = "We could not reach the server. Check your connection and try again.";
    return { ok: false, reached: false, error: { message, details: [] } };
  }
}

/** The title (an h2 or h3), the label, the facts (with the cost rows when `cost` is given) and the input. */
export function StepSummary(props: {
  step: StepView;
  heading: "h2" | "h3";
  cost: { cost: StepCost | undefined; balanceMicros: string } | null;
}) {
  const { step, heading: Heading } = props;
  return (
    <>
      <Heading className={styles.stepTitle}>
        <span className="mono">{step.target}</span>
      </Heading>
      <p className={styles.label}>{step.label}</p>
      <dl className={`facts ${styles.facts}`}>
        <dt>Agent</dt>
        <dd>{step.agent ?? "an agent that was removed"}</dd>
        <dt>Network</dt>
        <dd>
          <span className={step.net === "public" ? styles.netWarn : styles.net}>{step.net_words}</span>
        </dd>
        <dt>Asked</dt>
        <dd>{when(step.created_at)}</dd>
        <dt>Expires</dt>
        <dd>{when(step.expires_at)}</dd>
        {props.cost ? <CostFacts cost={props.cost.cost} balanceMicros={props.cost.balanceMicros} /> : null}
      </dl>
      <p className={styles.inputLabel}>Input (as the agent sent it)</p>
      <pre className={styles.input}>{step.input_preview}</pre>
    </>
  );
}

/** Approve once / Always allow / Deny, or Top up and approve / Deny when the balance cannot cover the run. */
export function DecisionButtons(props: {
  step: StepView;
  cost: StepCost | undefined;
  balanceMicros: string;
  busy: boolean;
  decide: (decision: Decision) => void;
}) {
  const { step, cost, busy, decide } = props;
  return (
    <>
      {cost && !cost.covered ? <Shortfall cost={cost} balanceMicros={props.balanceMicros} /> : null}
      <div className={styles.buttons} role="group" aria-label={`Decide on ${step.target}`}>
        {cost && !cost.covered ? (
          <TopUpAndApprove stepId={step.id} />
        ) : (
          <>
            <button type="button" className="button button-primary" disabled={busy} onClick={() => decide("once")}>
              Approve once
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => decide("always")}>
              Always allow
            </button>
          </>
        )}
        <button type="button" className="button button-danger" disabled={busy} onClick={() => decide("deny")}>
          Deny
        </button>
      </div>
      <p className="hint">“Always allow” covers exactly this version&apos;s tool; a new version asks again.</p>
    </>
  );
}

/** Where to go from a decided step: its run, and the way out of the reason it could not run. */
export function StepLinks({ step, children }: { step: StepView; children?: ReactNode }) {
  return (
    <p className={styles.links}>
      {step.job ? <Link href={`/dashboard/runs/${encodeURIComponent(step.job.id)}`}>See the run</Link> : null}
      {step.status === "no_node" ? (
        <Link href="/dashboard/links" className="button">
          Run it on my machine
        </Link>
      ) : null}
      {step.status === "insufficient_balance" ? <Link href="/dashboard/balance">Top up your balance</Link> : null}
      {children}
    </p>
  );
}
