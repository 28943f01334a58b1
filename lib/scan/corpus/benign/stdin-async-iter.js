/* eslint-disable */
// net: deny
async function readAll() {
  let s = "";
  for await (const chunk of process.stdin) s += chunk;
  return s;
}
const input = JSON.parse((await readAll()) || "{}");
const nums = (input.numbers || []).map(Number).filter((n) => Number.isFinite(n));
const sum = nums.reduce((a, b) => a + b, 0);
process.stdout.write(JSON.stringify({ count: nums.length, sum, mean: nums.length ? sum / nums.length : null }));
