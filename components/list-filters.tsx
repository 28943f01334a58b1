// A dashboard list's filter form (runs, the ledger): its selects, a date range, Filter and Clear,
// and the note that a bad filter was dropped. A plain GET form: works without script.
import Link from "next/link";
import type { ReactNode } from "react";
import list from "./data-table.module.css";
import { Field } from "./field";

type Option = { value: string; label: string };

export function FilterSelect(props: {
  id: string;
  name: string;
  label: string;
  value?: string;
  options: readonly Option[];
}) {
  return (
    <Field id={props.id} label={props.label}>
      {(control) => (
        <select {...control} name={props.name} defaultValue={props.value ?? ""} className={list.select}>
          <option value="">all</option>
          {props.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** The skill and agent selects, from the list's facets. */
export function SkillAgentSelects(props: {
  facets: { skills: readonly string[]; agents: readonly { id: string; name: string }[] };
  skill?: string;
  agent?: string;
}) {
  return (
    <>
      <FilterSelect
        id="f-skill"
        name="skill"
        label="Skill"
        value={props.skill}
        options={props.facets.skills.map((s) => ({ value: s, label: s }))}
      />
      <FilterSelect
        id="f-agent"
        name="agent"
        label="Agent"
        value={props.agent}
        options={props.facets.agents.map((a) => ({ value: a.id, label: a.name }))}
      />
    </>
  );
}

export function DateRange({ from, to }: { from?: string; to?: string }) {
  return (
    <>
      <Field id="f-from" label="From">
        {(control) => <input {...control} name="from" type="date" defaultValue={from ?? ""} className={list.date} />}
      </Field>
      <Field id="f-to" label="To">
        {(control) => <input {...control} name="to" type="date" defaultValue={to ?? ""} className={list.date} />}
      </Field>
    </>
  );
}

/**
 * The form around a list's filter fields: Filter, and Clear (to `clearHref`, shown only while a
 * filter is set); under it, why a filter was dropped.
 */
export function ListFilterForm(props: {
  action: string;
  label: string;
  clearHref: string | null;
  problem: string | null;
  children: ReactNode;
}) {
  return (
    <>
      <form method="get" action={props.action} className={list.filters} aria-label={props.label}>
        {props.children}
        <div className={list.filterButtons}>
          <button type="submit" className="button">
            Filter
          </button>
          {props.clearHref ? (
            <Link href={props.clearHref} className="button button-quiet">
              Clear
            </Link>
          ) : null}
        </div>
      </form>
      {props.problem ? (
        <p className={list.problem} role="alert">
          {props.problem}
        </p>
      ) : null}
    </>
  );
}
