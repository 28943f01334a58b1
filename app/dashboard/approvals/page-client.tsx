"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { LiveNotice } from "@/components/live-notice";
import { CardList } from "@/components/card-list";
import { FormError } from "@/components/form-error";
import { useLiveEvents } from "@/components/use-live-events";
import styles from "./approvals.module.css";
import { money, type StepCost } from "./consent";
import { DecisionButtons, postDecision, StepLinks, StepSummary, when, type Decision } from "./step-card";

export type StepView = {
  id: string;
  kind: string;
  label: string;
  target: string;
  status: string;
  agent: string | null;
  net: "deny" | "openvibe-only" | "public";
  net_words: string;
  input_preview: string;
  message: string | null;
  created_at: string;
  expires_at: string;
  job: {
    id: string;
    state: string;
    placement: string | null;
    wall_ms: number | null;
    cost_micros: string | null;
  } | null;
};

export type ApprovalsData = {
  pending: StepView[];
  recent: StepView[];
  balance_micros: string;
  costs: Record<string, StepCost>;
};

const LIVE_EVENTS = ["steps"] as const;

const STATUS_WORDS: Record<string, string> = {
  pending_approval: "waiting for you",
  queued: "approved, waiting for a machine",
  running: "running",
  succeeded: "succeeded",
  failed: "failed",
  denied: "denied",
  expired: "expired",
  no_node: "no machine to run it",
  insufficient_balance: "not enough balance",
};

const DECISION_WORDS: Record<Decision, string> = {
  once: "Approved once",
  always: "Always allowed (this version's tool)",
  deny: "Denied",
};

function wall(ms: number | null) {
  if (ms === null) return null;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function ApprovalsClient({ initial }: { initial: ApprovalsData }) {
  const [pending, setPending] = useState(initial.pending);
  const [recent, setRecent] = useState(initial.recent);
  const [costs, setCosts] = useState(initial.costs);
  const [balance, setBalance] = useState(initial.balance_micros);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [announce, setAnnounce] = useState("");
  const [decided, setDecided] = useState<Record<string, Decision>>({});
  const [stale, setStale] = useState(false);
  const inFlight = useRef(false);
  // The decided card disappears with its buttons: keep keyboard focus on the list it was in.
  const pendingHeading = useRef<HTMLHeadingElement>(null);

  // An event that arrives while a read is in flight is read again after it, never dropped.
  const again = useRef(false);

  const refresh = useCallback(async () => {
    if (document.hidden) return;
    if (inFlight.current) {
      again.current = true;
      return;
    }
    inFlight.current = true;
    try {
      do {
        again.current = false;
        try {
          const res = await fetch("/api/v1/approvals", { cache: "no-store" });
          if (!res.ok) {
            setStale(true);
            continue;
          }
          const data = (await res.json()) as ApprovalsData;
          setPending(data.pending);
          setRecent(data.recent);
          setCosts(data.costs);
          setBalance(data.balance_micros);
          setStale(false);
        } catch {
          setStale(true);
        }
      } while (again.current);
    } finally {
      inFlight.current = false;
    }
  }, []);

  // Live: the person's step events (GET /api/v1/events) say when to read the list again.
  useLiveEvents(LIVE_EVENTS, refresh);
  useEffect(() => {
    const onVisible = () => {
      if (!document.hidden) void refresh();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [refresh]);

  async function decide(step: StepView, decision: Decision) {
    setBusy(step.id);
    setError(null);
    const answer = await postDecision(step.id, decision);
    if (answer.ok) {
      const updated = answer.step;
      setDecided((d) => ({ ...d, [step.id]: decision }));
      setPending((list) => list.filter((s) => s.id !== step.id));
      setRecent((list) => [updated, ...list.filter((s) => s.id !== step.id)]);
      setAnnounce(
        `${DECISION_WORDS[decision]}: ${step.target}. Now ${STATUS_WORDS[updated.status] ?? updated.status}.`,
      );
    } else {
      setError(answer.error);
      if (answer.reached) await refresh();
    }
    setBusy(null);
  }

  return (
    <>
      <LiveNotice notice={announce} />
      <LiveNotice
        notice={stale ? "We could not refresh this page just now; it will try again with the next change." : ""}
        className={styles.stale}
      />
      <FormError message={error?.message ?? null} details={error?.details} />

      <section aria-labelledby="pending-title" className={styles.section}>
        <h2 id="pending-title" ref={pendingHeading} tabIndex={-1}>
          Waiting for you {pending.length ? <span className="badge">{pending.length}</span> : null}
        </h2>
        <CardList
          rows={pending.length}
          empty="No step is waiting for you. When an agent asks to run a skill, it appears here."
        >
          {pending.map((s) => (
            <li key={s.id} className={styles.step} data-step-id={s.id}>
              <StepSummary step={s} heading="h3" cost={{ cost: costs[s.id], balanceMicros: balance }} />
              <DecisionButtons
                step={s}
                cost={costs[s.id]}
                balanceMicros={balance}
                busy={busy !== null}
                decide={(decision) => decide(s, decision)}
              />
            </li>
          ))}
        </CardList>
      </section>

      <section aria-labelledby="recent-title" className={styles.section}>
        <h2 id="recent-title">Recent steps</h2>
        <CardList rows={recent.length} empty="Your agents have not asked to run anything yet.">
          {recent.map((s) => (
            <li key={s.id} className={styles.recent} data-step-id={s.id}>
              <div className={styles.recentHead}>
                <span className="mono">{s.target}</span>
                <span className={`${styles.status} ${styles[`status_${s.status}`] ?? ""}`}>
                  {STATUS_WORDS[s.status] ?? s.status}
                </span>
              </div>
              <p className={styles.meta}>
                {s.agent ?? "removed agent"} · {when(s.created_at)}
                {decided[s.id] ? ` · ${DECISION_WORDS[decided[s.id] as Decision]} by you just now` : ""}
                {s.job?.wall_ms != null ? ` · ${wall(s.job.wall_ms)}` : ""}
                {s.job?.cost_micros != null ? ` · cost ${money(s.job.cost_micros)}` : ""}
              </p>
              {s.message ? <p className={styles.message}>{s.message}</p> : null}
              <StepLinks step={s} />
            </li>
          ))}
        </CardList>
      </section>
    </>
  );
}
