/* eslint-disable */
// net: deny
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8") || "{}");

const MS_PER_DAY = 24 * 60 * 60 * 1000;
function parse(d) {
  const t = Date.parse(d);
  if (Number.isNaN(t)) throw new Error("not a date: " + d);
  return t;
}
const from = parse(input.from);
const to = parse(input.to);
const days = Math.round((to - from) / MS_PER_DAY);
const weeks = Math.floor(days / 7);
console.log(JSON.stringify({ days, weeks, weekdays: countWeekdays(from, to) }));

function countWeekdays(a, b) {
  let n = 0;
  const total = Math.min(Math.abs(Math.round((b - a) / MS_PER_DAY)), 3660);
  for (let i = 0; i < total; i++) {
    const day = new Date(a + i * MS_PER_DAY).getUTCDay();
    if (day !== 0 && day !== 6) n++;
  }
  return n;
}
