// Links: pairing, signed requests, state, listing, turning off, revoking, and OpenVibe's pool.
export { authenticateLink, type LinkPrincipal } from "./authenticate";
export { createPairingCode, pairLink, PAIRING_CODE_TTL_MS } from "./pairing";
export { isOnline, listLinks, reportLinkState, revokeLink, turnRunnerOff, ONLINE_WINDOW_MS } from "./service";
export { approvePoolLink, revokePoolLink, listPoolLinks, type PoolLinkView } from "./pool";
export { linkKey, poolKeys, type LinkKeyView } from "./keys";
