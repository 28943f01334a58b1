/* eslint-disable */
// net: deny
// expect: loop.input
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
const xs = Array.from({ length: input.n }, (_, i) => i * i);
console.log(JSON.stringify({ last: xs[xs.length - 1] }));
