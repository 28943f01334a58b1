/* eslint-disable */
// net: deny
// expect: module.unresolved
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
const mod = require(input.module);
console.log(typeof mod);
