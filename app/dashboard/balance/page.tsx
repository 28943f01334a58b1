import Link from "next/link";
import { requireUser } from "@/lib/auth";
import { LEDGER_FILTER_KEYS, USAGE_DAYS, balanceQuery, loadBalancePage } from "@/lib/billing/balance-page";
import { MAX_TOP_UP_MICROS, MIN_TOP_UP_MICROS } from "@/lib/billing/payments";
import { formatMicros } from "@/lib/billing/rates";
import { LEDGER_KINDS } from "@/lib/billing/usage";
import list from "@/components/data-table.module.css";
import { DateRange, FilterSelect, ListFilterForm, SkillAgentSelects } from "@/components/list-filters";
import styles from "./balance.module.css";
import { TopUpForm } from "./page-client";
import { ReturnToStep } from "./return-to-step";
import { UsageChart } from "./usage-chart";
import { DashboardTitle } from "@/components/dashboard-title";
import { Field } from "@/components/field";
import { ListTable } from "@/components/list-table";

export const metadata = { title: "Balance" };
export const dynamic = "force-dynamic";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const timeFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const when = (d: Date) => `${timeFormat.format(d)} UTC`;
const KIND_WORDS: Record<(typeof LEDGER_KINDS)[number], string> = {
  topup: "top-up",
  charge: "charge",
  refund: "refund",
};
const KIND_OPTIONS = LEDGER_KINDS.map((k) => ({ value: k, label: KIND_WORDS[k] }));

export default async function BalancePage({ searchParams }: Props) {
  const user = await requireUser("/dashboard/balance");
  const q = balanceQuery(await searchParams);
  const {
    filterProblem,
    ledger,
    days,
    balance,
    bySkill,
    byAgent,
    facets,
    activeFilters,
    nextHref,
    firstHref,
    clearHref,
  } = await loadBalancePage(user.userId, q);

  return (
    <>
      <DashboardTitle title="Balance" />
      <ReturnToStep userId={user.userId} stepId={q.step} />

      <section className={`panel ${styles.balancePanel}`} aria-labelledby="balance-title">
        <h2 id="balance-title" className="visually-hidden">
          Your balance
        </h2>
        <p className={styles.balanceLine}>
          <span className={styles.balanceLabel}>Your balance</span>
          <strong className={styles.balance} data-testid="balance">
            {formatMicros(balance)}
          </strong>
        </p>
        <p className="hint">
          Runs are charged per started second: less on your own Links than on the shared pool. A run holds its most
          possible cost when it starts and gives back what it did not use.
        </p>
        <TopUpForm minMicros={MIN_TOP_UP_MICROS.toString()} maxMicros={MAX_TOP_UP_MICROS.toString()} />
      </section>

      <section aria-labelledby="usage-title" className={styles.section}>
        <h2 id="usage-title">Usage</h2>
        <form method="get" action="/dashboard/balance" className={list.filters}>
          {LEDGER_FILTER_KEYS.map((k) => (q[k] ? <input key={k} type="hidden" name={k} value={q[k]} /> : null))}
          <Field id="usage-days" label="Days">
            {(control) => (
              <select {...control} name="days" defaultValue={String(days)} className={list.select}>
                {USAGE_DAYS.map((d) => (
                  <option key={d} value={d}>
                    last {d} days
                  </option>
                ))}
              </select>
            )}
          </Field>
          <button type="submit" className="button">
            Show
          </button>
        </form>
        <div className={styles.charts}>
          <UsageChart
            id="usage-skill"
            title={`Spend per day by skill, last ${days} days (UTC)`}
            usage={bySkill}
            what="skills"
          />
          <UsageChart
            id="usage-agent"
            title={`Spend per day by agent, last ${days} days (UTC)`}
            usage={byAgent}
            what="agents"
          />
        </div>
      </section>

      <section aria-labelledby="ledger-title" className={styles.section}>
        <h2 id="ledger-title">Ledger</h2>
        <ListFilterForm
          action="/dashboard/balance"
          label="Filter the ledger"
          clearHref={activeFilters.length ? clearHref : null}
          problem={filterProblem}
        >
          {q.days ? <input type="hidden" name="days" value={q.days} /> : null}
          <FilterSelect id="f-kind" name="kind" label="Kind" value={q.kind} options={KIND_OPTIONS} />
          <DateRange from={q.from} to={q.to} />
          <SkillAgentSelects facets={facets} skill={q.skill} agent={q.agent} />
        </ListFilterForm>

        <ListTable
          rows={ledger.entries.length}
          empty={activeFilters.length ? "No entries match these filters." : "No entries yet. Top up to start."}
          label="Ledger entries"
        >
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col">What</th>
              <th scope="col" className={list.num}>
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {ledger.entries.map((e) => (
              <tr key={e.id} data-kind={e.kind}>
                <td className={list.when} data-label="When">
                  {when(e.createdAt)}
                </td>
                <td data-label="Kind">{KIND_WORDS[e.kind]}</td>
                <td data-label="What" className={styles.what}>
                  {e.memo}
                  {e.skillSlug || e.agent ? (
                    <span className={list.sub}>
                      {e.skillSlug ? <span className="mono">{e.skillSlug}</span> : null}
                      {e.skillSlug && e.agent ? " · " : null}
                      {e.agent ? e.agent.name : null}
                      {e.jobId ? (
                        <>
                          {" · "}
                          <Link href={`/dashboard/runs/${encodeURIComponent(e.jobId)}`}>run</Link>
                        </>
                      ) : null}
                    </span>
                  ) : null}
                </td>
                <td data-label="Amount" className={`${list.num} ${e.amountMicros < 0n ? styles.minus : styles.plus}`}>
                  {e.amountMicros > 0n ? "+" : ""}
                  {formatMicros(e.amountMicros)}
                </td>
              </tr>
            ))}
          </tbody>
        </ListTable>
        {nextHref || firstHref ? (
          <p className={list.pager}>
            {firstHref ? <Link href={firstHref}>First page</Link> : null}
            {nextHref ? <Link href={nextHref}>Older entries</Link> : null}
          </p>
        ) : null}
      </section>
    </>
  );
}
