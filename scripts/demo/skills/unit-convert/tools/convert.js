// convert: converts a value between units of length, mass, temperature or data size.
// Input: { "value": number, "from": unit, "to": unit, "precision"?: integer }
// Output: { "value", "from", "to", "result", "category" }
"use strict";

// Factor to the category's base unit (metre, gram, byte). Temperature is handled separately.
const UNITS = {
  mm: ["length", 0.001],
  cm: ["length", 0.01],
  m: ["length", 1],
  km: ["length", 1000],
  in: ["length", 0.0254],
  ft: ["length", 0.3048],
  yd: ["length", 0.9144],
  mi: ["length", 1609.344],
  mg: ["mass", 0.001],
  g: ["mass", 1],
  kg: ["mass", 1000],
  t: ["mass", 1e6],
  oz: ["mass", 28.349523125],
  lb: ["mass", 453.59237],
  st: ["mass", 6350.29318],
  c: ["temperature"],
  f: ["temperature"],
  k: ["temperature"],
  b: ["data", 1],
  kb: ["data", 1e3],
  mb: ["data", 1e6],
  gb: ["data", 1e9],
  tb: ["data", 1e12],
  kib: ["data", 1024],
  mib: ["data", 1024 ** 2],
  gib: ["data", 1024 ** 3],
  tib: ["data", 1024 ** 4],
};

function toKelvin(v, unit) {
  if (unit === "c") return v + 273.15;
  if (unit === "f") return ((v - 32) * 5) / 9 + 273.15;
  return v;
}

function fromKelvin(v, unit) {
  if (unit === "c") return v - 273.15;
  if (unit === "f") return ((v - 273.15) * 9) / 5 + 32;
  return v;
}

// Significant digits rather than fixed decimals, so 1 mm in miles does not round to 0.
function roundSignificant(n, digits) {
  if (n === 0 || !Number.isFinite(n)) return n;
  return Number(n.toPrecision(digits));
}

function run(input) {
  const from = String(input.from || "").toLowerCase();
  const to = String(input.to || "").toLowerCase();
  if (typeof input.value !== "number" || !Number.isFinite(input.value)) throw new Error("`value` must be a number.");
  if (!UNITS[from]) throw new Error(`Unknown unit "${input.from}".`);
  if (!UNITS[to]) throw new Error(`Unknown unit "${input.to}".`);
  const category = UNITS[from][0];
  if (UNITS[to][0] !== category) throw new Error(`Cannot convert ${category} (${from}) to ${UNITS[to][0]} (${to}).`);
  const precision = Number.isInteger(input.precision) ? Math.min(Math.max(input.precision, 1), 15) : 10;
  let result;
  if (category === "temperature") {
    const kelvin = toKelvin(input.value, from);
    if (kelvin < 0) throw new Error("That temperature is below absolute zero.");
    result = fromKelvin(kelvin, to);
  } else {
    result = (input.value * UNITS[from][1]) / UNITS[to][1];
  }
  return { value: input.value, from, to, result: roundSignificant(result, precision), category };
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
