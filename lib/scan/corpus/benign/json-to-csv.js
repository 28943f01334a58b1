/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const rows = Array.isArray(input.rows) ? input.rows : [];
const columns = [];
for (const row of rows) {
  for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
}
const esc = (v) => {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
};
const out = [columns.join(",")].concat(rows.map((r) => columns.map((c) => esc(r[c])).join(",")));
process.stdout.write(JSON.stringify({ csv: out.join("\n") }));
