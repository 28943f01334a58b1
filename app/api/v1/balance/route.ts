import { sessionPrincipal } from "@/lib/auth";
import { balanceOf } from "@/lib/billing/ledger";
import { formatMicros } from "@/lib/billing/rates";
import { ledgerFilterFromQuery, ledgerRowJson, listLedger } from "@/lib/billing/usage";
import { route, z } from "@/lib/http/route";

const param = z.string().max(100).optional();

/** The person's Balance and one page of their ledger (filters: kind, from/to days, skill, agent). */
export const GET = route({
  auth: sessionPrincipal,
  query: z.object({ kind: param, from: param, to: param, skill: param, agent: param, cursor: param, limit: param }),
  handler: async ({ principal, query }) => {
    const filter = ledgerFilterFromQuery(query);
    const [balance, page] = await Promise.all([balanceOf(principal.userId), listLedger(principal.userId, filter)]);
    return {
      balance_micros: balance.toString(),
      balance: formatMicros(balance),
      ledger: { entries: page.entries.map(ledgerRowJson), next_cursor: page.nextCursor },
    };
  },
});
