// The one Prometheus registry of a process (on globalThis: Next may load this module once per
// bundle), with Node's default process metrics and the request-duration histogram that the
// route wrapper feeds. Request histograms are per process, as Prometheus expects.
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";

export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

type Metrics = {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status">;
  storeGauges: boolean;
};

const holder = globalThis as unknown as { openvibeMetrics?: Metrics };

function create(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: "openvibe_http_request_duration_seconds",
    help: "Time from a request reaching a route handler to its response, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  });
  return { registry, httpDuration, storeGauges: false };
}

export function metrics(): Metrics {
  holder.openvibeMetrics ??= create();
  return holder.openvibeMetrics;
}
