// The route table of everything `openvibe verify` reads: the log endpoints and the public reads of
// a version (document, listing, pinned code bytes), for serveRoutes.
import type { RouteTable } from "./route-server";

export async function tlogRoutes(): Promise<RouteTable> {
  const [key, checkpoint, inclusion, consistency, entries, versionLog, document, listing, code] = await Promise.all([
    import("../../app/api/v1/log/key/route"),
    import("../../app/api/v1/log/checkpoint/route"),
    import("../../app/api/v1/log/proof/inclusion/route"),
    import("../../app/api/v1/log/proof/consistency/route"),
    import("../../app/api/v1/log/entries/route"),
    import("../../app/api/v1/log/versions/[slug]/[version]/route"),
    import("../../app/api/v1/skills/[slug]/[version]/route"),
    import("../../app/api/v1/skills/[slug]/[version]/listing/route"),
    import("../../app/api/v1/skills/[slug]/[version]/code/[sha256]/route"),
  ]);
  return [
    { method: "GET", pattern: "/api/v1/log/key", handler: key.GET },
    { method: "GET", pattern: "/api/v1/log/checkpoint", handler: checkpoint.GET },
    { method: "GET", pattern: "/api/v1/log/proof/inclusion", handler: inclusion.GET },
    { method: "GET", pattern: "/api/v1/log/proof/consistency", handler: consistency.GET },
    { method: "GET", pattern: "/api/v1/log/entries", handler: entries.GET },
    { method: "GET", pattern: "/api/v1/log/versions/[slug]/[version]", handler: versionLog.GET },
    { method: "GET", pattern: "/api/v1/skills/[slug]/[version]", handler: document.GET },
    { method: "GET", pattern: "/api/v1/skills/[slug]/[version]/listing", handler: listing.GET },
    { method: "GET", pattern: "/api/v1/skills/[slug]/[version]/code/[sha256]", handler: code.GET },
  ];
}
