"use client";

import { LiveNotice } from "@/components/live-notice";
import { useState } from "react";
import { readApiError } from "@/components/api-error";
import { FormError } from "@/components/form-error";

export type PoolRow = {
  id: string;
  name: string;
  owner: string;
  online: boolean;
  runner: "on" | "off";
  offered: boolean;
  approvedAt: string | null;
  jobsRun: number;
};

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export function AdminPoolClient({ initial }: { initial: PoolRow[] }) {
  const [rows, setRows] = useState(initial);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [notice, setNotice] = useState("");
  const [pending, setPending] = useState<string | null>(null);

  async function change(row: PoolRow, approve: boolean) {
    setPending(row.id);
    setError(null);
    try {
      const res = await fetch(`/api/v1/admin/pool/${encodeURIComponent(row.id)}`, {
        method: approve ? "POST" : "DELETE",
        headers: { "idempotency-key": crypto.randomUUID() },
      });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      const approvedAt = approve ? new Date().toISOString() : null;
      setRows((list) => list.map((r) => (r.id === row.id ? { ...r, approvedAt } : r)));
      setNotice(
        approve
          ? `${row.name} is now an OpenVibe pool machine.`
          : `${row.name} is out of the pool; it serves only @${row.owner}.`,
      );
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
    } finally {
      setPending(null);
    }
  }

  return (
    <>
      <FormError message={error?.message ?? null} details={error?.details} />
      <LiveNotice notice={notice} />
      {rows.length === 0 ? (
        <p className="empty">No machine offers itself to the pool yet (openvibe-link run --pool).</p>
      ) : (
        <ul className="panel" style={{ listStyle: "none", display: "grid", gap: "0.75rem" }}>
          {rows.map((r) => (
            <li key={r.id} data-link-id={r.id} style={{ display: "grid", gap: "0.35rem" }}>
              <div>
                <strong>{r.name}</strong> <span className="muted">@{r.owner}</span>{" "}
                <span className="mono muted">{r.id}</span>
              </div>
              <div className="muted">
                {r.online ? "online" : "offline"} · runner {r.runner} · {r.offered ? "offers itself" : "not offering"} ·{" "}
                {r.jobsRun} jobs ·{" "}
                {r.approvedAt ? `approved ${dateFormat.format(new Date(r.approvedAt))} UTC` : "not approved"}
              </div>
              <div>
                <button
                  type="button"
                  className={r.approvedAt ? "button button-danger" : "button button-primary"}
                  disabled={pending === r.id}
                  onClick={() => change(r, !r.approvedAt)}
                  aria-label={r.approvedAt ? `Take ${r.name} out of the pool` : `Approve ${r.name} as a pool machine`}
                >
                  {r.approvedAt ? "Take out of the pool" : "Approve as a pool machine"}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
