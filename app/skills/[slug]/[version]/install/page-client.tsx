"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { readApiError } from "@/components/api-error";
import { FormError } from "@/components/form-error";
import styles from "./install.module.css";

type Props = {
  slug: string;
  version: string;
  needsAck: boolean;
  findingsHash: string | null;
  findingsCount: number;
  action: "install" | "upgrade" | "downgrade" | "reconfirm";
  from: string | null;
};

const LABEL = {
  install: "Install",
  upgrade: "Upgrade to",
  downgrade: "Go back to",
  reconfirm: "Confirm and keep",
} as const;

export function InstallForm({ slug, version, needsAck, findingsHash, findingsCount, action, from }: Props) {
  const router = useRouter();
  const [confirmed, setConfirmed] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const ready = !needsAck || confirmed;

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready) return;
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/installs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ slug, version, ...(needsAck ? { findings_ack: findingsHash } : {}) }),
      });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        if (e.code === "install.findings_ack_stale") {
          // The findings changed since this page was drawn: show the current ones to read again.
          setConfirmed(false);
          router.refresh();
        }
        return;
      }
      const body = (await res.json()) as { outcome: string; grants_revoked: number };
      const done = action === "reconfirm" ? "confirmed" : body.outcome;
      const q = new URLSearchParams({ done, skill: slug, version, dropped: String(body.grants_revoked) });
      if (from) q.set("from", from);
      router.push(`/dashboard/skills?${q.toString()}`);
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
    } finally {
      setPending(false);
    }
  }

  return (
    <form className={styles.form} onSubmit={submit}>
      {needsAck ? (
        <label className={styles.ack}>
          <input
            type="checkbox"
            name="findings_ack"
            checked={confirmed}
            onChange={(e) => setConfirmed(e.currentTarget.checked)}
          />
          <span>
            I have read the {findingsCount === 1 ? "finding" : `${findingsCount} findings`} above and want to install
            this version anyway.
          </span>
        </label>
      ) : null}
      <p>
        <button
          type="submit"
          className={`button button-primary ${styles.submit}`}
          disabled={!ready || pending}
          aria-disabled={!ready || pending}
        >
          {LABEL[action]} {slug} {version}
        </button>
      </p>
      {needsAck && !confirmed ? (
        <p className="hint" id="ack-hint">
          The button is enabled once you confirm you read the findings.
        </p>
      ) : null}
      <FormError message={error?.message ?? null} details={error?.details} />
    </form>
  );
}
