/* eslint-disable */
// net: deny
// expect: loop.input
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
let i = 0;
while (i < input.count) i++;
console.log(JSON.stringify({ i }));
