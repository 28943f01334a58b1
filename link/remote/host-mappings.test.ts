// OPENVIBE_LINK_HOSTS: the owner's name → address mappings for the egress proxy, read strictly.
import { describe, expect, it } from "vitest";
import { parseHostMappings } from "./commands";

describe("parseHostMappings", () => {
  it("reads name=address:port pairs, lowercasing names and unbracketing IPv6", () => {
    expect(parseHostMappings(undefined)).toEqual({});
    expect(parseHostMappings(" API.openvibe.services=127.0.0.1:8080 , x.openvibe.services=[::1]:443")).toEqual({
      "api.openvibe.services": "127.0.0.1:8080",
      "x.openvibe.services": "::1:443",
    });
  });

  it.each(["api.openvibe.services", "a=b:1", "a=127.0.0.1", "a=127.0.0.1:99999", "a b=127.0.0.1:80"])(
    "refuses %j",
    (text) => {
      expect(() => parseHostMappings(text)).toThrow(/OPENVIBE_LINK_HOSTS/);
    },
  );
});
