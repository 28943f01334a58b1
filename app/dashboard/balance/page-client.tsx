"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { LiveNotice } from "@/components/live-notice";
import { readApiError } from "@/components/api-error";
import { Field } from "@/components/field";
import { FormError } from "@/components/form-error";
import styles from "./balance.module.css";
import { parseUnits, unitsText } from "./units";

// getRandomValues works on plain-http pages too (randomUUID needs a secure context).
const newKey = () =>
  `topup-${Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}`;

/**
 * Top-up through the payment provider. One idempotency key per intended top-up: a retry after a
 * lost answer sends the same key, so it can never add twice; a new key is made after success.
 */
export function TopUpForm({ minMicros, maxMicros }: { minMicros: string; maxMicros: string }) {
  const router = useRouter();
  const [key, setKey] = useState(newKey);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [done, setDone] = useState("");

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("amount") ?? "");
    const micros = parseUnits(text);
    setError(null);
    setDone("");
    if (micros === null || micros < BigInt(minMicros) || micros > BigInt(maxMicros)) {
      setError({
        message: `Top up between ${unitsText(minMicros)} and ${unitsText(maxMicros)}, written like 10 or 12.50.`,
        details: [],
      });
      return;
    }
    setPending(true);
    try {
      const res = await fetch("/api/v1/balance/top-ups", {
        method: "POST",
        // The same key until it succeeds: a retry after a lost answer adds the money once.
        headers: { "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify({ amount_micros: micros.toString(), idempotency_key: key }),
      });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        if (e.code === "billing.idempotency_conflict" || e.code === "idempotency.mismatch") setKey(newKey());
        return;
      }
      const body = (await res.json()) as { balance: string; amount_micros: string; created: boolean };
      setDone(
        body.created
          ? `Added ${unitsText(body.amount_micros)}. Your balance is now ${body.balance}.`
          : `That top-up was already recorded. Your balance is ${body.balance}.`,
      );
      setKey(newKey());
      router.refresh();
    } catch {
      setError({
        message: "We could not reach the server. Trying again is safe: the same top-up is never added twice.",
        details: [],
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <form className={styles.topUp} onSubmit={submit} aria-labelledby="topup-title">
        <h3 id="topup-title" className={styles.topUpTitle}>
          Top up
        </h3>
        <Field id="topup-amount" label="Amount" describedBy="topup-hint">
          {(control) => <input {...control} name="amount" type="text" inputMode="decimal" required defaultValue="10" />}
        </Field>
        <button type="submit" className="button button-primary" disabled={pending}>
          Top up
        </button>
        <p id="topup-hint" className="hint">
          {unitsText(minMicros)} to {unitsText(maxMicros)} at a time. This site uses a demo payment provider: no real
          money moves.
        </p>
      </form>
      <FormError message={error?.message ?? null} details={error?.details} />
      <LiveNotice notice={done} className={styles.done} />
    </>
  );
}
