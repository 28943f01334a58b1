/* eslint-disable */
// net: deny
// expect: scan.unresolved
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
const C = input.fn.constructor;
console.log(C(input.src));
