/* eslint-disable */
// net: deny
const raw = require("node:fs").readFileSync(0, "utf8");
const input = JSON.parse(raw || "{}");

const buf = Buffer.from(String(input.text || ""), "utf8").subarray(0, 256);
const lines = [];
for (let off = 0; off < buf.length; off += 16) {
  const chunk = buf.subarray(off, off + 16);
  lines.push(off.toString(16).padStart(4, "0") + "  " + chunk.toString("hex").replace(/(..)/g, "$1 ").trim());
}
console.log(JSON.stringify({ lines }));
