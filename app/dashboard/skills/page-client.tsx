"use client";

import { LiveNotice } from "@/components/live-notice";
import { CardList } from "@/components/card-list";
import { AskButton, ConfirmRow } from "@/components/confirm-row";
import Link from "next/link";
import { useState } from "react";
import { readApiError } from "@/components/api-error";
import { FormError } from "@/components/form-error";
import { ScanBadge, TrustBadge } from "@/components/skill-card";
import type { GrantView, InstallView } from "@/lib/installs";
import styles from "./skills.module.css";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (iso: string) => `${dateFormat.format(new Date(iso))} UTC`;

const BLOCKED_WORDS: Record<NonNullable<InstallView["blocked"]>, string> = {
  retired: "Its author retired this version: its tools can no longer run. Install a newer version.",
  scan_failed: "This version failed the scan: its tools cannot run.",
  scan_pending: "This version is being scanned again: its tools wait until the scan is done.",
  findings_changed:
    "The scan's findings changed since you confirmed them: its tools cannot run until you confirm again.",
};

const VERDICT_WORDS = { passed: "passed", flagged: "flagged", failed: "failed" } as const;

/** Why a newer scanner's rescan made this version's verdict worse, in words. */
function rescanWords(n: NonNullable<InstallView["rescan"]>): string {
  const grants =
    n.grants_revoked > 0
      ? ` Your ${n.grants_revoked} “always allow” grant${n.grants_revoked === 1 ? " was" : "s were"} revoked: the next call asks you again.`
      : " The next call asks you again.";
  return (
    `A newer scanner rescanned this version on ${when(n.at)}: its scan went from “${VERDICT_WORDS[n.from]}” to “${VERDICT_WORDS[n.to]}”` +
    (n.rules.length ? ` (${n.rules.join(", ")}).` : ".") +
    grants
  );
}

type Failure = { message: string; details: string[] };
const offline: Failure = {
  message: "We could not reach the server. Check your connection and try again.",
  details: [],
};

