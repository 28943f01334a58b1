// The Link protocol: the one part of lib/ that the Link imports. Limits, `net` values, statuses,
// the zod schemas of every message, and request signing. Pure: no database, no config, no server.
export * from "./limits";
export * from "./net";
export * from "./patterns";
export * from "./statuses";
export * from "./messages";
export * from "./signing";
export * from "./canonical-json";
export * from "./egress";
export * from "./attestation";
