// @ts-check
// The routes web-server.mjs hands straight to their handlers: those on every tool call's path.
// `:name` is a parameter; `folder` is the route's folder under app/.

/** @type {readonly { methods: readonly string[]; pattern: string; folder: string }[]} */
export const DIRECT_ROUTES = Object.freeze([
  { methods: ["POST"], pattern: "/api/v1/steps", folder: "api/v1/steps" },
  { methods: ["GET"], pattern: "/api/v1/steps/:id", folder: "api/v1/steps/[id]" },
  { methods: ["GET", "POST", "DELETE"], pattern: "/api/mcp", folder: "api/mcp" },
  { methods: ["POST"], pattern: "/api/link/v1/poll", folder: "api/link/v1/poll" },
  { methods: ["POST"], pattern: "/api/link/v1/heartbeat", folder: "api/link/v1/heartbeat" },
  { methods: ["POST"], pattern: "/api/link/v1/jobs/:id/start", folder: "api/link/v1/jobs/[id]/start" },
  { methods: ["POST"], pattern: "/api/link/v1/jobs/:id/release", folder: "api/link/v1/jobs/[id]/release" },
  { methods: ["POST"], pattern: "/api/link/v1/jobs/:id/result", folder: "api/link/v1/jobs/[id]/result" },
  {
    methods: ["GET"],
    pattern: "/api/link/v1/jobs/:id/inputs/:mediaId",
    folder: "api/link/v1/jobs/[id]/inputs/[mediaId]",
  },
]);

const COMPILED = DIRECT_ROUTES.map((route) => ({ ...route, parts: route.pattern.split("/") }));

/**
 * The direct route for `method` and the request target `url` (path and query), with its parameters;
 * null when Next.js should answer: another path or method, a trailing slash or an empty segment,
 * or a "%" anywhere in the path (the proxy checks that it decodes).
 * @param {string} method @param {string} url
 * @returns {{ folder: string; params: Record<string, string> } | null}
 */
export function matchDirectRoute(method, url) {
  const q = url.indexOf("?");
  const pathname = q < 0 ? url : url.slice(0, q);
  if (!pathname.startsWith("/api/") || pathname.includes("%")) return null;
  const segments = pathname.split("/");
  for (const route of COMPILED) {
    if (route.parts.length !== segments.length || !route.methods.includes(method)) continue;
    /** @type {Record<string, string>} */
    const params = {};
    const same = route.parts.every((part, i) => {
      const segment = /** @type {string} */ (segments[i]);
      if (!part.startsWith(":")) return part === segment;
      params[part.slice(1)] = segment;
      return segment !== "";
    });
    if (same) return { folder: route.folder, params };
  }
  return null;
}
