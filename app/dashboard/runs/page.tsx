import Link from "next/link";
import { requireUser } from "@/lib/auth";
import { formatMicros } from "@/lib/billing/rates";
import { AppError } from "@/lib/errors";
import { listRuns, runFacets, runFilterFromQuery, RUN_STATES, type RunFilter } from "@/lib/runs";
import list from "@/components/data-table.module.css";
import { DateRange, FilterSelect, ListFilterForm, SkillAgentSelects } from "@/components/list-filters";
import styles from "./runs.module.css";
import { DashboardTitle } from "@/components/dashboard-title";
import { ListTable } from "@/components/list-table";

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
const STATE_OPTIONS = RUN_STATES.map((s) => ({ value: s, label: STATE_WORDS[s] }));

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
      <DashboardTitle title="Runs" />
      <p>
        Every run of your projects&apos; skills: which tool, for which agent, where it ran, how long it took and what it
        cost. Open one to see its input, output and error output.
      </p>

      <ListFilterForm
        action="/dashboard/runs"
        label="Filter the runs"
        clearHref={activeFilters.length ? "/dashboard/runs" : null}
        problem={filterProblem}
      >
        <SkillAgentSelects facets={facets} skill={kept.skill} agent={kept.agent} />
        <FilterSelect id="f-status" name="status" label="Status" value={kept.status} options={STATE_OPTIONS} />
        <DateRange from={kept.from} to={kept.to} />
      </ListFilterForm>

      <ListTable
        rows={page.runs.length}
        empty={
          activeFilters.length
            ? "No run matches these filters."
            : "Nothing has run yet. When you approve an agent's call, its run appears here."
        }
        label="Runs"
      >
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Skill and tool</th>
            <th scope="col">Agent</th>
            <th scope="col">Ran on</th>
            <th scope="col">Status</th>
            <th scope="col" className={list.num}>
              Wall time
            </th>
            <th scope="col" className={list.num}>
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {page.runs.map((r) => (
            <tr key={r.id} data-run-id={r.id}>
              <td className={list.when} data-label="When">
                <Link href={`/dashboard/runs/${encodeURIComponent(r.id)}`}>{when(r.created_at)}</Link>
              </td>
              <td data-label="Skill" className={styles.skill}>
                <span className="mono">
                  {r.skill}@{r.version}
                </span>
                <span className={list.sub}>
                  tool <span className="mono">{r.tool}</span>
                </span>
              </td>
              <td data-label="Agent">{r.agent ?? "—"}</td>
              <td data-label="Ran on" data-testid="run-ran-on">
                {r.ran_on ?? "not placed"}
              </td>
              <td data-label="Status">
                <span className={`pill ${styles.state} ${styles[`state_${r.state}`] ?? ""}`}>
                  {STATE_WORDS[r.state]}
                </span>
              </td>
              <td data-label="Wall time" className={list.num}>
                {duration(r.wall_ms)}
              </td>
              <td data-label="Cost" className={list.num}>
                {r.cost_micros === null ? "—" : formatMicros(r.cost_micros)}
              </td>
            </tr>
          ))}
        </tbody>
      </ListTable>
      {nextHref || filter.cursor ? (
        <nav className={list.pager} aria-label="Pages of runs">
          {filter.cursor ? <Link href={firstHref}>Newest runs</Link> : null}
          {nextHref ? <Link href={nextHref}>Older runs</Link> : null}
        </nav>
      ) : null}
    </>
  );
}
