import { config } from "@/lib/config/env.mjs";
import { route } from "@/lib/http/route";
import { peerAddressOf } from "@/lib/http/peer-address";
import { checkMetricsAccess, scrape } from "@/lib/metrics";

/** Prometheus metrics: with METRICS_TOKEN as a bearer token, or from a loopback socket when no token is set. */
export const GET = route({
  auth: async (req) =>
    checkMetricsAccess(req, { token: config().METRICS_TOKEN, socketAddress: peerAddressOf(req) }),
  handler: async () => {
    const { body, contentType } = await scrape();
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  },
});
