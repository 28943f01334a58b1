// What the Balance page shows, from its query string: the ledger filter (a bad one is dropped and
// said so), a page of the ledger (a stale cursor falls back on the first page), the usage window
// in whole UTC days, and the links to the next page and to no filter.
import "server-only";
import { AppError } from "../errors";
import { balanceOf } from "./ledger";
import {
  dayText,
  ledgerFacets,
  ledgerFilterFromQuery,
  listLedger,
  usageByDay,
  usageRange,
  type LedgerFilter,
} from "./usage";

export const USAGE_DAYS = [7, 14, 30, 90] as const;
export const LEDGER_FILTER_KEYS = ["kind", "from", "to", "skill", "agent"] as const;
const DEFAULT_USAGE_DAYS = 14;
const DAY_MS = 86_400_000;
const PAGE = "/dashboard/balance";

export type BalanceQuery = Record<string, string | undefined>;

/** Next's searchParams: the first value of each, empty ones dropped. */
export function balanceQuery(raw: Record<string, string | string[] | undefined>): BalanceQuery {
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, (Array.isArray(v) ? v[0] : v) || undefined]));
}

function filterOf(q: BalanceQuery): { filter: LedgerFilter; problem: string | null } {
  try {
    return {
      filter: ledgerFilterFromQuery({
        ...Object.fromEntries(LEDGER_FILTER_KEYS.map((k) => [k, q[k]])),
        cursor: q.cursor,
      }),
      problem: null,
    };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { filter: {}, problem: `${err.message} Showing everything instead.` };
  }
}

async function ledgerPage(userId: string, filter: LedgerFilter) {
  try {
    return await listLedger(userId, filter);
  } catch (err) {
    // A stale or edited page link: show the first page instead of an error.
    if (!(err instanceof AppError && err.code === "billing.cursor_invalid")) throw err;
    return listLedger(userId, { ...filter, cursor: undefined });
  }
}

export async function loadBalancePage(userId: string, q: BalanceQuery, today = new Date()) {
  const { filter, problem } = filterOf(q);
  const days = USAGE_DAYS.find((d) => String(d) === q.days) ?? DEFAULT_USAGE_DAYS;
  const range = usageRange({ from: dayText(new Date(today.getTime() - (days - 1) * DAY_MS)) }, today);
  const [ledger, balance, bySkill, byAgent, facets] = await Promise.all([
    ledgerPage(userId, filter),
    balanceOf(userId),
    usageByDay(userId, range, "skill"),
    usageByDay(userId, range, "agent"),
    ledgerFacets(userId),
  ]);
  const activeFilters = LEDGER_FILTER_KEYS.filter((k) => q[k]);
  const nextHref = ledger.nextCursor
    ? `${PAGE}?${new URLSearchParams({
        ...Object.fromEntries(LEDGER_FILTER_KEYS.flatMap((k) => (q[k] ? [[k, q[k] as string]] : []))),
        ...(q.days ? { days: q.days } : {}),
        cursor: ledger.nextCursor,
      }).toString()}#ledger-title`
    : null;
  const firstHref = q.cursor
    ? `${PAGE}?${new URLSearchParams(
        Object.fromEntries([...LEDGER_FILTER_KEYS, "days"].flatMap((k) => (q[k] ? [[k, q[k] as string]] : []))),
      ).toString()}#ledger-title`
    : null;
  const clearHref = q.days ? `${PAGE}?days=${q.days}` : PAGE;
  return {
    filterProblem: problem,
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
  };
}
