// Whether this web process has been asked to stop. Next's own SIGTERM handling stops accepting
// connections and lets requests in flight finish; meanwhile readiness answers 503, so a load
// balancer that still holds a kept-alive connection stops sending new work here.
const KEY = Symbol.for("openvibe.draining");
const globals = globalThis as unknown as Record<symbol, { since?: number } | undefined>;
const state = (globals[KEY] ??= {});

export function markDraining(): void {
  state.since ??= Date.now();
}

export function isDraining(): boolean {
  return state.since !== undefined;
}
