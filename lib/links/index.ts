// Links: pairing, signed requests, state, listing and revoking.
export { authenticateLink, type LinkPrincipal } from "./authenticate";
export { createPairingCode, pairLink, PAIRING_CODE_TTL_MS } from "./pairing";
export { isOnline, listLinks, reportLinkState, revokeLink, ONLINE_WINDOW_MS } from "./service";
