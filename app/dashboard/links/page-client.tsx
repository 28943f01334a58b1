"use client";

import { AskButton, ConfirmRow } from "@/components/confirm-row";
import { CardList } from "@/components/card-list";
import { LiveNotice } from "@/components/live-notice";
import { SecretRow } from "@/components/secret-row";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { readApiError } from "@/components/api-error";
import { FormError } from "@/components/form-error";
import styles from "./links.module.css";

export type LinkRow = {
  id: string;
  name: string;
  online: boolean;
  lastSeenAt: string | null;
  runner: "on" | "off";
  runnerOffRemotely: boolean;
  pool: boolean;
  poolApproved: boolean;
  jobsRun: number;
  revokedAt: string | null;
  createdAt: string;
};

type Pairing = { code: string; expires_at: string; command: string };
export type ProjectPool = { id: string; name: string; slug: string; allow_pool: boolean };

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string | null) => (iso ? `${dateFormat.format(new Date(iso))} UTC` : "never");
const OFFLINE = {
  message: "We could not reach the server. Check your connection and try again.",
  details: [] as string[],
};
/** While a pairing code is shown, look for the new Link this often. */
const WATCH_MS = 4_000;

export function LinksClient({ links, projects }: { links: LinkRow[]; projects: ProjectPool[] }) {
  const router = useRouter();
  const [pairing, setPairing] = useState<Pairing | null>(null);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [pending, setPending] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  // After a revoke its buttons are gone: focus moves to the notice that says what happened.
  const noticeRef = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (!pairing) return;
    const timer = window.setInterval(() => router.refresh(), WATCH_MS);
    return () => window.clearInterval(timer);
  }, [pairing, router]);

  async function newCode() {
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/v1/links/pairing-codes", { method: "POST" });
      if (res.status !== 201) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      setPairing((await res.json()) as Pairing);
    } catch {
      setError(OFFLINE);
    } finally {
      setPending(false);
    }
  }

  const [pools, setPools] = useState(projects);

  async function send(path: string, init: RequestInit, done: string): Promise<boolean> {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(path, {
        ...init,
        headers: { "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
      });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return false;
      }
      setNotice(done);
      noticeRef.current?.focus();
      router.refresh();
      return true;
    } catch {
      setError(OFFLINE);
      return false;
    } finally {
      setPending(false);
    }
  }

  const turnOff = (link: LinkRow) =>
    send(
      `/api/v1/links/${encodeURIComponent(link.id)}/runner`,
      { method: "POST", body: JSON.stringify({ runner: "off" }) },
      `Turned the skill runner of ${link.name} off. It takes no more jobs; turn it on again on that machine.`,
    );

  async function setPool(project: ProjectPool, allow: boolean) {
    // Shown at once; put back if the server did not take it.
    const choose = (value: boolean) =>
      setPools((list) => list.map((p) => (p.id === project.id ? { ...p, allow_pool: value } : p)));
    choose(allow);
    const saved = await send(
      `/api/v1/projects/${encodeURIComponent(project.id)}`,
      { method: "PATCH", body: JSON.stringify({ allow_pool: allow }) },
      allow
        ? `Runs of ${project.name} may go to OpenVibe's pool when none of your Links can take them.`
        : `Runs of ${project.name} now run only on your own Links.`,
    );
    if (!saved) choose(!allow);
  }

  async function revoke(link: LinkRow) {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/links/${encodeURIComponent(link.id)}`, { method: "DELETE" });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      setConfirming(null);
      setNotice(`Revoked ${link.name}. Its next request will be refused.`);
      noticeRef.current?.focus();
      router.refresh();
    } catch {
      setError(OFFLINE);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <section className="panel" aria-labelledby="pair-title">
        <h2 id="pair-title">Pair a new Link</h2>
        <p>
          Get a one-time code, then run the command on the machine you want to pair. The code works once and for ten
          minutes.
        </p>
        <p>
          <button type="button" className="button button-primary" onClick={newCode} disabled={pending}>
            {pairing ? "Get another code" : "Pair a new Link"}
          </button>
        </p>
        {pairing ? (
          <div className={`secret-panel ${styles.pairing}`} role="status" aria-live="polite">
            <p>
              Your pairing code: <strong className={`mono ${styles.code}`}>{pairing.code}</strong>
              <span className="muted"> (expires {when(pairing.expires_at)})</span>
            </p>
            <p className={styles.stepTitle}>1. On that machine, run:</p>
            <SecretRow key={pairing.command} id="pair-command" label="Pairing command" value={pairing.command} />
            <p className={styles.stepTitle}>2. Turn its skill runner on:</p>
            <pre className={styles.command}>openvibe-link skills on</pre>
            <p className={styles.stepTitle}>
              3. Start it (add --pool to also run other people&apos;s jobs for the pool):
            </p>
            <pre className={styles.command}>openvibe-link run [--pool]</pre>
            <p className="hint">The new Link shows up below by itself once it has paired.</p>
          </div>
        ) : null}
      </section>

      <FormError message={error?.message ?? null} details={error?.details} />
      <LiveNotice ref={noticeRef} notice={notice} />

      <section className="panel" aria-labelledby="pool-title">
        <h2 id="pool-title">OpenVibe&apos;s pool</h2>
        <p>
          When none of your Links can take a run, it may go to a machine OpenVibe runs for everyone. It costs more per
          second, and the run page then says “OpenVibe pool”.
        </p>
        <ul className="card-list">
          {pools.map((p) => (
            <li key={p.id} className={styles.poolChoice}>
              <label>
                <input
                  type="checkbox"
                  checked={p.allow_pool}
                  disabled={pending}
                  onChange={(e) => setPool(p, e.currentTarget.checked)}
                />{" "}
                Runs of <strong>{p.name}</strong> may use OpenVibe&apos;s pool
              </label>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="link-list-title">
        <h2 id="link-list-title">Your Links</h2>
        <CardList rows={links.length} empty="You have no Links yet. Pair one to run skills on your own machine.">
          {links.map((l) => (
            <li
              key={l.id}
              className={`card ${styles.link}${l.revokedAt ? ` ${styles.revoked}` : ""}`}
              data-link-id={l.id}
            >
              <div className={styles.head}>
                <strong>{l.name}</strong>
                {l.revokedAt ? (
                  <span className="badge badge-danger">revoked</span>
                ) : (
                  <span className={l.online ? styles.online : styles.offline}>{l.online ? "online" : "offline"}</span>
                )}
              </div>
              <dl className={`facts ${styles.facts}`}>
                <dt>Last seen</dt>
                <dd>{when(l.lastSeenAt)}</dd>
                <dt>Skill runner</dt>
                <dd>
                  {l.runner === "on"
                    ? "on"
                    : l.runnerOffRemotely
                      ? "off (turned off here; turn it on on that machine: openvibe-link skills on)"
                      : "off (openvibe-link skills on)"}
                </dd>
                <dt>Offered to OpenVibe&apos;s pool</dt>
                <dd>
                  {l.pool
                    ? l.poolApproved
                      ? "yes, approved by OpenVibe"
                      : "offered; it serves only you until OpenVibe approves it"
                    : "no (runs only your jobs)"}
                </dd>
                <dt>Jobs run</dt>
                <dd>{l.jobsRun}</dd>
                <dt>Paired</dt>
                <dd>{when(l.createdAt)}</dd>
                {l.revokedAt ? (
                  <>
                    <dt>Revoked</dt>
                    <dd>{when(l.revokedAt)}</dd>
                  </>
                ) : null}
              </dl>
              {l.revokedAt ? null : confirming === l.id ? (
                <ConfirmRow
                  className={styles.confirm}
                  label={`Confirm revoking ${l.name}`}
                  question={`Revoke “${l.name}”? Its next request is refused; pair it again to use it.`}
                  confirm="Yes, revoke"
                  pending={pending}
                  onConfirm={() => revoke(l)}
                  onCancel={() => setConfirming(null)}
                />
              ) : (
                <div className={styles.actions}>
                  {l.runner === "on" ? (
                    <button
                      type="button"
                      className="button"
                      disabled={pending}
                      onClick={() => turnOff(l)}
                      aria-label={`Turn runner off: ${l.name}`}
                    >
                      Turn runner off
                    </button>
                  ) : null}
                  <AskButton action="Revoke" name={l.name} onClick={() => setConfirming(l.id)} />
                </div>
              )}
            </li>
          ))}
        </CardList>
      </section>
    </>
  );
}
