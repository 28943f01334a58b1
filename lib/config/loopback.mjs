// @ts-check
// Whether a host name or URL stays on this machine (loopback). `npm start` decides from it where
// to listen, whether to print the demo sign-in and whether to run a local Link; the seed decides
// whether to create the demo account. No imports: scripts use it before node_modules exists.

/**
 * True for `localhost` (and `*.localhost`), 127.0.0.0/8, `::1` and IPv4-mapped loopback.
 * @param {string} host a host name or address, IPv6 with or without brackets
 */
export function isLoopbackHost(host) {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  const v4 = h.replace(/^::ffff:/, "");
  const parts = v4.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/**
 * True when the URL's host is loopback; false for anything that is not a URL.
 * @param {string} url
 */
export function isLoopbackUrl(url) {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}
