// column_stats: per-column statistics for a small CSV text.
// Input (stdin, JSON): { "csv": string, "delimiter"?: "," | ";" | "\t" | "|", "has_header"?: boolean }
// Output (stdout, JSON): { "rows": n, "columns": [ { name, count, empty, distinct, type, ... } ] }
"use strict";

function parseCsv(text, delimiter) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === "") {
      quoted = true;
    } else if (ch === delimiter) {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else {
      field += ch;
    }
  }
  if (quoted) throw new Error("A quoted field is never closed.");
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0].trim() === ""));
}

function median(sorted) {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (n) => Math.round(n * 1e6) / 1e6;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function columnStats(name, values) {
  const present = values.map((v) => v.trim()).filter((v) => v !== "");
  const stats = {
    name,
    count: present.length,
    empty: values.length - present.length,
    distinct: new Set(present).size,
  };
  if (present.length > 0 && present.every((v) => NUMBER.test(v))) {
    const nums = present.map(Number).sort((a, b) => a - b);
    const sum = nums.reduce((a, b) => a + b, 0);
    return Object.assign(stats, {
      type: "number",
      min: nums[0],
      max: nums[nums.length - 1],
      sum: round(sum),
      mean: round(sum / nums.length),
      median: round(median(nums)),
    });
  }
  const counts = new Map();
  for (const v of present) counts.set(v, (counts.get(v) || 0) + 1);
  let top = null;
  for (const [value, n] of counts) if (!top || n > top.count) top = { value, count: n };
  const lengths = present.map((v) => v.length);
  return Object.assign(stats, {
    type: "text",
    top,
    shortest: lengths.length ? Math.min(...lengths) : 0,
    longest: lengths.length ? Math.max(...lengths) : 0,
  });
}

function run(input) {
  if (typeof input.csv !== "string" || input.csv.trim() === "") throw new Error("`csv` must be non-empty text.");
  const delimiter = input.delimiter || ",";
  const rows = parseCsv(input.csv, delimiter);
  const width = Math.max(...rows.map((r) => r.length));
  const hasHeader = input.has_header !== false;
  const header = hasHeader ? rows.shift() : [];
  const names = Array.from({ length: width }, (_, i) => (header[i] || "").trim() || `column_${i + 1}`);
  return {
    rows: rows.length,
    columns: names.map((name, i) =>
      columnStats(
        name,
        rows.map((r) => (r[i] === undefined ? "" : r[i])),
      ),
    ),
  };
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
