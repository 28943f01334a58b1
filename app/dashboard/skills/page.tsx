import Link from "next/link";
import { LiveNotice } from "@/components/live-notice";
import { requireUser } from "@/lib/auth";
import { AppError } from "@/lib/errors";
import {
  AUDIT_DAYS_DEFAULT,
  AUDIT_DAYS_MAX,
  AUDIT_DAYS_MIN,
  auditReport,
  listGrants,
  listInstalls,
} from "@/lib/installs";
import { formatBytes } from "@/lib/protocol";
import { MySkillsClient } from "./page-client";
import styles from "./skills.module.css";
import { ColumnHeads } from "@/components/column-heads";
import { DashboardTitle } from "@/components/dashboard-title";
import { Field } from "@/components/field";

export const metadata = { title: "My skills" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const timeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
const when = (iso: string) => `${timeFormat.format(new Date(iso))} UTC`;

function wallWords(ms: number | null) {
  if (ms === null) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** The banner after an install from the install page: what happened, in words. */
function doneWords(q: Record<string, string | undefined>): string | null {
  const ref = q.skill && q.version ? `${q.skill} ${q.version}` : null;
  if (!ref) return null;
  const dropped = Number(q.dropped ?? "0");
  const grants =
    dropped > 0
      ? ` ${dropped} “always allow” grant${dropped === 1 ? "" : "s"} of ${q.from ?? "the old version"} dropped: it asks again.`
      : "";
  switch (q.done) {
    case "installed":
      return `Installed ${ref}.`;
    case "upgraded":
      return `Upgraded to ${ref}.${grants}`;
    case "downgraded":
      return `Went back to ${ref}.${grants}`;
    case "confirmed":
      return `Confirmed the current findings of ${ref}: its tools can run again.`;
    case "unchanged":
      return `${ref} was already installed.`;
    default:
      return null;
  }
}

export default async function MySkillsPage({ searchParams }: Props) {
  const user = await requireUser("/dashboard/skills");
  const raw = await searchParams;
  const q = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, one(v)]));
  const asked = Number(q.days ?? AUDIT_DAYS_DEFAULT);
  const daysValid = Number.isInteger(asked) && asked >= AUDIT_DAYS_MIN && asked <= AUDIT_DAYS_MAX;
  const days = daysValid ? asked : AUDIT_DAYS_DEFAULT;

  const report = auditReport({ userId: user.userId, days, cursor: q.cursor ?? null }).catch((err: unknown) => {
    // A stale or edited page link: show the first page instead of an error.
    if (!(err instanceof AppError && err.code === "audit.cursor_invalid")) throw err;
    return auditReport({ userId: user.userId, days });
  });
  const [installs, grants, audit] = await Promise.all([listInstalls(user.userId), listGrants(user.userId), report]);
  const { summary, hosts } = audit;
  const banner = doneWords(q);

  return (
    <>
      <DashboardTitle title="My skills" />
      <LiveNotice notice={banner ?? ""} />

      <MySkillsClient initialInstalls={installs} initialGrants={grants} />

      <section aria-labelledby="audit-title" className={styles.section}>
        <h2 id="audit-title">Audit: what your skills ran</h2>
        <form method="get" action="/dashboard/skills" className={styles.auditForm}>
          <Field id="audit-days" label="Days" describedBy="audit-days-hint">
            {(control) => (
              <input
                {...control}
                name="days"
                type="number"
                inputMode="numeric"
                min={AUDIT_DAYS_MIN}
                max={AUDIT_DAYS_MAX}
                step={1}
                defaultValue={days}
                required
              />
            )}
          </Field>
          <button type="submit" className="button">
            Show
          </button>
          <a href={`/api/v1/audit.csv?days=${days}`} className="button" download>
            Download CSV
          </a>
          <p id="audit-days-hint" className="hint">
            Choose {AUDIT_DAYS_MIN} to {AUDIT_DAYS_MAX} days: every call of your skills&apos; tools in that time is
            listed.
            {daysValid
              ? null
              : ` “${q.days}” is not a number of days from ${AUDIT_DAYS_MIN} to ${AUDIT_DAYS_MAX}: showing ${days}.`}
          </p>
        </form>

        {summary.length === 0 ? (
          <p className="empty">
            No skill ran in the last {days} day{days === 1 ? "" : "s"}.
          </p>
        ) : (
          <>
            <div className={`table-scroll ${styles.tableWrap}`} role="region" aria-label="Tools that ran" tabIndex={0}>
              <table className={`data-table ${styles.table}`}>
                <caption className={styles.caption}>
                  Tools that ran in the last {days} day{days === 1 ? "" : "s"}
                </caption>
                <ColumnHeads names={["Skill", "Tool", "Runs", "Last run"]} />
                <tbody>
                  {summary.map((r) => (
                    <tr key={`${r.slug}@${r.version} ${r.tool}`}>
                      <td className="mono">{`${r.slug}@${r.version}`}</td>
                      <td>
                        <code>{r.tool}</code>
                      </td>
                      <td>{r.runs}</td>
                      <td>{when(r.last_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className={`table-scroll ${styles.tableWrap}`} role="region" aria-label="Hosts tried" tabIndex={0}>
              <table className={`data-table ${styles.table}`} data-testid="audit-hosts">
                <caption className={styles.caption}>
                  Hosts your skills&apos; tools tried in the last {days} day{days === 1 ? "" : "s"}, as the Links signed
                  it
                </caption>
                <ColumnHeads names={["Skill", "Host", "Outcome", "Runs", "Up / down", "Last"]} />
                <tbody>
                  {hosts.length === 0 ? (
                    <tr>
                      <td colSpan={6} className="muted">
                        No network connections.
                      </td>
                    </tr>
                  ) : (
                    hosts.map((h) => (
                      <tr key={`${h.slug} ${h.host}:${h.port} ${h.verdict}`}>
                        <td className="mono">{h.slug}</td>
                        <td className="mono">{`${h.host}:${h.port}`}</td>
                        <td>{h.verdict === "denied" ? "blocked" : "allowed"}</td>
                        <td>{h.runs}</td>
                        <td>{`${formatBytes(h.bytes_up)} / ${formatBytes(h.bytes_down)}`}</td>
                        <td>{when(h.last_at)}</td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
            <div className={`table-scroll ${styles.tableWrap}`} role="region" aria-label="Every run" tabIndex={0}>
              <table className={`data-table ${styles.table}`}>
                <caption className={styles.caption}>Every run, newest first</caption>
                <ColumnHeads names={["Time", "Skill", "Tool", "Agent", "Step", "Exit", "Wall time"]} />
                <tbody>
                  {audit.steps.map((r) => (
                    <tr key={r.id} data-step-id={r.id}>
                      <td>{when(r.at)}</td>
                      <td className="mono">{`${r.slug}@${r.version}`}</td>
                      <td>
                        <code>{r.tool}</code>
                      </td>
                      <td>{r.agent ?? <span className="muted">—</span>}</td>
                      <td>{r.status.replaceAll("_", " ")}</td>
                      <td>{r.exit ?? "—"}</td>
                      <td>{wallWords(r.wall_ms)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p className={styles.pager}>
              {q.cursor ? <Link href={`/dashboard/skills?days=${days}`}>Newest runs</Link> : null}
              {audit.next_cursor ? (
                <Link href={`/dashboard/skills?days=${days}&cursor=${encodeURIComponent(audit.next_cursor)}`}>
                  Older runs
                </Link>
              ) : null}
            </p>
          </>
        )}
      </section>
    </>
  );
}
