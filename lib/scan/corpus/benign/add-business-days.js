/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const start = new Date(input.date + "T00:00:00Z");
let left = Math.min(Number(input.days) || 0, 365);
const d = new Date(start);
for (let step = 0; step < 1000 && left > 0; step++) {
  d.setUTCDate(d.getUTCDate() + 1);
  const wd = d.getUTCDay();
  if (wd !== 0 && wd !== 6) left--;
}
console.log(JSON.stringify({ result: d.toISOString().slice(0, 10) }));
