// The verifier keys of the logs OpenVibe itself runs, published in the repository so that a client
// never has to trust a first use for them: `openvibe verify` (and the Link) refuse any other key
// from these servers, and a registry host whose APP_URL is listed refuses to sign with another key.
//
// A production key is made once with `npm run tlog:keygen -- <origin>`; its PRIVATE+KEY line goes
// into the deployment's TLOG_SIGNING_KEY secret and its verifier key is added here, in the same
// release. Local instances are not listed: their clients pin the key they first see.
export type KnownLog = { server: string; vkey: string };

export const KNOWN_LOGS: readonly KnownLog[] = [];

/** The published key of the log at `server` (a base URL), if OpenVibe lists one. */
export function knownLogKey(server: string, known: readonly KnownLog[] = KNOWN_LOGS): string | null {
  const origin = serverId(server);
  return known.find((k) => serverId(k.server) === origin)?.vkey ?? null;
}

/** A server's identity for pinning: its origin plus path, without a trailing slash. */
export function serverId(server: string): string {
  const url = new URL(server);
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
