// Which addresses a tool's traffic may reach through the Link's egress proxy: global unicast and
// nothing else. ipaddr.js names the special-purpose ranges (IANA's registries); this module adds
// the few it calls "unicast" that are not (IPv4-compatible IPv6, IPv6 outside 2000::/3, cloud
// metadata on a global address) and decodes the IPv4 address a transition range carries.
import ipaddr from "ipaddr.js";

export type AddressVerdict = {
  /** The address in canonical form: what the proxy connects to when it is allowed. */
  address: string;
  allowed: boolean;
  /** ipaddr.js's range name (`unicast`, `private`, `6to4`, …) or one of ours (`ipv4Compatible`, `cloudMetadata`, `unallocated`). */
  range: string;
  /** For IPv6 ranges that embed an IPv4 address (mapped, NAT64, 6to4, Teredo client, compatible). */
  embeddedIPv4?: string;
};

/** Global addresses that are still a cloud's own service endpoint, never a tool's destination. */
const CLOUD_METADATA = [
  // Azure's WireServer (instance metadata, health, DNS); the others are link-local, CGNAT or ULA already.
  ipaddr.parseCIDR("168.63.129.16/32"),
] as const;

/** IPv6 global unicast (RFC 4291 §2.4): the rest of the space is special-purpose or unallocated. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
/** The deprecated IPv4-compatible form (RFC 4291 §2.5.5.1), `::a.b.c.d`; `::` and `::1` are matched first. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** True when `host` is an address literal in any form a resolver would take as one (`127.1`, `0x7f.0.0.1`, `[::1]`). */
export function isAddressLiteral(host: string): boolean {
  return parse(host) !== null;
}

/** Classifies one address; anything that does not parse is refused as `invalid`. */
export function classifyAddress(input: string): AddressVerdict {
  const parsed = parse(input);
  if (!parsed) return { address: input, allowed: false, range: "invalid" };
  if (parsed.address.kind() === "ipv4") return classifyV4(parsed.address as ipaddr.IPv4);
  return classifyV6(parsed.address as ipaddr.IPv6, parsed.zone);
}

/**
 * ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`, so IPv6 text is first put in canonical form by
 * the WHATWG URL parser (RFC 4291's reading: `::7f00:1`). A zone (`%eth0`) is kept apart.
 */
function parse(input: string): { address: ipaddr.IPv4 | ipaddr.IPv6; zone?: string } | null {
  const text = input.replace(/^\[|\]$/g, "");
  try {
    if (!text.includes(":")) return { address: ipaddr.IPv4.parse(text) };
    const at = text.indexOf("%");
    const zone = at >= 0 ? text.slice(at + 1) : undefined;
    if (zone === "") return null;
    const canonical = new URL(`http://[${at >= 0 ? text.slice(0, at) : text}]/`).hostname.slice(1, -1);
    return { address: ipaddr.IPv6.parse(canonical), ...(zone !== undefined ? { zone } : {}) };
  } catch {
    return null;
  }
}

function classifyV4(address: ipaddr.IPv4): AddressVerdict {
  let range: string = address.range();
  if (range === "unicast" && CLOUD_METADATA.some((cidr) => cidr[0].kind() === "ipv4" && address.match(cidr))) range = "cloudMetadata";
  return { address: address.toString(), allowed: range === "unicast", range };
}

function classifyV6(address: ipaddr.IPv6, zone: string | undefined): AddressVerdict {
  const canonical = address.toString();
  let range: string = address.range();
  if (range === "unicast") {
    if (address.match(IPV4_COMPATIBLE)) range = "ipv4Compatible";
    else if (!address.match(GLOBAL_UNICAST_V6)) range = "unallocated";
    // A zone only means something for link-local; a zone on anything else is not an address to dial.
    else if (zone !== undefined) range = "zoned";
  }
  const embeddedIPv4 = embeddedV4(address, range);
  return { address: zone !== undefined ? `${canonical}%${zone}` : canonical, allowed: range === "unicast", range, ...(embeddedIPv4 ? { embeddedIPv4 } : {}) };
}

/** The IPv4 address an IPv6 transition address carries, where its range defines one. */
function embeddedV4(address: ipaddr.IPv6, range: string): string | undefined {
  const p = address.parts;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  switch (range) {
    case "ipv4Mapped": // ::ffff:a.b.c.d
    case "rfc6145": // ::ffff:0:a.b.c.d
    case "ipv4Compatible": // ::a.b.c.d
      return v4(p[6]!, p[7]!);
    case "rfc6052": // 64:ff9b::a.b.c.d (the /96 well-known prefix; the /48 local-use prefix has no fixed layout)
      return p[2] === 0 ? v4(p[6]!, p[7]!) : undefined;
    case "6to4": // 2002:AABB:CCDD::/48
      return v4(p[1]!, p[2]!);
    case "teredo": // 2001:0:server:flags:port:client, the client address stored inverted (RFC 4380 §4)
      return v4(~p[6]! & 0xffff, ~p[7]! & 0xffff);
    default:
      return undefined;
  }
}
