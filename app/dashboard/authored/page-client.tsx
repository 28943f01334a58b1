"use client";

import Link from "next/link";
import { useState } from "react";
import { readApiError } from "@/components/api-error";
import { AskButton, ConfirmRow } from "@/components/confirm-row";
import { FormError } from "@/components/form-error";
import { LiveNotice } from "@/components/live-notice";
import type { AuthoredSkill, AuthoredVersion } from "@/lib/registry/authors";
import styles from "./authored.module.css";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });
const day = (iso: string) => dateFormat.format(new Date(iso));

const VERDICT: Record<AuthoredVersion["status"], string> = {
  passed: "Scan passed",
  flagged: "Flagged by the scan",
  failed: "Scan failed",
  scanning: "Scan in progress",
};

function findingsWords(v: AuthoredVersion) {
  const parts = [];
  if (v.fails) parts.push(`${v.fails} failing`);
  if (v.flags) parts.push(`${v.flags} flagged`);
  return parts.length ? `${parts.join(", ")} finding${v.fails + v.flags === 1 ? "" : "s"}` : "no findings";
}

export function AuthoredClient({ skills: initial }: { skills: AuthoredSkill[] }) {
  const [skills, setSkills] = useState(initial);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; details: string[] } | null>(null);
  const [done, setDone] = useState("");

  async function retire(slug: string, version: string) {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/v1/skills/${encodeURIComponent(slug)}/${encodeURIComponent(version)}/retire`, {
        method: "POST",
      });
      if (!res.ok) {
        const e = await readApiError(res);
        setError({ message: e.message, details: e.details });
        return;
      }
      const body = (await res.json()) as { retiredAt: string };
      setSkills((list) =>
        list.map((s) =>
          s.slug !== slug
            ? s
            : {
                ...s,
                versions: s.versions.map((v) => (v.version === version ? { ...v, retiredAt: body.retiredAt } : v)),
              },
        ),
      );
      setConfirming(null);
      setDone(`${slug}@${version} is retired.`);
    } catch {
      setError({ message: "We could not reach the server. Check your connection and try again.", details: [] });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <FormError message={error?.message ?? null} details={error?.details} />
      <LiveNotice notice={done} />
      <ul className={styles.skills}>
        {skills.map((s) => (
          <li key={s.slug} className="panel">
            <h2 className={styles.skillTitle}>
              <Link href={`/skills/${s.slug}`}>{s.name}</Link> <span className="mono muted">{s.slug}</span>
            </h2>
            <p className="muted">
              {s.installs} install{s.installs === 1 ? "" : "s"} ·{" "}
              {s.trust === "first_party" ? "First-party" : "Community"}
            </p>
            <ul className={styles.versions}>
              {s.versions.map((v) => {
                const key = `${s.slug}@${v.version}`;
                return (
                  <li key={v.version} className={styles.version}>
                    <div className={styles.versionText}>
                      <Link href={`/skills/${s.slug}/${v.version}`} className="mono">
                        {v.version}
                      </Link>{" "}
                      <span className={`pill ${styles.verdict} ${styles[v.status] ?? ""}`}>{VERDICT[v.status]}</span>{" "}
                      <span className="muted">
                        {findingsWords(v)} · published {day(v.publishedAt)}
                        {v.retiredAt ? ` · retired ${day(v.retiredAt)}` : ""}
                      </span>
                    </div>
                    <div className={styles.versionActions}>
                      {v.retiredAt ? (
                        <span className={styles.retired}>Retired</span>
                      ) : confirming === key ? (
                        <ConfirmRow
                          className={styles.versionActions}
                          label={`Confirm retiring ${key}`}
                          question={`Retire ${key}? Nobody can install or run it after this.`}
                          confirm="Yes, retire"
                          cancel="Keep it"
                          pending={pending}
                          onConfirm={() => retire(s.slug, v.version)}
                          onCancel={() => setConfirming(null)}
                        />
                      ) : (
                        <AskButton
                          action="Retire"
                          name={key}
                          onClick={() => {
                            setConfirming(key);
                            setDone("");
                          }}
                        />
                      )}
                    </div>
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}
