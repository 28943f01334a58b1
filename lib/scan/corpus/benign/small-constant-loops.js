/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const grid = [];
for (let y = 0; y < 8; y++) {
  const row = [];
  for (let x = 0; x < 8; x++) row.push((x + y) % 2 === 0 ? "#" : ".");
  grid.push(row.join(""));
}
for (const unit of ["ms", "s", "min"]) {
  for (const n of [1, 2, 3]) grid.push(n + unit);
}
console.log(JSON.stringify({ grid, seed: input.seed ?? 0 }));
