// RFC 7240 `Prefer` request header: the `wait` preference (seconds a client is willing to wait
// for the final answer instead of polling for it).

/**
 * The `wait=N` of a Prefer header, capped at `maxSeconds`; 0 without one or with one that is not
 * a whole number of seconds. Other preferences, and their parameters, are ignored.
 */
export function preferredWaitSeconds(header: string | null, maxSeconds: number): number {
  if (!header || header.length > 1024) return 0;
  for (const preference of header.split(",")) {
    const [token] = preference.split(";");
    const match = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*$/i.exec(token ?? "");
    if (match) return Math.min(Number(match[1]), maxSeconds);
  }
  return 0;
}
