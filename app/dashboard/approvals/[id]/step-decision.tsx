"use client";

import Link from "next/link";
import { useRef, useState } from "react";
import { FormError } from "@/components/form-error";
import { LiveNotice } from "@/components/live-notice";
import type { StepView } from "../page-client";
import styles from "../approvals.module.css";
import type { StepCost } from "../consent";
import { DecisionButtons, postDecision, StepLinks, StepSummary, type Decision } from "../step-card";

export type OneStep = StepView;

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
    const answer = await postDecision(step.id, decision);
    if (answer.ok) {
      setStep(answer.step);
      statusRef.current?.focus();
    } else {
      setError(answer.error);
    }
    setBusy(false);
  }

  return (
    <article className={styles.step} data-step-id={step.id}>
      <StepSummary step={step} heading="h2" cost={pending ? { cost, balanceMicros } : null} />
      <FormError message={error?.message ?? null} details={error?.details} />
      {pending ? (
        <DecisionButtons step={step} cost={cost} balanceMicros={balanceMicros} busy={busy} decide={decide} />
      ) : (
        <>
          <LiveNotice
            ref={statusRef}
            className={styles.message}
            notice={`${OUTCOME[step.status] ?? (step.status === "pending_approval" ? "This step expired." : step.status)}${step.message ? ` ${step.message}` : ""}`}
          />
          <StepLinks step={step}>
            <Link href="/dashboard/approvals">All approvals</Link>
          </StepLinks>
        </>
      )}
    </article>
  );
}
