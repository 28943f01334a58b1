// The browse form: words plus filters and sort, as a plain GET form so it works without
// JavaScript, by keyboard, and every result page has a shareable URL.
import { Field } from "@/components/field";
import type { BrowseQuery } from "@/lib/registry/browse-query";
import styles from "./browse.module.css";

type Option = { value: string; label: string };

const RUNS: Option[] = [
  { value: "", label: "Any" },
  { value: "prompt", label: "Instructions only" },
  { value: "sandbox", label: "Runs code in a sandbox" },
];
const NET: Option[] = [
  { value: "", label: "Any" },
  { value: "none", label: "No internet" },
  { value: "openvibe-only", label: "OpenVibe sites only" },
  { value: "public", label: "The internet" },
];
const STATUS: Option[] = [
  { value: "installable", label: "Passed, flagged" },
  { value: "passed", label: "Passed" },
  { value: "flagged", label: "Flagged" },
  { value: "failed", label: "Failed" },
  { value: "scanning", label: "Being scanned" },
  { value: "all", label: "Any, failed included" },
];
const TRUST: Option[] = [
  { value: "", label: "Any" },
  { value: "first_party", label: "First-party" },
  { value: "community", label: "Community" },
];
const SORT: Option[] = [
  { value: "relevance", label: "Relevance" },
  { value: "newest", label: "Newest" },
  { value: "installs", label: "Most installed" },
];

function Select({ name, label, options, value }: { name: string; label: string; options: Option[]; value: string }) {
  return (
    <Field id={`browse-${name}`} label={label} className={styles.field}>
      {(control) => (
        <select {...control} name={name} defaultValue={value} className={styles.select}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function BrowseFilters({ query }: { query: BrowseQuery }) {
  return (
    <form action="/" method="get" className={styles.filters} aria-label="Search and filter skills">
      <Field id="browse-q" label="Words" className={`${styles.field} ${styles.words}`}>
        {(control) => (
          <input
            {...control}
            name="q"
            type="search"
            defaultValue={query.q}
            maxLength={100}
            placeholder="e.g. csv statistics"
          />
        )}
      </Field>
      <Select name="runs" label="Kind" options={RUNS} value={query.runs ?? ""} />
      <Select name="net" label="Network use" options={NET} value={query.net ?? ""} />
      <Select name="status" label="Scan" options={STATUS} value={query.status} />
      <Select name="trust" label="Trust" options={TRUST} value={query.trust ?? ""} />
      <Select name="sort" label="Sort" options={SORT} value={query.sort} />
      <div className={styles.submit}>
        <button type="submit" className="button button-primary">
          Show skills
        </button>
      </div>
    </form>
  );
}
