// The route pattern of a request (`/api/v1/steps/[id]`) from its path and the params Next matched,
// so request metrics have one series per route rather than one per id.

type Params = Record<string, string | string[] | undefined>;

/** The label when a param cannot be found in the path (it must never become the caller's text). */
export const UNMATCHED_ROUTE = "(unmatched)";

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Replaces each param's segment(s) with `[name]` (`[...name]` for a catch-all), left to right in
 * the order Next lists them. What is left are the route's own literal segments, so the label never
 * carries a caller's text; if a param is not found, the label is UNMATCHED_ROUTE.
 */
export function routeLabel(pathname: string, params: Params): string {
  const segments = pathname.split("/");
  // Replaced segments become null so no later param can match them again.
  const decoded: Array<string | null> = segments.map(decode);
  let from = 0;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const parts = Array.isArray(value) ? value : [value];
    if (!parts.length) continue;
    let found = -1;
    for (let i = from; i + parts.length <= segments.length && found === -1; i++) {
      if (parts.every((p, j) => decoded[i + j] === p)) found = i;
    }
    if (found === -1) return UNMATCHED_ROUTE;
    segments.splice(found, parts.length, Array.isArray(value) ? `[...${name}]` : `[${name}]`);
    decoded.splice(found, parts.length, null);
    from = found + 1;
  }
  return segments.join("/") || "/";
}
