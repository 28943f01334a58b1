import Link from "next/link";
import { requireUser } from "@/lib/auth";
import { formatMicros } from "@/lib/billing/rates";
import { AppError } from "@/lib/errors";
import { listRuns, runFacets, runFilterFromQuery, RUN_STATES, type RunFilter } from "@/lib/runs";
import styles from "./runs.module.css";

export const metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const timeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (d: Date) => `${timeFormat.format(d)} UTC`;
const FILTER_KEYS = ["skill", "agent", "status", "from", "to"] as const;

const STATE_WORDS: Record<(typeof RUN_STATES)[number], string> = {
  queued: "queued",
  placed: "placed",
  running: "running",
  succeeded: "succeeded",
  failed: "failed",
  cancelled: "cancelled",
  expired: "expired",
};

function duration(ms: number | null) {
  if (ms === null) return "—";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export default async function RunsPage({ searchParams }: Props) {
  const user = await requireUser("/dashboard/runs");
  const raw = await searchParams;
  const q: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(raw).map(([k, v]) => [k, one(v)?.slice(0, 200) || undefined]),
  );

  let filter: RunFilter = {};
  let filterProblem: string | null = null;
  try {
    filter = runFilterFromQuery({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, q[k]])), cursor: q.cursor });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    filterProblem =
      err.code === "run.cursor_invalid"
        ? "That page link is not valid; showing the newest runs."
        : `${err.message} Showing every run instead.`;
  }
  const [page, facets] = await Promise.all([listRuns(user.userId, filter), runFacets(user.userId)]);

  const kept = Object.fromEntries(FILTER_KEYS.flatMap((k) => (q[k] && !filterProblem ? [[k, q[k] as string]] : [])));
  const activeFilters = Object.keys(kept);
  const nextHref = page.nextCursor
    ? `/dashboard/runs?${new URLSearchParams({ ...kept, cursor: page.nextCursor }).toString()}`
    : null;
  const firstHref = `/dashboard/runs${activeFilters.length ? `?${new URLSearchParams(kept).toString()}` : ""}`;

  return (
    <>
      <p className="breadcrumb">
        <Link href="/dashboard">Dashboard</Link> / Runs
      </p>
      <h1>Runs</h1>
      <p>
        Every run of your projects&apos; skills: which tool, for which agent, where it ran, how long it took and what it
        cost. Open one to see its input, output and error output.
      </p>

      <form method="get" action="/dashboard/runs" className={styles.filters} aria-label="Filter the runs">
        <div className="field">
          <label htmlFor="f-skill">Skill</label>
          <select id="f-skill" name="skill" defaultValue={kept.skill ?? ""} className={styles.select}>
            <option value="">all</option>
            {facets.skills.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-agent">Agent</label>
          <select id="f-agent" name="agent" defaultValue={kept.agent ?? ""} className={styles.select}>
            <option value="">all</option>
            {facets.agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-status">Status</label>
          <select id="f-status" name="status" defaultValue={kept.status ?? ""} className={styles.select}>
            <option value="">all</option>
            {RUN_STATES.map((s) => (
              <option key={s} value={s}>
                {STATE_WORDS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-from">From</label>
          <input id="f-from" name="from" type="date" defaultValue={kept.from ?? ""} className={styles.date} />
        </div>
        <div className="field">
          <label htmlFor="f-to">To</label>
          <input id="f-to" name="to" type="date" defaultValue={kept.to ?? ""} className={styles.date} />
        </div>
        <div className={styles.filterButtons}>
          <button type="submit" className="button">
            Filter
          </button>
          {activeFilters.length ? (
            <Link href="/dashboard/runs" className="button button-quiet">
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      {filterProblem ? (
        <p className={styles.problem} role="alert">
          {filterProblem}
        </p>
      ) : null}

      {page.runs.length === 0 ? (
        <p className="empty">
          {activeFilters.length
            ? "No run matches these filters."
            : "Nothing has run yet. When you approve an agent's call, its run appears here."}
        </p>
      ) : (
        <div className={styles.tableWrap} tabIndex={0} role="region" aria-label="Runs">
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Skill and tool</th>
                <th scope="col">Agent</th>
                <th scope="col">Ran on</th>
                <th scope="col">Status</th>
                <th scope="col" className={styles.num}>
                  Wall time
                </th>
                <th scope="col" className={styles.num}>
                  Cost
                </th>
              </tr>
            </thead>
            <tbody>
              {page.runs.map((r) => (
                <tr key={r.id} data-run-id={r.id}>
                  <td className={styles.when} data-label="When">
                    <Link href={`/dashboard/runs/${encodeURIComponent(r.id)}`}>{when(r.created_at)}</Link>
                  </td>
                  <td data-label="Skill" className={styles.skill}>
                    <span className="mono">
                      {r.skill}@{r.version}
                    </span>
                    <span className={styles.sub}>
                      tool <span className="mono">{r.tool}</span>
                    </span>
                  </td>
                  <td data-label="Agent">{r.agent ?? "—"}</td>
                  <td data-label="Ran on" data-testid="run-ran-on">
                    {r.ran_on ?? "not placed"}
                  </td>
                  <td data-label="Status">
                    <span className={`${styles.state} ${styles[`state_${r.state}`] ?? ""}`}>
                      {STATE_WORDS[r.state]}
                    </span>
                  </td>
                  <td data-label="Wall time" className={styles.num}>
                    {duration(r.wall_ms)}
                  </td>
                  <td data-label="Cost" className={styles.num}>
                    {r.cost_micros === null ? "—" : formatMicros(r.cost_micros)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextHref || filter.cursor ? (
        <nav className={styles.pager} aria-label="Pages of runs">
          {filter.cursor ? <Link href={firstHref}>Newest runs</Link> : null}
          {nextHref ? <Link href={nextHref}>Older runs</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
