// Health and metrics: readiness of the stores, the Prometheus registry and its scrape, who may
// read it, and the hooks a web process installs at start.
import "server-only";

export { checkMetricsAccess } from "./access";
export { isDraining, markDraining } from "./draining";
export { forgetReadiness, readiness, READY_RETRY_AFTER_S, type Readiness } from "./health";
export { closeProbes } from "./probe-connections";

export { forgetStoreStats, scrape } from "./scrape";
