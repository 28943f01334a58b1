/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const { rows = [], by = "name", desc = false } = input;
const sorted = [...rows].sort((a, b) => {
  const x = a[by];
  const y = b[by];
  if (x === y) return 0;
  return (x < y ? -1 : 1) * (desc ? -1 : 1);
});
console.log(JSON.stringify({ rows: sorted }));
