/* eslint-disable */
// net: deny
// expect: scan.unresolved
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
console.log(JSON.stringify(process[input.which]));
