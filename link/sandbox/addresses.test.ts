// The egress proxy's address classes: every special-purpose range is refused by name, the IPv4
// address a transition range carries is decoded, and only global unicast is allowed.
import { describe, expect, it } from "vitest";
import { classifyAddress, isAddressLiteral } from "./addresses";

describe("classifyAddress", () => {
  it.each([
    // IPv4 (IANA IPv4 special-purpose registry)
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["100.100.100.200", "carrierGradeNat"], // Alibaba Cloud's metadata
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["169.254.169.254", "linkLocal"], // AWS, GCP, Azure, OpenStack metadata
    ["192.0.0.1", "reserved"], // IETF protocol assignments
    ["192.0.0.192", "reserved"], // Oracle Cloud's metadata
    ["192.0.2.1", "reserved"], // documentation (TEST-NET-1)
    ["198.51.100.1", "reserved"], // documentation (TEST-NET-2)
    ["203.0.113.1", "reserved"], // documentation (TEST-NET-3)
    ["198.18.0.1", "reserved"], // benchmarking
    ["198.19.255.255", "reserved"], // benchmarking
    ["192.88.99.1", "reserved"], // 6to4 relay anycast
    ["240.0.0.1", "reserved"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.175.48.1", "as112"],
    ["192.31.196.1", "as112"],
    ["192.52.193.1", "amt"],
    ["168.63.129.16", "cloudMetadata"], // Azure's WireServer, a global address
    // IPv6 (IANA IPv6 special-purpose registry)
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["::ffff:0:10.0.0.1", "rfc6145"],
    ["100::1", "discard"],
    ["2001:2::1", "benchmarking"],
    ["2001:3::1", "amt"],
    ["2001:4:112::1", "as112v6"],
    ["2001:10::1", "deprecatedOrchid"],
    ["2001:20::1", "orchid2"],
    ["2001:30::1", "droneRemoteIdProtocolEntityTags"],
    ["2001:100::1", "reserved"],
    ["2001:db8::1", "reserved"], // documentation
    ["3fff::1", "reserved"], // documentation (RFC 9637)
    ["5f00::1", "segmentRouting"],
    ["fc00::1", "uniqueLocal"],
    ["fd00:ec2::254", "uniqueLocal"], // AWS's IPv6 metadata
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["ff02::1", "multicast"],
    ["ff05::1:3", "multicast"],
    ["4000::1", "unallocated"], // outside 2000::/3
    ["8000::1", "unallocated"],
    ["2606:4700::1%eth0", "zoned"],
  ])("refuses %s (%s)", (address, range) => {
    expect(classifyAddress(address)).toMatchObject({ allowed: false, range });
  });

  it.each([
    ["::ffff:127.0.0.1", "ipv4Mapped", "127.0.0.1"],
    ["::ffff:93.184.216.34", "ipv4Mapped", "93.184.216.34"],
    ["::127.0.0.1", "ipv4Compatible", "127.0.0.1"],
    ["::8.8.8.8", "ipv4Compatible", "8.8.8.8"],
    ["64:ff9b::7f00:1", "rfc6052", "127.0.0.1"], // NAT64 well-known prefix
    ["64:ff9b::a9fe:a9fe", "rfc6052", "169.254.169.254"],
    ["2002:7f00:1::1", "6to4", "127.0.0.1"],
    ["2002:a00:1::", "6to4", "10.0.0.1"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo", "192.0.2.45"], // RFC 4380's example client
  ])("refuses %s (%s, carrying %s)", (address, range, embeddedIPv4) => {
    expect(classifyAddress(address)).toMatchObject({ allowed: false, range, embeddedIPv4 });
  });

  it("refuses the NAT64 local-use prefix without guessing an embedded address", () => {
    expect(classifyAddress("64:ff9b:1::a00:1")).toEqual({ address: "64:ff9b:1::a00:1", allowed: false, range: "rfc6052" });
  });

  it.each([
    ["93.184.216.34", "93.184.216.34"],
    ["1.1.1.1", "1.1.1.1"],
    ["8.8.8.8", "8.8.8.8"],
    ["2606:4700:4700::1111", "2606:4700:4700::1111"],
    ["2a00:1450:4001:0830:0000:0000:0000:200e", "2a00:1450:4001:830::200e"],
    ["[2606:4700:4700::1111]", "2606:4700:4700::1111"],
  ])("allows the global unicast %s as %s", (input, address) => {
    expect(classifyAddress(input)).toEqual({ address, allowed: true, range: "unicast" });
  });

  it("reads the forms a resolver accepts, so none of them hides loopback", () => {
    for (const form of ["127.1", "0x7f.0.0.1", "0177.0.0.1", "2130706433", "[::1]", "0:0:0:0:0:0:0:1"]) {
      expect(isAddressLiteral(form), form).toBe(true);
      expect(classifyAddress(form), form).toMatchObject({ allowed: false, range: "loopback" });
    }
  });

  it("refuses what is not an address at all", () => {
    for (const text of ["", "example.com", "1.2.3.4.5", "::g", "256.1.1.1"]) {
      expect(isAddressLiteral(text), text).toBe(false);
      expect(classifyAddress(text), text).toMatchObject({ allowed: false, range: "invalid" });
    }
  });
});
