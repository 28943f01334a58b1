/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const FACTORS = { m: 1, km: 1000, cm: 0.01, mm: 0.001, mi: 1609.344, ft: 0.3048, in: 0.0254 };
const from = FACTORS[input.from];
const to = FACTORS[input.to];
if (!from || !to) console.log(JSON.stringify({ error: "unknown unit" }));
else console.log(JSON.stringify({ value: (Number(input.value) * from) / to }));
