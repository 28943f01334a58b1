/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

function parseLine(line) {
  const cells = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      cells.push(cur);
      cur = "";
    } else cur += ch;
  }
  cells.push(cur);
  return cells;
}

const lines = String(input.csv || "").split(/\r?\n/).filter((l) => l.length > 0);
const headers = parseLine(lines[0] || "");
const rows = lines.slice(1).map((l) => {
  const cells = parseLine(l);
  return Object.fromEntries(headers.map((h, i) => [h, cells[i] ?? ""]));
});
process.stdout.write(JSON.stringify({ rows }));
