// The egress record's host names, bounds and markers (./egress has its schema), without zod: the
// Link's proxy keeps its record with these, and `exec` loads no schema library.

/** Most distinct entries one run records; further attempts fold into the last entry (never dropped). */
export const MAX_EGRESS_ENTRIES = 128;
/** What a host becomes in the record when the tool asked for something that is not a host name. */
export const UNREADABLE_HOST = "(unreadable)";
/** The entry that counts attempts past MAX_EGRESS_ENTRIES. */
export const OVERFLOW_HOST = "(more hosts)";

/** A host as the record may hold it: a name, a bracketed address, or one of the two markers. */
export const EGRESS_HOST = /^(\[[0-9a-fA-F:.]{2,45}\]|[A-Za-z0-9._-]{1,253}|\(unreadable\)|\(more hosts\))$/;

/** A host as the record keeps it: lowercased, without a trailing dot, or UNREADABLE_HOST. */
export function recordedHost(host: string): string {
  const name = host.toLowerCase().replace(/\.$/, "");
  return EGRESS_HOST.test(name) && name.length <= 253 ? name : UNREADABLE_HOST;
}

/** "2.1 KB" for a byte count, as the run page and the CLI say it. */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)} KB`;
  return `${(n / 1_000_000).toFixed(1)} MB`;
}
