import { scopedPrincipal } from "@/lib/auth";
import { route } from "@/lib/http/route";
import { exportRun } from "@/lib/runs";

/** RUN.json: the run's attestation with its output and stderr, for `openvibe verify-run`. */
export const GET = route({
  auth: scopedPrincipal("runs:read"),
  handler: async ({ principal, params }) => {
    const run = await exportRun(principal.userId, params.id ?? "");
    return new Response(`${JSON.stringify(run, null, 2)}\n`, {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="RUN-${run.job_id}.json"`,
        "cache-control": "no-store",
      },
    });
  },
});
