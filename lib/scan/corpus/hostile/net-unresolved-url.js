/* eslint-disable */
// net: openvibe-only
// expect: net.unresolved_host
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
const r = await fetch(input.url);
console.log(r.status);
