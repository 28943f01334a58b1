/* eslint-disable */
// net: deny
// expect: loop.input
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");
const rows = input.rows;
const out = rows.map((a) => rows.filter((b) => b.id === a.parent).length);
console.log(JSON.stringify(out));
