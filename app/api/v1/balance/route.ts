import { scopedPrincipal } from "@/lib/auth";
import { accountOf } from "@/lib/billing/ledger";
import { formatMicros } from "@/lib/billing/rates";
import { ledgerFilterFromQuery, ledgerRowJson, listLedger } from "@/lib/billing/usage";
import { route } from "@/lib/http/route";
import { balanceQuery } from "@/lib/openapi/schemas";

/** The person's Balance (and what unsettled runs hold of it) and one page of their ledger (filters: kind, from/to days, skill, agent). */
export const GET = route({
  auth: scopedPrincipal("billing:read"),
  query: balanceQuery,
  handler: async ({ principal, query }) => {
    const filter = ledgerFilterFromQuery(query);
    const [account, page] = await Promise.all([accountOf(principal.userId), listLedger(principal.userId, filter)]);
    return {
      balance_micros: account.balanceMicros.toString(),
      balance: formatMicros(account.balanceMicros),
      held_micros: account.heldMicros.toString(),
      held: formatMicros(account.heldMicros),
      ledger: { entries: page.entries.map(ledgerRowJson), next_cursor: page.nextCursor },
    };
  },
});
