// What a browse URL asks for (`/?q=…&runs=…&net=…&status=…&trust=…&sort=…&page=…&after=…`), parsed
// once with one error code for anything it cannot read. Pure: no database, usable in tests and pages.
import { z } from "zod";
import { AppError } from "../errors";
import { decodeCursor, encodeCursor, MAX_CURSOR_CHARS, type BrowseCursor } from "./browse-cursor";

export const PAGE_SIZE = 20;
/** Numbered pages are read by OFFSET, so they stop here; "Next" pages by keyset (`after`) do not. */
export const MAX_PAGE = 500;
export const MAX_QUERY_CHARS = 100;

/** `installable` (the default) is passed + flagged; failed and scanning show only when asked for. */
export const STATUS_FILTERS = ["installable", "passed", "flagged", "failed", "scanning", "all"] as const;
/** The widest network any of the skill's tools may use; prompt skills use none. */
export const NET_FILTERS = ["none", "openvibe-only", "public"] as const;
export const RUNS_FILTERS = ["prompt", "sandbox"] as const;
export const TRUST_FILTERS = ["first_party", "community"] as const;
export const SORTS = ["relevance", "newest", "installs"] as const;

export type StatusFilter = (typeof STATUS_FILTERS)[number];
export type NetFilter = (typeof NET_FILTERS)[number];
export type Sort = (typeof SORTS)[number];

export type BrowseQuery = {
  q: string;
  runs: (typeof RUNS_FILTERS)[number] | null;
  net: NetFilter | null;
  status: StatusFilter;
  trust: (typeof TRUST_FILTERS)[number] | null;
  sort: Sort;
  /** The page number shown; rows are read by OFFSET from it unless `after` is given. */
  page: number;
  /** Keyset paging: the page starts right after this sort key (the last row of the page before). */
  after: BrowseCursor | null;
};

export const DEFAULT_QUERY: BrowseQuery = {
  q: "",
  runs: null,
  net: null,
  status: "installable",
  trust: null,
  sort: "relevance",
  page: 1,
  after: null,
};

// An empty value (a form's "Any" option) means "no filter".
const optional = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.enum(values).optional());

const schema = z.object({
  q: z
    .string()
    .max(MAX_QUERY_CHARS, `Search with at most ${MAX_QUERY_CHARS} characters.`)
    .optional(),
  runs: optional(RUNS_FILTERS),
  net: optional(NET_FILTERS),
  status: optional(STATUS_FILTERS),
  trust: optional(TRUST_FILTERS),
  sort: optional(SORTS),
  page: z.preprocess(
    (v) => (v === "" || v === undefined ? undefined : Number(v)),
    z.number().int("The page is a whole number.").min(1, "Pages start at 1.").max(MAX_PAGE, `Pages stop at ${MAX_PAGE}: narrow the search.`).optional(),
  ),
  after: z
    .string()
    .max(MAX_CURSOR_CHARS, "The page link is not one this site made.")
    .refine((v) => v === "" || decodeCursor(v) !== null, "The page link is not one this site made.")
    .optional(),
});

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

/** The query of a browse URL; throws `search.invalid_query` (422) naming each bad parameter. */
export function parseBrowseQuery(params: Params): BrowseQuery {
  const raw: Record<string, string> = {};
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  for (const [k, v] of entries) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && !(k in raw)) raw[k] = value;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError("search.invalid_query", "Some of the search options could not be read.", {
      details: parsed.error.issues.map((i) => ({
        path: `/${i.path.join("/")}`,
        code: "search.invalid_query",
        message: `${String(i.path[0] ?? "query")}: ${i.message}`,
      })),
    });
  }
  const d = parsed.data;
  return {
    q: (d.q ?? "").replace(/\s+/g, " ").trim(),
    runs: d.runs ?? null,
    net: d.net ?? null,
    status: d.status ?? DEFAULT_QUERY.status,
    trust: d.trust ?? null,
    sort: d.sort ?? DEFAULT_QUERY.sort,
    page: d.page ?? 1,
    after: d.after ? decodeCursor(d.after) : null,
  };
}

/**
 * The URL search string of a query, leaving defaults out so URLs stay short and shareable. A
 * keyset position is kept only when `change` gives one: any other link starts from its page.
 */
export function browseHref(query: BrowseQuery, change: Partial<BrowseQuery> = {}): string {
  const next = { ...query, after: null, ...change };
  const p = new URLSearchParams();
  if (next.q) p.set("q", next.q);
  if (next.runs) p.set("runs", next.runs);
  if (next.net) p.set("net", next.net);
  if (next.status !== DEFAULT_QUERY.status) p.set("status", next.status);
  if (next.trust) p.set("trust", next.trust);
  if (next.sort !== DEFAULT_QUERY.sort) p.set("sort", next.sort);
  if (next.page !== 1) p.set("page", String(next.page));
  if (next.after) p.set("after", encodeCursor(next.after));
  const s = p.toString();
  return s ? `/?${s}` : "/";
}
