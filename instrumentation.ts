// Runs once as each Next.js server process starts (before it serves a request): installs the hook
// that records each request's TCP peer address (rate limits, local-only metrics) and the draining
// flag for readiness.
export async function register() {
  // NEXT_RUNTIME is Next's build-time constant for the bundle being built, not configuration.
  // eslint-disable-next-line no-restricted-properties
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { installServerHooks } = await import("./lib/metrics/server-hooks");
  installServerHooks();
}
