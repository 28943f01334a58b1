import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { approvalsView } from "@/lib/steps/approvals-view";

/** The approvals page's data: waiting and recent steps, each waiting step's cost, and the balance. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  handler: async ({ principal }) => approvalsView(principal.userId),
});