export function MySkillsClient({
  initialInstalls,
  initialGrants,
}: {
  initialInstalls: InstallView[];
  initialGrants: GrantView[];
}) {
  const [installs, setInstalls] = useState(initialInstalls);
  const [grants, setGrants] = useState(initialGrants);
  const [pending, setPending] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [error, setError] = useState<Failure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function call(key: string, url: string, init: RequestInit): Promise<unknown> {
    setPending(key);
    setError(null);
    setNotice(null);
    try {
      const res = await fetch(url, init);
      if (!res.ok) {
        setError(await readApiError(res));
        return null;
      }
      return await res.json();
    } catch {
      setError(offline);
      return null;
    } finally {
      setPending(null);
    }
  }

  async function toggle(i: InstallView) {
    const body = (await call(i.id, `/api/v1/installs/${encodeURIComponent(i.id)}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ enabled: !i.enabled }),
    })) as { install: InstallView } | null;
    if (!body) return;
    setInstalls((list) => list.map((x) => (x.id === i.id ? body.install : x)));
    setNotice(
      body.install.enabled
        ? `${i.slug} is enabled: agents can call its tools again (each call still asks you).`
        : `${i.slug} is disabled: its tools cannot be called from now on.`,
    );
  }

  async function uninstall(i: InstallView) {
    const body = await call(i.id, `/api/v1/installs/${encodeURIComponent(i.id)}`, { method: "DELETE" });
    if (!body) return;
    setInstalls((list) => list.filter((x) => x.id !== i.id));
    setGrants((list) => list.filter((g) => g.slug !== i.slug));
    setConfirming(null);
    setNotice(`${i.slug} is uninstalled, and its “always allow” grants are revoked.`);
  }

  async function revoke(g: GrantView) {
    const body = await call(g.id, `/api/v1/grants/${encodeURIComponent(g.id)}`, { method: "DELETE" });
    if (!body) return;
    setGrants((list) => list.filter((x) => x.id !== g.id));
    setNotice(`${g.slug} ${g.version} ${g.tool} asks for your approval again.`);
  }

  return (
    <>
      <LiveNotice notice={notice ?? ""} />
      <FormError message={error?.message ?? null} details={error?.details} />

      <section aria-labelledby="installed-title" className={styles.section}>
        <h2 id="installed-title">Installed skills</h2>
        <CardList
          rows={installs.length}
          empty={
            <>
              You have no skills installed. <Link href="/">Browse skills</Link> to find one.
            </>
          }
        >
          {installs.map((i) => (
            <li
              key={i.id}
              className={i.enabled ? `card ${styles.install}` : `card ${styles.install} ${styles.disabled}`}
              data-install-id={i.id}
              data-slug={i.slug}
              aria-label={`${i.name} (${i.slug})`}
            >
              <div className={styles.installMain}>
                <Link href={`/skills/${i.slug}/${i.version}`} className={styles.installName}>
                  {i.name}
                </Link>{" "}
                <span className="mono muted">{`${i.slug}@${i.version}`}</span>
                <ScanBadge status={i.status} />
                <TrustBadge trust={i.trust} />
                <span className={`${styles.pill} ${i.enabled ? styles.on : styles.off}`}>
                  {i.enabled ? "enabled" : "disabled"}
                </span>
              </div>
              <p className={styles.installMeta}>
                {i.runs === "sandbox" ? "Runs code in a sandbox" : "Instructions only"} · installed{" "}
                {when(i.installed_at)}
                {i.enabled ? null : " · its tools cannot be called"}
              </p>
              {i.blocked ? (
                <p className={styles.warn}>
                  {BLOCKED_WORDS[i.blocked]}{" "}
                  {i.blocked === "findings_changed" ? (
                    <Link href={`/skills/${i.slug}/${i.version}/install`}>Read and confirm them</Link>
                  ) : null}
                </p>
              ) : null}
              {i.rescan ? (
                <p className={styles.warn} data-testid="rescan-notice">
                  {rescanWords(i.rescan)} <Link href={`/skills/${i.slug}/${i.version}`}>See the findings</Link>
                </p>
              ) : null}
              {i.latest ? (
                <p className={styles.installMeta}>
                  Version {i.latest} is available:{" "}
                  <Link href={`/skills/${i.slug}/${i.latest}/install`}>see what changes and upgrade</Link>.
                </p>
              ) : null}
              {confirming === i.id ? (
                <ConfirmRow
                  className={styles.actions}
                  label={`Confirm uninstalling ${i.slug}`}
                  question={`Uninstall ${i.slug}? Its “always allow” grants are revoked too.`}
                  confirm="Yes, uninstall"
                  pending={pending === i.id}
                  onConfirm={() => uninstall(i)}
                  onCancel={() => setConfirming(null)}
                />
              ) : (
                <div className={styles.actions}>
                  <button
                    type="button"
                    className={i.enabled ? "button" : "button button-primary"}
                    disabled={pending === i.id}
                    onClick={() => toggle(i)}
                    aria-label={`${i.enabled ? "Disable" : "Enable"} ${i.slug}`}
                  >
                    {i.enabled ? "Disable" : "Enable"}
                  </button>
                  <AskButton action="Uninstall" name={i.slug} onClick={() => setConfirming(i.id)} />
                </div>
              )}
            </li>
          ))}
        </CardList>
      </section>

      <section aria-labelledby="grants-title" className={styles.section}>
        <h2 id="grants-title">Always allowed</h2>
        <p className="hint">
          Tools you let run without asking. Each covers exactly one version of one tool: a new version asks again.
        </p>
        <CardList rows={grants.length} empty="No tool runs without asking you.">
          {grants.map((g) => (
            <li key={g.id} className={`card ${styles.grant}`} data-grant-id={g.id}>
              <span>
                <span className="mono">{`${g.slug}@${g.version}`}</span> · tool <code>{g.tool}</code>{" "}
                <span className="muted">since {when(g.created_at)}</span>
              </span>
              <button
                type="button"
                className="button"
                disabled={pending === g.id}
                onClick={() => revoke(g)}
                aria-label={`Revoke always allow for ${g.slug} ${g.version} ${g.tool}`}
              >
                Revoke
              </button>
            </li>
          ))}
        </CardList>
      </section>
    </>
  );
}
