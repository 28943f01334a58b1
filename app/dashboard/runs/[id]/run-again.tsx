"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { readApiError } from "@/components/api-error";
import { FormError } from "@/components/form-error";

/** Makes a new step with this run's tool and input, then opens it (to approve, or to watch it run). */
export function RunAgain({ jobId }: { jobId: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);

  async function again() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/runs/${encodeURIComponent(jobId)}/again`, { method: "POST" });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      const body = (await res.json()) as { step_id: string };
      router.push(`/dashboard/approvals/${encodeURIComponent(body.step_id)}`);
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <p>
        <button type="button" className="button" disabled={busy} onClick={again}>
          Run again
        </button>{" "}
        <span className="hint">Same tool and input, as a new step: you approve it as any call.</span>
      </p>
      <FormError message={error?.message ?? null} details={error?.details} />
    </>
  );
}
