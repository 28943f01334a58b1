// Runs once when a Next.js server process starts, before it serves a request: installs the hook
// that records each request's TCP peer address (lib/http/peer-address.ts) for rate limits.
export async function register() {
  // eslint-disable-next-line no-restricted-properties -- NEXT_RUNTIME is Next's own build-time flag
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { installPeerAddressHook } = await import("./lib/http/peer-address");
    installPeerAddressHook();
  }
}
