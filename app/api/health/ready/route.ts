import { json, route } from "@/lib/http/route";
import { readiness, READY_RETRY_AFTER_S } from "@/lib/metrics";

/** Readiness: PostgreSQL, migrations, Redis and queue lag; 503 with the reason and Retry-After when not ready. */
export const GET = route({
  handler: async ({ requestId }) => {
    const result = await readiness();
    const body = { status: result.ready ? "ready" : "not_ready", reason: result.reason, checks: result.checks };
    const response = json(body, result.ready ? 200 : 503, requestId);
    if (!result.ready) response.headers.set("retry-after", String(READY_RETRY_AFTER_S));
    return response;
  },
});
