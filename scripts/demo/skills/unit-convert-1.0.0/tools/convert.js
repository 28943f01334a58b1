// convert: converts a value between units of length or mass.
// Input: { "value": number, "from": unit, "to": unit }  Output: { "value", "from", "to", "result" }
"use strict";

const UNITS = {
  mm: ["length", 0.001],
  cm: ["length", 0.01],
  m: ["length", 1],
  km: ["length", 1000],
  in: ["length", 0.0254],
  ft: ["length", 0.3048],
  mi: ["length", 1609.344],
  g: ["mass", 1],
  kg: ["mass", 1000],
  oz: ["mass", 28.349523125],
  lb: ["mass", 453.59237],
};

function run(input) {
  const from = UNITS[input.from];
  const to = UNITS[input.to];
  if (typeof input.value !== "number") throw new Error("`value` must be a number.");
  if (!from || !to) throw new Error("Unknown unit.");
  if (from[0] !== to[0]) throw new Error(`Cannot convert ${from[0]} to ${to[0]}.`);
  const result = Math.round(((input.value * from[1]) / to[1]) * 100) / 100;
  return { value: input.value, from: input.from, to: input.to, result };
}

let raw = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  raw += chunk;
});
process.stdin.on("end", () => {
  try {
    process.stdout.write(JSON.stringify(run(JSON.parse(raw || "{}"))));
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: err.message }));
    process.exitCode = 1;
  }
});
