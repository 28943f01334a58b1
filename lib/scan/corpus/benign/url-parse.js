/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

let parsed = null;
try {
  const u = new URL(String(input.url || ""));
  parsed = { protocol: u.protocol, host: u.host, path: u.pathname, query: Object.fromEntries(u.searchParams) };
} catch {
  parsed = { error: "invalid url" };
}
console.log(JSON.stringify(parsed));
