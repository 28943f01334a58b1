// Who is on the other end of a request, for rate limits and the sign-in lockout. By default the
// TCP peer (lib/http/peer-address.ts) is the client and forwarding headers are ignored, so a
// client cannot move its own limit by sending X-Forwarded-For. With TRUSTED_PROXIES set, hops are
// believed from the right for that many proxies (or while the hop is a listed proxy address).
import { config } from "../config/env.mjs";
import { PEER_ADDRESS_HEADER, peerHookInstalled } from "./peer-address";

type HeaderSource = Headers | Record<string, string | string[] | undefined> | undefined;

/** More hops than this in X-Forwarded-For are not read (they could only come from a client). */
const MAX_FORWARDED_HOPS = 32;
const MAX_HEADER_CHARS = 4096;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const v = headers[name];
  return Array.isArray(v) ? v.join(",") : v;
}

/** `::ffff:1.2.3.4` is 1.2.3.4; anything that is not an IP address becomes "unknown". */
export function normalizeIp(raw: string | undefined): string {
  const text = (raw ?? "").trim().slice(0, 64).toLowerCase();
  const v4 = text.startsWith("::ffff:") ? text.slice(7) : text;
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(v4)) return v4;
  if (/^[0-9a-f:]{2,39}$/.test(text) && text.includes(":")) return text;
  return "unknown";
}

type Trust = { hops: number } | { proxies: Set<string> };

let cachedTrust: { source: string; trust: Trust } | undefined;

function trust(): Trust {
  const source = config().TRUSTED_PROXIES;
  if (cachedTrust?.source !== source) {
    const t: Trust = /^\d+$/.test(source)
      ? { hops: Number(source) }
      : { proxies: new Set(source.split(",").map((s) => normalizeIp(s))) };
    cachedTrust = { source, trust: t };
  }
  return cachedTrust.trust;
}

/**
 * The client's IP address. Without the peer hook (a handler called outside the Next server) there
 * is no trustworthy address: the answer is "unknown", one shared bucket, never a header's claim.
 */
export function clientIp(headers: HeaderSource): string {
  const peer = peerHookInstalled() ? normalizeIp(header(headers, PEER_ADDRESS_HEADER)) : "unknown";
  const t = trust();
  if ("hops" in t && t.hops === 0) return peer;
  const forwarded = (header(headers, "x-forwarded-for") ?? "")
    .slice(0, MAX_HEADER_CHARS)
    .split(",")
    .filter((hop) => hop.trim() !== "");
  // The chain as the last proxy saw it: the client first, each proxy's peer after it, ours last.
  const chain = [...forwarded.slice(-MAX_FORWARDED_HOPS).map(normalizeIp), peer];
  if ("hops" in t) return chain[Math.max(0, chain.length - 1 - t.hops)] ?? peer;
  let i = chain.length - 1;
  while (i > 0 && t.proxies.has(chain[i]!)) i--;
  return chain[i] ?? peer;
}
