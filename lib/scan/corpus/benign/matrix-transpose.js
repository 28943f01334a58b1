/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const m = Array.isArray(input.matrix) ? input.matrix : [];
const t = m.length ? m[0].map((_, c) => m.map((row) => row[c])) : [];
console.log(JSON.stringify({ matrix: t }));
