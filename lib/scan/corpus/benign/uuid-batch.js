/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const { randomUUID } = require("crypto");
const n = Math.min(Number(input.count) || 1, 100);
const ids = [];
for (let i = 0; i < n; i++) ids.push(randomUUID());
console.log(JSON.stringify({ ids }));
