"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { readApiError } from "@/components/api-error";
import { FormError } from "@/components/form-error";
import type { StepView } from "../page-client";
import styles from "../approvals.module.css";
import { CostFacts, Shortfall, TopUpAndApprove, type StepCost } from "../consent";

export type OneStep = StepView;
type Decision = "once" | "always" | "deny";

const timeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
const when = (iso: string) => `${timeFormat.format(new Date(iso))} UTC`;

const OUTCOME: Record<string, string> = {
  queued: "Approved. Your agent gets the result as soon as a Link has run it.",
  running: "Approved: it is running now.",
  succeeded: "It ran; your agent has the result.",
  denied: "Denied. Nothing ran.",
  expired: "Nobody decided in time, so nothing ran.",
  no_node: "Approved, but no Link can run it now.",
  insufficient_balance: "Approved, but your balance cannot cover this run.",
  failed: "It ran and failed.",
};

/** The decision buttons for one step, or what became of it. */
export function StepDecision({
  initial,
  cost,
  balanceMicros,
}: {
  initial: OneStep;
  cost: StepCost | undefined;
  balanceMicros: string;
}) {
  const [step, setStep] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const pending = step.status === "pending_approval" && new Date(step.expires_at) > new Date();

  async function decide(decision: Decision) {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/steps/${encodeURIComponent(step.id)}/decision`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ decision }),
      });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      setStep((await res.json()) as OneStep);
      statusRef.current?.focus();
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className={styles.step} data-step-id={step.id}>
      <h2 className={styles.stepTitle}>
        <span className="mono">{step.target}</span>
      </h2>
      <p className={styles.label}>{step.label}</p>
      <dl className={styles.facts}>
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
        {pending ? <CostFacts cost={cost} balanceMicros={balanceMicros} /> : null}
      </dl>
      <p className={styles.inputLabel}>Input (as the agent sent it)</p>
      <pre className={styles.input}>{step.input_preview}</pre>
      <FormError message={error?.message ?? null} details={error?.details} />
      {pending ? (
        <>
          {cost && !cost.covered ? <Shortfall cost={cost} balanceMicros={balanceMicros} /> : null}
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
      ) : (
        <>
          <p ref={statusRef} tabIndex={-1} role="status" className={styles.message}>
            {OUTCOME[step.status] ?? (step.status === "pending_approval" ? "This step expired." : step.status)}
            {step.message ? ` ${step.message}` : ""}
          </p>
          <p className={styles.links}>
            {step.job ? <Link href={`/dashboard/runs/${encodeURIComponent(step.job.id)}`}>See the run</Link> : null}
            {step.status === "no_node" ? (
              <Link href="/dashboard/links" className="button">
                Run it on my machine
              </Link>
            ) : null}
            {step.status === "insufficient_balance" ? <Link href="/dashboard/balance">Top up your balance</Link> : null}
            <Link href="/dashboard/approvals">All approvals</Link>
          </p>
        </>
      )}
    </article>
  );
}
